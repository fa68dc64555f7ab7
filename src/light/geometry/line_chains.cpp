#include "light/geometry/line_chains.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "light/error.h"
#include "light/geometry/link_class.h"
#include "light/util/disjoint_sets.h"

namespace light::geometry {

namespace {
double direction(const ReadingFrame& f) { return std::atan2(f.end.y - f.start.y, f.end.x - f.start.x); }

// The white between `from` and a word `to` on its baseline ahead of it, in from's heights; NaN when
// `to` is not the next word of from's line by `limits`.
double chain_gap(const ReadingFrame& from, const ReadingFrame& to, const LineChaining& limits) {
  if (!(from.height > 0) || !(to.height > 0) || !(std::abs(std::log(to.height / from.height)) <= limits.log_height)) return NAN;
  if (!(std::abs(std::remainder(direction(to) - direction(from), 2 * M_PI)) <= limits.degrees * M_PI / 180)) return NAN;
  const LinkOffset o = link_offset(from, to);
  if (!(o.along > 0) || !(std::abs(o.across) <= limits.across) || !(o.gap <= limits.gap) || !(o.gap >= -limits.overlap)) return NAN;
  return o.gap;
}
}  // namespace

std::vector<LineEnds> line_ends(const std::vector<ReadingFrame>& frames, const LineChaining& limits) {
  const size_t n = frames.size();
  constexpr size_t none = std::numeric_limits<size_t>::max();
  // Each word's nearest word ahead on its line, and the nearest behind; kept where both agree.
  std::vector<size_t> ahead(n, none), behind(n, none);
  std::vector<double> ahead_gap(n, INFINITY), behind_gap(n, INFINITY);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const double g = chain_gap(frames[i], frames[j], limits);
      if (std::isnan(g)) continue;
      if (g < ahead_gap[i]) ahead_gap[i] = g, ahead[i] = j;
      if (g < behind_gap[j]) behind_gap[j] = g, behind[j] = i;
    }
  std::vector<size_t> next(n, none), prev(n, none);
  for (size_t i = 0; i < n; ++i)
    if (ahead[i] != none && behind[ahead[i]] == i) next[i] = ahead[i], prev[ahead[i]] = i;
  std::vector<LineEnds> out(n);
  for (size_t i = 0; i < n; ++i) {
    // Walk to the chain's ends; a ring of words (no first word) is cut after n steps.
    size_t first = i, last = i;
    for (size_t s = 0; prev[first] != none && s < n; ++s) first = prev[first];
    for (size_t s = 0; next[last] != none && s < n; ++s) last = next[last];
    out[i] = {frames[first].start, frames[last].end};
  }
  return out;
}

namespace {
bool on_one_line(LinkClass c) { return c != LinkClass::NextLine && c != LinkClass::Above; }
}  // namespace

std::vector<int> lines_of(const std::vector<int>& successors, const std::vector<ReadingFrame>& frames) {
  const size_t n = successors.size();
  if (frames.size() != n) throw Error("lines_of: " + std::to_string(n) + " words and " + std::to_string(frames.size()) + " frames");
  DisjointSets lines_of_words(n);
  for (size_t i = 0; i < n; ++i) {
    const int j = successors[i];
    if (j < 0 || static_cast<size_t>(j) >= n || static_cast<size_t>(j) == i) continue;
    if (on_one_line(classify_link(frames[i], frames[static_cast<size_t>(j)])))
      lines_of_words.join(i, static_cast<size_t>(j));
  }
  std::vector<int> number(n, -1), out(n);
  int lines = 0;
  for (size_t k = 0; k < n; ++k) {
    const size_t r = lines_of_words.find(k);
    if (number[r] < 0) number[r] = lines++;
    out[k] = number[r];
  }
  return out;
}

LineSpan line_span(const ReadingFrame& along, const std::vector<int>& line, const std::vector<ReadingFrame>& frames) {
  const double ux = along.end.x - along.start.x, uy = along.end.y - along.start.y, len = std::hypot(ux, uy);
  if (!(len > 0)) return {};
  LineSpan s{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (int k : line)
    for (const auto& p : {frames[static_cast<size_t>(k)].start, frames[static_cast<size_t>(k)].end}) {
      const double t = (p.x * ux + p.y * uy) / len;
      s.lo = std::min(s.lo, t), s.hi = std::max(s.hi, t);
    }
  return s;
}

double line_end_offset(const ReadingFrame& from, const std::vector<int>& a, const std::vector<int>& b,
                       const std::vector<ReadingFrame>& frames) {
  if (!(std::hypot(from.end.x - from.start.x, from.end.y - from.start.y) > 0) || !(from.height > 0))
    return std::numeric_limits<double>::infinity();
  const LineSpan sa = line_span(from, a, frames), sb = line_span(from, b, frames);
  const double d = std::min({std::abs(sa.lo - sb.lo), std::abs(sa.hi - sb.hi), std::abs(0.5 * (sa.lo + sa.hi) - 0.5 * (sb.lo + sb.hi))});
  return d / from.height;
}

}  // namespace light::geometry

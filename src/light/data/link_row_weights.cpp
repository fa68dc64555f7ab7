// The weight of each word's link rows by where its successor lies (data/link_weights.h; apart from the
// spec's reading, which the fuzzed config reader links without geometry).
#include "light/data/link_weights.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "light/geometry/line_chains.h"
#include "light/geometry/link_class.h"

namespace light::data {

namespace {
// The interval a line covers along a frame's axis, in that frame's heights.
std::pair<double, double> span_along(const geometry::ReadingFrame& f, const geometry::LineEnds& line) {
  const double dx = f.end.x - f.start.x, dy = f.end.y - f.start.y, len = std::hypot(dx, dy);
  const auto at = [&](const geometry::Point& p) { return ((p.x - f.start.x) * dx + (p.y - f.start.y) * dy) / (len * f.height); };
  const double a = at(line.start), b = at(line.end);
  return {std::min(a, b), std::max(a, b)};
}
}  // namespace

void link_row_weights(const TileInputs& in, const LinkWeights& w, std::vector<float>& next, std::vector<float>& prev) {
  const size_t n = in.words.size();
  next.assign(n, 1.0f);
  prev.assign(n, 1.0f);
  if (w.neutral() || n == 0) return;
  std::vector<geometry::ReadingFrame> frames;
  for (const ModelWord& m : in.words) {
    geometry::Polygon poly;
    for (size_t v = 0; v + 1 < m.polygon.size(); v += 2)
      if (m.polygon[v] != kPolygonPad) poly.push_back({m.polygon[v] * in.aspect, m.polygon[v + 1]});
    frames.push_back(geometry::reading_frame(poly));
  }
  const std::vector<geometry::LineEnds> lines = geometry::line_ends(frames);
  std::map<std::pair<int64_t, int64_t>, size_t> where;
  for (size_t k = 0; k < n; ++k) where[split_label(in.words[k].label)] = k;
  for (size_t k = 0; k < n; ++k) {
    const auto [g, s] = split_label(in.words[k].label);
    const auto it = where.find({g, s + 1});
    if (it == where.end()) continue;
    const size_t j = it->second;
    const geometry::ReadingFrame& f = frames[k];
    if (!(f.height > 0) || (f.start.x == f.end.x && f.start.y == f.end.y)) continue;
    double weight = 1;
    switch (geometry::classify_link(f, frames[j])) {
      case geometry::LinkClass::Spread: weight = w.spread; break;
      case geometry::LinkClass::Above: weight = w.above; break;
      case geometry::LinkClass::NextLine: {
        const auto [lo_a, hi_a] = span_along(f, lines[k]);
        const auto [lo_b, hi_b] = span_along(f, lines[j]);
        const double ends = std::min({std::abs(lo_a - lo_b), std::abs(hi_a - hi_b), std::abs((lo_a + hi_a) / 2 - (lo_b + hi_b) / 2)});
        weight = ends <= kAlignedWithin ? w.next_line : w.next_line_unaligned;
        break;
      }
      default: break;
    }
    next[k] = static_cast<float>(weight);
    prev[j] = static_cast<float>(weight);
  }
}

}  // namespace light::data

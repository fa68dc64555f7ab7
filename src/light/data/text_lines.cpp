#include "light/data/text_lines.h"

#include <algorithm>
#include <cmath>

#include "light/error.h"
#include "light/geometry/link_class.h"

namespace light::data {

namespace {

using maptext::Point;

void check(const std::vector<Point>& p) {
  if (p.size() < 4 || p.size() % 2) throw Error("text lines: a word polygon needs an even number of points, at least 4");
}

// The unit vector along a frame's axis (left to right when it has none).
Point axis(const geometry::ReadingFrame& f) {
  const double dx = f.end.x - f.start.x, dy = f.end.y - f.start.y, len = std::hypot(dx, dy);
  return len > 1e-9 ? Point{dx / len, dy / len} : Point{1, 0};
}

// b runs on from a along a's line (geometry::link_offset, in a's heights).
bool runs_on(const geometry::ReadingFrame& a, const geometry::ReadingFrame& b, double max_gap) {
  if (!(a.height > 0) || !(b.height > 0)) return false;
  const geometry::LinkOffset o = geometry::link_offset(a, b);
  const Point ua = axis(a), ub = axis(b);
  const double ratio = b.height / a.height;
  return o.along > 0 && o.gap > -0.5 && o.gap <= max_gap && std::abs(o.across) <= 0.5 &&
         ua.x * ub.x + ua.y * ub.y >= std::cos(25.0 * M_PI / 180.0) && ratio <= 1.5 && ratio >= 1 / 1.5;
}

}  // namespace

std::vector<LineRun> same_line_runs(const std::vector<std::vector<Point>>& words, double max_gap) {
  std::vector<LineRun> runs;
  for (size_t i = 0; i < words.size(); ++i) {
    check(words[i]);
    if (!runs.empty() && runs_on(geometry::reading_frame(words[i - 1]), geometry::reading_frame(words[i]), max_gap))
      runs.back().last = i;
    else
      runs.push_back({i, i});
  }
  return runs;
}

std::vector<Point> line_polygon(const std::vector<std::vector<Point>>& words, double across, double along) {
  if (words.empty()) throw Error("text lines: no words");
  std::vector<Point> lower, upper;  // upper: in reading order too, reversed at the end
  double height = 0;
  for (const auto& w : words) {
    check(w);
    height += geometry::reading_frame(w).height;
    const size_t half = w.size() / 2;
    for (size_t k = 0; k < half; ++k) {
      lower.push_back(w[k]);
      upper.push_back(w[w.size() - 1 - k]);
    }
  }
  height /= static_cast<double>(words.size());
  for (size_t k = 0; k < lower.size(); ++k) {  // each facing pair pushed apart along its own slice
    const double dx = upper[k].x - lower[k].x, dy = upper[k].y - lower[k].y;
    lower[k] = {lower[k].x - across * dx, lower[k].y - across * dy};
    upper[k] = {upper[k].x + across * dx, upper[k].y + across * dy};
  }
  if (along > 0) {
    const Point first = axis(geometry::reading_frame(words.front())), last = axis(geometry::reading_frame(words.back()));
    for (auto* edge : {&lower, &upper}) {
      edge->front() = {edge->front().x - along * height * first.x, edge->front().y - along * height * first.y};
      edge->back() = {edge->back().x + along * height * last.x, edge->back().y + along * height * last.y};
    }
  }
  std::vector<Point> out = lower;
  out.insert(out.end(), upper.rbegin(), upper.rend());
  return out;
}

}  // namespace light::data

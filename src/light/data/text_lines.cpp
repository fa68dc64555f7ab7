#include "light/data/text_lines.h"

#include <algorithm>
#include <cmath>

#include "light/error.h"

namespace light::data {

namespace {

using maptext::Point;

// A 16-point word polygon's frame: its lower edge's first and last vertex, its direction, its height
// (the mean distance between facing lower and upper vertices).
struct Frame {
  Point start, end, u;
  double height = 0;
};

Frame frame_of(const std::vector<Point>& p) {
  if (p.size() < 4 || p.size() % 2) throw Error("text lines: a word polygon needs an even number of points, at least 4");
  const size_t half = p.size() / 2;
  Frame f;
  f.start = p.front();
  f.end = p[half - 1];
  const double dx = f.end.x - f.start.x, dy = f.end.y - f.start.y, len = std::hypot(dx, dy);
  f.u = len > 1e-9 ? Point{dx / len, dy / len} : Point{1, 0};
  for (size_t k = 0; k < half; ++k) f.height += std::hypot(p[p.size() - 1 - k].x - p[k].x, p[p.size() - 1 - k].y - p[k].y);
  f.height = std::max(1e-6, f.height / static_cast<double>(half));
  return f;
}

bool runs_on(const Frame& a, const Frame& b, double max_gap) {
  const double dx = b.start.x - a.end.x, dy = b.start.y - a.end.y;
  const double along = (dx * a.u.x + dy * a.u.y) / a.height, across = (-dx * a.u.y + dy * a.u.x) / a.height;
  const double cos_angle = a.u.x * b.u.x + a.u.y * b.u.y;
  const double ratio = b.height / a.height;
  return along > -0.5 && along <= max_gap && std::abs(across) <= 0.5 && cos_angle >= std::cos(25.0 * M_PI / 180.0) && ratio <= 1.5 &&
         ratio >= 1 / 1.5;
}

}  // namespace

std::vector<LineRun> same_line_runs(const std::vector<std::vector<Point>>& words, double max_gap) {
  std::vector<LineRun> runs;
  for (size_t i = 0; i < words.size(); ++i) {
    if (!runs.empty() && runs_on(frame_of(words[i - 1]), frame_of(words[i]), max_gap))
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
    const Frame f = frame_of(w);
    height += f.height;
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
    const Frame first = frame_of(words.front()), last = frame_of(words.back());
    for (auto* edge : {&lower, &upper}) {
      edge->front() = {edge->front().x - along * height * first.u.x, edge->front().y - along * height * first.u.y};
      edge->back() = {edge->back().x + along * height * last.u.x, edge->back().y + along * height * last.u.y};
    }
  }
  std::vector<Point> out = lower;
  out.insert(out.end(), upper.rbegin(), upper.rend());
  return out;
}

}  // namespace light::data

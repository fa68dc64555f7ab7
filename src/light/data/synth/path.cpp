#include "light/data/synth/path.h"

#include <algorithm>
#include <cmath>

namespace light::synth {

Path::Path(std::vector<Point> points) : pts_(std::move(points)) {
  cum_.resize(pts_.size(), 0.0);
  for (size_t i = 1; i < pts_.size(); ++i)
    cum_[i] = cum_[i - 1] + std::hypot(pts_[i].x - pts_[i - 1].x, pts_[i].y - pts_[i - 1].y);
}

size_t Path::segment(double s) const {
  if (pts_.size() < 2) return 0;
  auto it = std::upper_bound(cum_.begin(), cum_.end(), s);
  size_t i = static_cast<size_t>(it - cum_.begin());
  if (i == 0) i = 1;
  if (i >= pts_.size()) i = pts_.size() - 1;
  return i - 1;  // segment [i-1, i]
}

Point Path::at(double s) const {
  if (pts_.empty()) return {};
  if (pts_.size() == 1) return pts_[0];
  const size_t i = segment(s);
  const double len = cum_[i + 1] - cum_[i];
  const double t = len > 0 ? (s - cum_[i]) / len : 0.0;
  return {pts_[i].x + t * (pts_[i + 1].x - pts_[i].x), pts_[i].y + t * (pts_[i + 1].y - pts_[i].y)};
}

double Path::angle(double s) const {
  if (pts_.size() < 2) return 0.0;
  const size_t i = segment(s);
  return std::atan2(pts_[i + 1].y - pts_[i].y, pts_[i + 1].x - pts_[i].x);
}

Path Path::line(Point start, double angle, double length) {
  return Path({start, {start.x + length * std::cos(angle), start.y + length * std::sin(angle)}});
}

Path Path::bent(Point start, double length, const std::vector<double>& angles) {
  std::vector<Point> c{start};
  const double piece = length / static_cast<double>(angles.size());
  for (const double a : angles) c.push_back({c.back().x + piece * std::cos(a), c.back().y + piece * std::sin(a)});
  return smooth(c, 2.0);
}

Path Path::smooth(const std::vector<Point>& c, double step) {
  if (c.size() < 2) return Path(c);
  std::vector<Point> out;
  for (size_t i = 0; i + 1 < c.size(); ++i) {
    const Point p0 = c[i == 0 ? 0 : i - 1], p1 = c[i], p2 = c[i + 1], p3 = c[std::min(i + 2, c.size() - 1)];
    const double seg = std::hypot(p2.x - p1.x, p2.y - p1.y);
    const int n = std::max(2, static_cast<int>(seg / step));
    for (int k = 0; k < n; ++k) {
      const double t = static_cast<double>(k) / n, t2 = t * t, t3 = t2 * t;
      auto cr = [&](double a, double b, double cc, double d) {
        return 0.5 * ((2 * b) + (-a + cc) * t + (2 * a - 5 * b + 4 * cc - d) * t2 + (-a + 3 * b - 3 * cc + d) * t3);
      };
      out.push_back({cr(p0.x, p1.x, p2.x, p3.x), cr(p0.y, p1.y, p2.y, p3.y)});
    }
  }
  out.push_back(c.back());
  return Path(std::move(out));
}

Path Path::slice(double s0, double s1, double step) const {
  std::vector<Point> out;
  const int n = std::max(2, static_cast<int>((s1 - s0) / step) + 1);
  for (int k = 0; k < n; ++k) out.push_back(at(s0 + (s1 - s0) * k / (n - 1)));
  return Path(std::move(out));
}

Path Path::offset(double d) const {
  std::vector<Point> out;
  out.reserve(pts_.size());
  for (size_t i = 0; i < pts_.size(); ++i) {
    const double a = angle(cum_[i] + (i + 1 < pts_.size() ? 1e-9 : -1e-9));
    out.push_back({pts_[i].x - d * std::sin(a), pts_[i].y + d * std::cos(a)});
  }
  return Path(std::move(out));
}

double Path::max_curvature() const {
  double m = 0.0;
  for (size_t i = 1; i + 1 < pts_.size(); ++i) {
    const double a0 = std::atan2(pts_[i].y - pts_[i - 1].y, pts_[i].x - pts_[i - 1].x);
    const double a1 = std::atan2(pts_[i + 1].y - pts_[i].y, pts_[i + 1].x - pts_[i].x);
    double da = std::fabs(a1 - a0);
    if (da > M_PI) da = 2 * M_PI - da;
    const double len = 0.5 * (cum_[i + 1] - cum_[i - 1]);
    if (len > 0) m = std::max(m, da / len);
  }
  return m;
}

}  // namespace light::synth

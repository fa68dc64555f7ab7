#include "light/baselines/features.h"

#include <algorithm>
#include <cmath>
#include <opencv2/imgproc.hpp>

#include "light/util/unicode.h"

namespace light::baselines {

namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr float kMinSide = 0.001f;  // the reference's fallback size
}  // namespace

WordFeatures word_features(const std::vector<Point>& vertices, const std::string& text) {
  WordFeatures f;
  std::vector<cv::Point2f> pts;
  pts.reserve(vertices.size());
  for (const Point& p : vertices) pts.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));

  cv::RotatedRect r;
  std::vector<cv::Point2f> hull;
  if (pts.size() >= 3) cv::convexHull(pts, hull);
  if (hull.size() >= 3 && cv::contourArea(hull) > 0) {
    r = cv::minAreaRect(hull);
  } else {
    f.degenerate = true;
    if (pts.empty()) pts.emplace_back(0.f, 0.f);
    r = cv::minAreaRect(pts);
    r.size.width = std::max(r.size.width, kMinSide);
    r.size.height = std::max(r.size.height, kMinSide);
  }
  f.rect = {r.center.x, r.center.y, r.size.width, r.size.height, r.angle};

  f.letters = letter_count(text);
  f.chars = code_point_count(text);
  f.caps = is_upper(text);
  f.height = f.letters > 1 ? std::min(f.rect.w, f.rect.h) : f.rect.h;
  f.angle = f.rect.angle + (f.height != f.rect.h ? 90.0 : 0.0);
  f.sin_angle = std::sin(f.angle * kPi / 180.0);
  f.cos_angle = std::cos(f.angle * kPi / 180.0);

  const double t = f.rect.angle * kPi / 180.0, c = std::cos(t), s = std::sin(t);
  const double hw = 0.5 * f.rect.w, hh = 0.5 * f.rect.h;
  f.mid = {Point{f.rect.cx - hw * c, f.rect.cy - hw * s}, Point{f.rect.cx + hw * c, f.rect.cy + hw * s},
           Point{f.rect.cx - hh * s, f.rect.cy + hh * c}, Point{f.rect.cx + hh * s, f.rect.cy - hh * c}};
  f.reach = std::max(hw, hh);
  return f;
}

double side_distance(const WordFeatures& a, const WordFeatures& b) {
  double best = INFINITY;
  for (const Point& p : a.mid)
    for (const Point& q : b.mid) {
      const double dx = p.x - q.x, dy = p.y - q.y;
      best = std::min(best, dx * dx + dy * dy);
    }
  return std::sqrt(best);
}

double height_ratio(const WordFeatures& a, const WordFeatures& b) {
  return std::max(a.height / b.height, b.height / a.height);
}

double sin_angle_difference(const WordFeatures& a, const WordFeatures& b) {
  if (a.letters <= 2 || b.letters <= 2) return 0.0;
  // sin|a - b| = |sin(a - b)| since both angles lie in [0, 180] degrees.
  return std::fabs(a.sin_angle * b.cos_angle - a.cos_angle * b.sin_angle);
}

int capitalization_difference(const WordFeatures& a, const WordFeatures& b) {
  return (a.caps != b.caps && a.letters > 1 && b.letters > 1) ? 1 : 0;
}

double edge_cost(const WordFeatures& u, const WordFeatures& v, const CostWeights& w) {
  const double hr = height_ratio(u, v);
  double cost = side_distance(u, v) * (w.a == 1.0 ? hr : std::pow(hr, w.a));
  cost *= (1.0 + w.b * sin_angle_difference(u, v)) * (1.0 + w.c * capitalization_difference(u, v));
  return cost;
}

}  // namespace light::baselines

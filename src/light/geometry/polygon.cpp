#include "light/geometry/polygon.h"

#include <algorithm>
#include <cmath>

namespace light::geometry {

BBox bbox(const Polygon& poly) {
  if (poly.empty()) return {};
  BBox b{poly[0].x, poly[0].y, poly[0].x, poly[0].y};
  for (const Point& p : poly) {
    b.x0 = std::min(b.x0, p.x);
    b.y0 = std::min(b.y0, p.y);
    b.x1 = std::max(b.x1, p.x);
    b.y1 = std::max(b.y1, p.y);
  }
  return b;
}

double iou_upper_bound(const BBox& a, double area_a, const BBox& b, double area_b, double union_epsilon) {
  const double w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
  const double h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  if (w <= 0 || h <= 0) return 0.0;
  return std::min({area_a, area_b, w * h}) / (std::max(area_a, area_b) + union_epsilon);
}

double signed_area(const Polygon& poly) {
  const size_t n = poly.size();
  if (n < 3) return 0.0;
  double s = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const Point& a = poly[i];
    const Point& b = poly[(i + 1) % n];
    s += a.x * b.y - b.x * a.y;
  }
  return 0.5 * s;
}

double area(const Polygon& poly) { return std::fabs(signed_area(poly)); }

ReadingFrame reading_frame(const Polygon& poly) {
  ReadingFrame f;
  const size_t n = poly.size();
  if (n >= 4) {
    const Point& a = poly[0];
    const Point& b = poly[n - 1];
    const Point& c = poly[n / 2 - 1];
    const Point& d = poly[n / 2];
    f.start = {(a.x + b.x) / 2, (a.y + b.y) / 2};
    f.end = {(c.x + d.x) / 2, (c.y + d.y) / 2};
    const double length = std::hypot(f.end.x - f.start.x, f.end.y - f.start.y);
    if (length > 1e-9) {
      f.height = area(poly) / length;
      return f;
    }
  }
  const BBox b = bbox(poly);
  f.start = {b.x0, (b.y0 + b.y1) / 2};
  f.end = {b.x1, (b.y0 + b.y1) / 2};
  f.height = b.height();
  return f;
}

}  // namespace light::geometry

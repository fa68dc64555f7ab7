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

Point point_along(const std::vector<Point>& polyline, double t) {
  double total = 0;
  for (size_t k = 1; k < polyline.size(); ++k) total += std::hypot(polyline[k].x - polyline[k - 1].x, polyline[k].y - polyline[k - 1].y);
  const double goal = std::clamp(t, 0.0, 1.0) * total;
  double s = 0;
  for (size_t k = 1; k < polyline.size(); ++k) {
    const double d = std::hypot(polyline[k].x - polyline[k - 1].x, polyline[k].y - polyline[k - 1].y);
    if (s + d >= goal && d > 0) {
      const double f = (goal - s) / d;
      return {polyline[k - 1].x + f * (polyline[k].x - polyline[k - 1].x), polyline[k - 1].y + f * (polyline[k].y - polyline[k - 1].y)};
    }
    s += d;
  }
  return polyline.empty() ? Point{} : polyline.back();
}

namespace {

// `n` points spaced evenly by length along the open polyline `chain` (both ends included).
std::vector<Point> along(const std::vector<Point>& chain, int n) {
  std::vector<Point> out;
  for (int k = 0; k < n; ++k) out.push_back(point_along(chain, static_cast<double>(k) / (n - 1)));
  return out;
}

// The angle (0 to pi) by which the outline turns at vertex i.
double turn(const std::vector<Point>& q, size_t i) {
  const size_t n = q.size();
  const Point& a = q[(i + n - 1) % n];
  const Point& b = q[i];
  const Point& c = q[(i + 1) % n];
  const double ux = b.x - a.x, uy = b.y - a.y, vx = c.x - b.x, vy = c.y - b.y;
  return std::fabs(std::atan2(ux * vy - uy * vx, ux * vx + uy * vy));
}
}  // namespace

Resampled resample_word_polygon(const Polygon& poly, int points) {
  Resampled r;
  if (points < 4 || points % 2) {
    r.why = "the resampled vertex count must be even and at least 4";
    return r;
  }
  if (static_cast<int>(poly.size()) == points) {
    r.polygon = poly;
    r.ok = true;
    return r;
  }
  std::vector<Point> q;
  for (const Point& p : poly)
    if (q.empty() || p.x != q.back().x || p.y != q.back().y) q.push_back(p);
  while (q.size() > 1 && q.back().x == q.front().x && q.back().y == q.front().y) q.pop_back();
  const double a = signed_area(q);
  const BBox box = bbox(q);
  const double scale = std::max(box.width(), box.height());
  if (q.size() < 3 || !(std::fabs(a) > 1e-9 * scale * scale)) {
    r.why = q.size() < 3 ? "fewer than 3 distinct vertices" : "no area (collinear vertices, or a bow-tie whose halves cancel)";
    return r;
  }
  const bool reversed = a > 0;
  if (reversed) std::reverse(q.begin() + 1, q.end());  // the other way round: the same first vertex, the MapText direction
  const size_t n = q.size();
  // The outline's principal axis, each edge weighted by its length (so that vertex density does not matter).
  double mx = 0, my = 0, total = 0;
  for (size_t i = 0; i < n; ++i) {
    const Point &p = q[i], &o = q[(i + 1) % n];
    const double len = std::hypot(o.x - p.x, o.y - p.y);
    mx += len * (p.x + o.x) / 2, my += len * (p.y + o.y) / 2, total += len;
  }
  mx /= total, my /= total;
  double sxx = 0, syy = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    const Point &p = q[i], &o = q[(i + 1) % n];
    const double len = std::hypot(o.x - p.x, o.y - p.y);
    const double cx = (p.x + o.x) / 2 - mx, cy = (p.y + o.y) / 2 - my;
    sxx += len * cx * cx, syy += len * cy * cy, sxy += len * cx * cy;
  }
  const double theta = 0.5 * std::atan2(2 * sxy, sxx - syy);
  const double ux = std::cos(theta), uy = std::sin(theta);
  auto t = [&](const Point& p) { return (p.x - mx) * ux + (p.y - my) * uy; };
  double tmin = t(q[0]), tmax = tmin;
  for (const Point& p : q) tmin = std::min(tmin, t(p)), tmax = std::max(tmax, t(p));
  const double centre = (tmin + tmax) / 2, length = std::max(tmax - tmin, 1e-12);
  size_t s = n, f = n;  // the start and finish ends: edges q[s] -> q[s + 1] and q[f] -> q[f + 1]
  // The MapText convention, half the vertices along each long side from vertex 0, tells the ends of a
  // polygon that follows it: its two end edges are where the outline turns sharply (a box's short
  // sides, a 50-point polygon's ends), whatever its shape (a one-letter word taller than wide).
  const size_t k = n / 2;
  const size_t conv_s = reversed ? 0 : n - 1, conv_f = reversed ? k : k - 1;
  auto sharp = [&](size_t i) { return turn(q, i) + turn(q, (i + 1) % n) > 2.0; };  // about 115 degrees in all
  if (n % 2 == 0 && n == poly.size() && sharp(conv_s) && sharp(conv_f)) {
    s = conv_s, f = conv_f;
  } else {
    // Each end's cut: among the edges on that side of the centre, the one whose corners turn most,
    // plus up to a radian for lying further out (so that a box's ends win over its long sides, whose
    // corners turn as much).
    auto cut = [&](int side, size_t other) {  // side +1: the end at tmax; -1: at tmin; `other`: the other end's cut
      size_t best = n;
      double best_score = -INFINITY;
      for (size_t i = 0; i < n; ++i) {
        const double mid = side * ((t(q[i]) + t(q[(i + 1) % n])) / 2 - centre);
        if (i == other || mid < -1e-9 * length) continue;
        const double score = turn(q, i) + turn(q, (i + 1) % n) + 2 * mid / length;
        if (score > best_score) best_score = score, best = i;
      }
      return best;
    };
    const size_t at_max = cut(+1, n), at_min = cut(-1, at_max);
    if (at_max == n || at_min == n || at_max == at_min) {
      r.why = "no two ends found";
      return r;
    }
    // The word starts at the end nearer its first vertex; the lower edge leaves that end.
    const bool starts_at_min = t(q[0]) <= centre;
    s = starts_at_min ? at_min : at_max, f = starts_at_min ? at_max : at_min;
  }
  std::vector<Point> lower, upper;
  for (size_t i = (s + 1) % n;; i = (i + 1) % n) {
    lower.push_back(q[i]);
    if (i == f) break;
  }
  for (size_t i = (f + 1) % n;; i = (i + 1) % n) {
    upper.push_back(q[i]);
    if (i == s) break;
  }
  r.polygon = along(lower, points / 2);
  const std::vector<Point> back = along(upper, points / 2);
  r.polygon.insert(r.polygon.end(), back.begin(), back.end());
  r.ok = true;
  return r;
}

}  // namespace light::geometry

#include "light/geometry/polygon.h"
#include "light/spot/text_boxes.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace light::spot {

namespace {

// An outline filled: its bounds within the map, and a mask of them (1 inside).
struct Filled {
  cv::Rect bounds;
  cv::Mat mask;
};
Filled fill(const std::vector<cv::Point>& outline, const cv::Size& map) {
  Filled f;
  f.bounds = cv::boundingRect(outline) & cv::Rect(0, 0, map.width, map.height);
  if (f.bounds.empty()) return f;
  f.mask = cv::Mat::zeros(f.bounds.size(), CV_8U);
  std::vector<std::vector<cv::Point>> poly(1);
  for (const cv::Point& q : outline) poly[0].emplace_back(q.x - f.bounds.x, q.y - f.bounds.y);
  cv::fillPoly(f.mask, poly, cv::Scalar(1));
  return f;
}
// Mean probability inside a filled outline: the kernel's own (PaddleOCR's box_score_slow: a thin,
// tapered or curved line fills little of its rectangle), or its rectangle's.
double mean_inside(const cv::Mat& prob, const Filled& f) { return f.bounds.empty() ? 0 : cv::mean(prob(f.bounds), f.mask)[0]; }
// A rotated rectangle's corners, rounded (PaddleOCR's box_score_fast scores inside them).
std::vector<cv::Point> corners_of(const cv::RotatedRect& r) {
  cv::Point2f p[4];
  r.points(p);
  std::vector<cv::Point> corners;
  for (const cv::Point2f& q : p) corners.emplace_back(cvRound(q.x), cvRound(q.y));
  return corners;
}
}  // namespace

double TextBox::length() const { return geometry::distance(corners[0], corners[1]); }
double TextBox::height() const { return geometry::distance(corners[0], corners[3]); }
maptext::Point TextBox::middle() const { return {(corners[0].x + corners[2].x) / 2, (corners[0].y + corners[2].y) / 2}; }
maptext::Point TextBox::centroid() const {
  return {(corners[0].x + corners[1].x + corners[2].x + corners[3].x) / 4, (corners[0].y + corners[1].y + corners[2].y + corners[3].y) / 4};
}
double TextBox::direction() const { return std::atan2(corners[1].y - corners[0].y, corners[1].x - corners[0].x); }

TextBox TextBox::upside_down() const {
  TextBox b = *this;
  b.corners = {corners[2], corners[3], corners[0], corners[1]};
  b.upper.assign(lower.rbegin(), lower.rend());
  b.lower.assign(upper.rbegin(), upper.rend());
  return b;
}

std::array<maptext::Point, 4> corners_along(double cx, double cy, double along, double across, double ux, double uy) {
  const double vx = -uy, vy = ux;  // "down" in the reading frame (y grows downward)
  const double a = along / 2, c = across / 2;
  return {maptext::Point{cx - ux * a - vx * c, cy - uy * a - vy * c}, maptext::Point{cx + ux * a - vx * c, cy + uy * a - vy * c},
          maptext::Point{cx + ux * a + vx * c, cy + uy * a + vy * c}, maptext::Point{cx - ux * a + vx * c, cy - uy * a + vy * c}};
}

TextBox TextBox::turned_to(double angle) const {
  TextBox b = *this;
  const maptext::Point c = centroid();
  b.corners = corners_along(c.x, c.y, length(), height(), std::cos(angle), std::sin(angle));
  b.upper.clear(), b.lower.clear();
  return b;
}

std::array<maptext::Point, 4> reading_corners(double cx, double cy, double along, double across, double angle, bool flip) {
  double ux = std::cos(angle), uy = std::sin(angle);
  // Left to right; a vertical line reads upward (y decreasing).
  if (ux < -1e-9 || (std::abs(ux) <= 1e-9 && uy > 0)) ux = -ux, uy = -uy;
  if (flip) ux = -ux, uy = -uy;
  return corners_along(cx, cy, along, across, ux, uy);
}

namespace {
// Lettering set along a curve: the kernel (`kernel_mask`, filled) of `box` is cut into 16 slices across its
// length; each slice's middle and thickness are measured, a parabola is fitted to the middles (in the
// box's frame), and when it bends more than `bend` times the median thickness, the box gets edges
// that follow it, grown like the box by the unclip distance (of a straight kernel of that length and
// thickness).
void bend_along(const Filled& kernel_mask, TextBox& box, const TextBoxOptions& o) {
  const double len = box.length(), high = box.height();
  if (o.bend <= 0 || len < 1.5 * high || kernel_mask.bounds.empty()) return;  // a letter, or no line
  const cv::Rect& r = kernel_mask.bounds;
  const cv::Mat& mask = kernel_mask.mask;
  const auto& c = box.corners;
  const auto [cx, cy] = box.middle();
  const double ux = (c[1].x - c[0].x) / len, uy = (c[1].y - c[0].y) / len;  // along, in reading order
  const double vx = (c[3].x - c[0].x) / high, vy = (c[3].y - c[0].y) / high;  // down
  // Each kernel pixel in the box's frame: t along, s down from the centre.
  std::vector<std::pair<double, double>> ts;
  for (int y = 0; y < mask.rows; ++y) {
    const uint8_t* row = mask.ptr<uint8_t>(y);
    for (int x = 0; x < mask.cols; ++x)
      if (row[x]) {
        const double dx = r.x + x - cx, dy = r.y + y - cy;
        ts.emplace_back(dx * ux + dy * uy, dx * vx + dy * vy);
      }
  }
  constexpr int K = 16;
  auto slice = [&](double t) { return std::clamp(static_cast<int>((t / len + 0.5) * K), 0, K - 1); };
  std::vector<double> lo(K, 1e300), hi(K, -1e300);
  double t_min = 1e300, t_max = -1e300;
  for (const auto& [t, s] : ts) {
    const int k = slice(t);
    lo[k] = std::min(lo[k], s), hi[k] = std::max(hi[k], s);
    t_min = std::min(t_min, t), t_max = std::max(t_max, t);
  }
  // Least squares: middle = a + b * z + q * z^2, z = t / (len / 2).
  cv::Mat A = cv::Mat::zeros(3, 3, CV_64F), rhs = cv::Mat::zeros(3, 1, CV_64F);
  std::vector<double> thick;
  for (int k = 0; k < K; ++k) {
    if (hi[k] < lo[k]) continue;
    const double z = ((k + 0.5) / K - 0.5) * 2, m = (lo[k] + hi[k]) / 2, f[3] = {1, z, z * z};
    for (int i = 0; i < 3; ++i) {
      rhs.at<double>(i) += f[i] * m;
      for (int j = 0; j < 3; ++j) A.at<double>(i, j) += f[i] * f[j];
    }
    thick.push_back(hi[k] - lo[k]);
  }
  if (thick.size() < 6) return;
  cv::Mat coef;
  if (!cv::solve(A, rhs, coef, cv::DECOMP_CHOLESKY)) return;
  auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  const double a = coef.at<double>(0), b = coef.at<double>(1), q = coef.at<double>(2);
  if (std::abs(q) <= o.bend * median(thick)) return;
  auto middle = [&](double t) { const double z = t / (len / 2); return a + b * z + q * z * z; };
  auto slope = [&](double t) { return (b + 2 * q * t / (len / 2)) / (len / 2); };  // d(middle)/dt
  // The thickness across the curve, not across the box: the kernel's spread about the fitted middle,
  // measured along the curve's normal (as a straight box's is its rectangle's side across).
  double below = 0, above = 0;
  for (const auto& [t, s] : ts) {
    const double across = (s - middle(t)) / std::hypot(1.0, slope(t));
    below = std::max(below, across), above = std::min(above, across);
  }
  const double h = below - above, kernel = t_max - t_min;
  if (kernel < 6 * h) return;  // too short to tell a bend from the letters' own ups and downs
  const double d = o.unclip_ratio * kernel * h / (2 * (kernel + h)), half = h / 2 + d, off = (below + above) / 2;
  for (int j = 0; j < 8; ++j) {
    const double t = t_min - d + (kernel + 2 * d) * j / 7.0, m = middle(t), n = std::hypot(1.0, slope(t));
    const double nu = -slope(t) / n, nv = 1 / n;  // the normal, pointing down, in (u, v)
    const double nx = ux * nu + vx * nv, ny = uy * nu + vy * nv;
    // The band's middle: the fitted middle moved along the normal to halfway between its extremes.
    const double px = cx + ux * t + vx * m + nx * off, py = cy + uy * t + vy * m + ny * off;
    box.upper.push_back(maptext::Point{px - nx * half, py - ny * half});
    box.lower.push_back(maptext::Point{px + nx * half, py + ny * half});
  }
}

// `unit`: the map's value of probability 1 (1 for float, 255 for bytes).
std::vector<TextBox> boxes_of(const cv::Mat& prob, double unit, const TextBoxOptions& o) {
  cv::Mat bitmap;
  cv::compare(prob, o.threshold * unit, bitmap, cv::CMP_GT);
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(bitmap, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
  std::vector<TextBox> boxes;
  for (const auto& contour : contours) {
    if (boxes.size() >= o.max_boxes) break;
    if (contour.size() < 3) continue;
    const cv::RotatedRect r = cv::minAreaRect(contour);
    if (std::min(r.size.width, r.size.height) < o.min_size) continue;
    const Filled kernel = fill(contour, prob.size());
    const double score = (o.score_outline ? mean_inside(prob, kernel) : mean_inside(prob, fill(corners_of(r), prob.size()))) / unit;
    if (score < o.box_threshold) continue;
    // Unclip: the box grown by D = area * ratio / perimeter (of the box) on every side (PaddleOCR
    // offsets the box with pyclipper and takes the result's minimum-area rectangle: the box grown by D).
    const double area = static_cast<double>(r.size.width) * r.size.height, perimeter = 2.0 * (r.size.width + r.size.height);
    const double d = area * o.unclip_ratio / perimeter;
    double along = r.size.width + 2 * d, across = r.size.height + 2 * d;
    double angle = r.angle * M_PI / 180.0;
    if (across > along) {
      std::swap(along, across);
      angle += M_PI / 2;
    }
    if (across < o.min_size + 2) continue;
    TextBox b;
    b.corners = reading_corners(r.center.x, r.center.y, along, across, angle);
    b.score = score;
    bend_along(kernel, b, o);
    boxes.push_back(b);
  }
  return boxes;
}
}  // namespace

std::vector<TextBox> text_boxes(const float* prob, int h, int w, const TextBoxOptions& o) {
  return join_line_pieces(join_spaced_letters(boxes_of(cv::Mat(h, w, CV_32F, const_cast<float*>(prob)), 1.0, o), o), o);
}

std::vector<TextBox> text_boxes(const uint8_t* prob, int h, int w, const TextBoxOptions& o) {
  return join_line_pieces(join_spaced_letters(boxes_of(cv::Mat(h, w, CV_8U, const_cast<uint8_t*>(prob)), 255.0, o), o), o);
}

namespace {
// How far a line is from horizontal, in degrees (0-90).
double steepness(const TextBox& b) {
  const double a = std::abs(b.direction()) * 180 / M_PI;
  return std::min(a, 180 - a);
}
// At least 1.5 times as long as it is high: a line, not a letter.
bool elongated(const TextBox& b) { return b.length() >= 1.5 * b.height(); }
std::vector<cv::Point2f> outline(const TextBox& b) {
  std::vector<cv::Point2f> out;
  for (const auto& c : b.corners) out.emplace_back(static_cast<float>(c.x), static_cast<float>(c.y));
  return out;
}
cv::Rect2d bounds(const TextBox& b) {
  double x0 = b.corners[0].x, x1 = x0, y0 = b.corners[0].y, y1 = y0;
  for (const auto& c : b.corners) x0 = std::min(x0, c.x), x1 = std::max(x1, c.x), y0 = std::min(y0, c.y), y1 = std::max(y1, c.y);
  return {x0, y0, x1 - x0, y1 - y0};
}
// Their common area over the smaller one's.
double overlap(const TextBox& a, const TextBox& b) {
  if ((bounds(a) & bounds(b)).area() <= 0) return 0;  // most pairs: apart, told without allocating
  const std::vector<cv::Point2f> pa = outline(a), pb = outline(b);
  std::vector<cv::Point2f> common;
  const double inter = cv::intersectConvexConvex(pa, pb, common, true);
  const double smaller = std::min(a.length() * a.height(), b.length() * b.height());
  return smaller > 0 && inter > 0 ? inter / smaller : 0;
}

}  // namespace

bool is_level_line(const TextBox& b) { return steepness(b) <= 45 && elongated(b); }

std::vector<TextBox> lines_tilted(const std::vector<TextBox>& lines, double least, double most) {
  std::vector<TextBox> out;
  for (const TextBox& b : lines)
    if (steepness(b) >= least && steepness(b) <= most && elongated(b)) out.push_back(b);
  return out;
}

std::vector<TextBox> merge_turned_lines(std::vector<TextBox> upright, const std::vector<TextBox>& turned, double least_overlap) {
  for (const TextBox& t : turned) {
    if (steepness(t) <= 45 || !elongated(t)) continue;  // level, or no line at all
    std::vector<size_t> hit;
    bool level = false;
    for (size_t k = 0; k < upright.size() && !level; ++k) {
      if (overlap(t, upright[k]) <= least_overlap) continue;
      level = is_level_line(upright[k]);
      hit.push_back(k);
    }
    if (level) continue;
    for (auto k = hit.rbegin(); k != hit.rend(); ++k) upright.erase(upright.begin() + static_cast<long>(*k));
    upright.push_back(t);
  }
  return upright;
}

std::vector<TextBox> merge_large_lines(std::vector<TextBox> enlarged, const std::vector<TextBox>& as_is, double min_height,
                                       double piece_height, double least_overlap) {
  const size_t n = enlarged.size();
  std::vector<bool> gone(n, false);
  std::vector<TextBox> added;
  for (const TextBox& big : as_is) {
    const double h = big.height();
    if (h < min_height) continue;
    std::vector<size_t> hit;
    bool had = false;  // the enlarged reading found this line itself
    for (size_t k = 0; k < n && !had; ++k) {
      if (overlap(big, enlarged[k]) <= least_overlap) continue;
      const double r = enlarged[k].height() / h;
      had = r >= piece_height && r <= 1 / piece_height;  // not a piece of it, nor lettering and paper run together
      hit.push_back(k);
    }
    if (had) continue;
    for (size_t k : hit) gone[k] = true;
    added.push_back(big);
  }
  std::vector<TextBox> out;
  for (size_t k = 0; k < n; ++k)
    if (!gone[k]) out.push_back(std::move(enlarged[k]));
  out.insert(out.end(), added.begin(), added.end());
  return out;
}

std::vector<TextBox> add_unseen_lines(std::vector<TextBox> found, const std::vector<TextBox>& more, double most_overlap) {
  const size_t n = found.size();
  for (const TextBox& m : more) {
    bool seen = false;
    for (size_t k = 0; k < n && !seen; ++k) seen = overlap(m, found[k]) > most_overlap;
    if (!seen) found.push_back(m);
  }
  return found;
}

namespace {
// A bent line's way along, vertex by vertex: the mean of its two edges' lengths (as
// data::straighten_word shares the strip's width out), from 0 at its start.
std::vector<double> way_along(const TextBox& line) {
  std::vector<double> at(line.upper.size(), 0.0);
  for (size_t k = 1; k < at.size(); ++k) at[k] = at[k - 1] + (geometry::distance(line.upper[k - 1], line.upper[k]) + geometry::distance(line.lower[k - 1], line.lower[k])) / 2;
  return at;
}
// The point of `edge` at `f` (0 to 1) of the way `at` along.
maptext::Point along_bent(const std::vector<maptext::Point>& edge, const std::vector<double>& at, double f) {
  const size_t n = at.size();
  const double want = std::clamp(f, 0.0, 1.0) * at[n - 1];
  size_t k = 1;
  while (k + 1 < n && at[k] < want) ++k;
  const double span = at[k] - at[k - 1], w = span > 0 ? (want - at[k - 1]) / span : 0;
  return maptext::Point{edge[k - 1].x + (edge[k].x - edge[k - 1].x) * w, edge[k - 1].y + (edge[k].y - edge[k - 1].y) * w};
}
}  // namespace

std::vector<maptext::Point> word_polygon(const TextBox& line, double from, double to) {
  if (line.bent()) {
    const std::vector<double> at = way_along(line);
    std::vector<maptext::Point> out;
    for (int k = 0; k < 8; ++k) out.push_back(along_bent(line.lower, at, from + (to - from) * k / 7.0));  // lower edge, forwards
    for (int k = 0; k < 8; ++k) out.push_back(along_bent(line.upper, at, to - (to - from) * k / 7.0));    // upper edge, back
    return out;
  }
  const auto& c = line.corners;  // start-top, end-top, end-bottom, start-bottom
  auto lerp = [](const maptext::Point& a, const maptext::Point& b, double t) {
    return maptext::Point{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
  };
  std::vector<maptext::Point> out;
  for (int k = 0; k < 8; ++k) out.push_back(lerp(c[3], c[2], from + (to - from) * k / 7.0));  // lower edge, forwards
  for (int k = 0; k < 8; ++k) out.push_back(lerp(c[0], c[1], to - (to - from) * k / 7.0));    // upper edge, back
  return out;
}

}  // namespace light::spot

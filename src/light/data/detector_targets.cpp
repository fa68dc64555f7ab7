#include "light/data/detector_targets.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

#include "light/error.h"
#include "light/geometry/polygon.h"

namespace light::data {

namespace {
using maptext::Point;

double perimeter(const std::vector<Point>& p) {
  double l = 0;
  for (size_t i = 0; i < p.size(); ++i) l += geometry::distance(p[i], p[(i + 1) % p.size()]);
  return l;
}

// A polygon's vertices in whole pixels, less `origin`, for OpenCV's drawing.
std::vector<cv::Point> pixels(const std::vector<Point>& p, cv::Point origin = {0, 0}) {
  std::vector<cv::Point> v;
  for (const Point& q : p) v.emplace_back(static_cast<int>(std::lround(q.x)) - origin.x, static_cast<int>(std::lround(q.y)) - origin.y);
  return v;
}

void check(const std::vector<Point>& p) {
  if (p.size() < 4 || p.size() % 2) throw Error("detector targets: a word polygon needs an even number of points, at least 4");
}
}  // namespace

double db_shrink_distance(const std::vector<Point>& p, double ratio) {
  const double length = perimeter(p);
  return length > 0 ? geometry::area(p) * (1 - ratio * ratio) / length : 0.0;
}

double unclip_inverse_distance(const std::vector<Point>& p, double unclip_ratio) {
  const double L = perimeter(p), a = geometry::area(p);
  if (L <= 0 || a <= 0) return 0.0;
  // The kernel of a polygon shrunk by d (taken as a rectangle's: area A - d L + 4 d^2, perimeter
  // L - 8 d) grows back by unclip_ratio * area / perimeter; the d at which that growth is d itself.
  // f(d) = d - growth(d) rises with d: bisection between 0 and the narrower side's half.
  const double most = std::min(a / L * 2, L / 8) * 0.999;
  auto f = [&](double d) { return d - unclip_ratio * std::max(0.0, a - d * L + 4 * d * d) / std::max(1e-9, L - 8 * d); };
  double lo = 0, hi = most;
  if (f(hi) < 0) return hi;
  for (int i = 0; i < 60; ++i) (f((lo + hi) / 2) < 0 ? lo : hi) = (lo + hi) / 2;
  return (lo + hi) / 2;
}

std::vector<Point> shrink_word_polygon(const std::vector<Point>& p, double d) {
  check(p);
  const size_t n = p.size(), half = n / 2;
  std::vector<Point> out = p;
  for (size_t k = 0; k < half; ++k) {  // facing vertices k (lower) and n-1-k (upper) drawn together
    Point& lo = out[k];
    Point& up = out[n - 1 - k];
    const double len = geometry::distance(lo, up);
    if (len <= 0) continue;
    const double t = std::min(d, 0.4 * len) / len;
    const Point l = lo, u = up;
    lo = {l.x + t * (u.x - l.x), l.y + t * (u.y - l.y)};
    up = {u.x - t * (u.x - l.x), u.y - t * (u.y - l.y)};
  }
  // The two ends drawn in along the word (its length from the first to the last facing pair's middle).
  const Point first{(out[0].x + out[n - 1].x) / 2, (out[0].y + out[n - 1].y) / 2};
  const Point last{(out[half - 1].x + out[half].x) / 2, (out[half - 1].y + out[half].y) / 2};
  const double length = geometry::distance(first, last);
  if (length > 0) {
    const double s = std::min(d, 0.4 * length);
    const Point u{(last.x - first.x) / length, (last.y - first.y) / length};
    for (size_t idx : {size_t{0}, n - 1}) out[idx] = {out[idx].x + s * u.x, out[idx].y + s * u.y};
    for (size_t idx : {half - 1, half}) out[idx] = {out[idx].x - s * u.x, out[idx].y - s * u.y};
  }
  return out;
}

DetectorTargets detector_targets(const std::vector<std::vector<Point>>& polygons, const std::vector<bool>& ignore, int width, int height,
                                 double min_height, double unclip_ratio) {
  if (polygons.size() != ignore.size()) throw Error("detector targets: one ignore flag a polygon");
  DetectorTargets t;
  t.width = width;
  t.height = height;
  cv::Mat text(height, width, CV_8U, cv::Scalar(0)), mask(height, width, CV_8U, cv::Scalar(1));
  for (size_t i = 0; i < polygons.size(); ++i) {
    const auto& p = polygons[i];
    check(p);
    if (ignore[i] || geometry::reading_frame(p).height < min_height) {
      cv::fillPoly(mask, std::vector<std::vector<cv::Point>>{pixels(p)}, cv::Scalar(0));
      continue;
    }
    const double d = unclip_ratio > 0 ? unclip_inverse_distance(p, unclip_ratio) : db_shrink_distance(p);
    cv::fillPoly(text, std::vector<std::vector<cv::Point>>{pixels(shrink_word_polygon(p, d))}, cv::Scalar(1));
  }
  t.text.assign(text.datastart, text.dataend);
  t.mask.assign(mask.datastart, mask.dataend);
  return t;
}

DetectorBorders detector_borders(const std::vector<std::vector<Point>>& polygons, const std::vector<bool>& ignore, int width, int height,
                                 double min_height) {
  if (polygons.size() != ignore.size()) throw Error("detector targets: one ignore flag a polygon");
  DetectorBorders b;
  b.width = width;
  b.height = height;
  cv::Mat canvas(height, width, CV_32F, cv::Scalar(0)), mask(height, width, CV_8U, cv::Scalar(0));
  const cv::Rect crop(0, 0, width, height);
  for (size_t i = 0; i < polygons.size(); ++i) {
    const auto& p = polygons[i];
    check(p);
    if (ignore[i] || geometry::reading_frame(p).height < min_height) continue;
    const double d = db_shrink_distance(p);
    if (d <= 0) continue;
    // The polygon's box grown by D, in the crop; the distance of each pixel there to the outline.
    const int pad = static_cast<int>(std::ceil(d)) + 1;
    const cv::Rect box = cv::boundingRect(pixels(p)) + cv::Point(-pad, -pad) + cv::Size(2 * pad, 2 * pad);
    const cv::Rect seen = box & crop;
    if (seen.empty()) continue;
    const std::vector<cv::Point> local = pixels(p, box.tl());
    cv::Mat outline(box.height, box.width, CV_8U, cv::Scalar(255)), inside(box.height, box.width, CV_8U, cv::Scalar(0)), dist;
    cv::polylines(outline, std::vector<std::vector<cv::Point>>{local}, true, cv::Scalar(0));
    cv::fillPoly(inside, std::vector<std::vector<cv::Point>>{local}, cv::Scalar(1));
    cv::distanceTransform(outline, dist, cv::DIST_L2, cv::DIST_MASK_PRECISE);
    for (int y = seen.y; y < seen.y + seen.height; ++y)
      for (int x = seen.x; x < seen.x + seen.width; ++x) {
        const int ly = y - box.y, lx = x - box.x;
        const float r = dist.at<float>(ly, lx);
        if (r > d && !inside.at<uint8_t>(ly, lx)) continue;  // outside the grown polygon
        mask.at<uint8_t>(y, x) = 1;
        canvas.at<float>(y, x) = std::max(canvas.at<float>(y, x), static_cast<float>(std::max(0.0, 1 - r / d)));
      }
  }
  canvas.convertTo(canvas, CV_32F, 0.4, 0.3);  // 0.3 + 0.4 x canvas
  b.threshold.assign(canvas.begin<float>(), canvas.end<float>());
  b.mask.assign(mask.datastart, mask.dataend);
  return b;
}

void detector_planes(const uint8_t* rgb, int w, int h, size_t row_bytes, int pw, int ph, float* planes) {
  static const float mean[3] = {0.485f, 0.456f, 0.406f}, stdev[3] = {0.229f, 0.224f, 0.225f};
  std::fill(planes, planes + static_cast<size_t>(3) * pw * ph, 0.0f);
  for (int c = 0; c < 3; ++c) {  // plane c is B, G, R for c = 0, 1, 2
    float* plane = planes + static_cast<size_t>(c) * pw * ph;
    for (int y = 0; y < h; ++y) {
      const uint8_t* src = rgb + static_cast<size_t>(y) * row_bytes + (2 - c);
      for (int x = 0; x < w; ++x) plane[static_cast<size_t>(y) * pw + x] = (src[3 * x] / 255.0f - mean[c]) / stdev[c];
    }
  }
}

}  // namespace light::data

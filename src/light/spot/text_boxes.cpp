#include "light/spot/text_boxes.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace light::spot {

namespace {
double dist(const maptext::Point& a, const maptext::Point& b) { return std::hypot(a.x - b.x, a.y - b.y); }

// Mean probability inside a rotated rectangle (PaddleOCR's box_score_fast), in the map's own units.
double mean_inside(const cv::Mat& prob, const cv::RotatedRect& r) {
  cv::Point2f p[4];
  r.points(p);
  const cv::Rect bounds = cv::boundingRect(std::vector<cv::Point2f>(p, p + 4)) & cv::Rect(0, 0, prob.cols, prob.rows);
  if (bounds.empty()) return 0;
  cv::Mat mask = cv::Mat::zeros(bounds.size(), CV_8U);
  std::vector<cv::Point> poly;
  for (const cv::Point2f& q : p) poly.emplace_back(cvRound(q.x - bounds.x), cvRound(q.y - bounds.y));
  cv::fillConvexPoly(mask, poly, cv::Scalar(1));
  return cv::mean(prob(bounds), mask)[0];
}
// Mean probability inside the outline itself (PaddleOCR's box_score_slow): a thin, tapered or curved
// line fills little of its rectangle.
double mean_inside(const cv::Mat& prob, const std::vector<cv::Point>& contour) {
  const cv::Rect bounds = cv::boundingRect(contour) & cv::Rect(0, 0, prob.cols, prob.rows);
  if (bounds.empty()) return 0;
  cv::Mat mask = cv::Mat::zeros(bounds.size(), CV_8U);
  std::vector<std::vector<cv::Point>> poly(1);
  for (const cv::Point& q : contour) poly[0].emplace_back(q.x - bounds.x, q.y - bounds.y);
  cv::fillPoly(mask, poly, cv::Scalar(1));
  return cv::mean(prob(bounds), mask)[0];
}
}  // namespace

double TextBox::length() const { return dist(corners[0], corners[1]); }
double TextBox::height() const { return dist(corners[0], corners[3]); }

std::array<maptext::Point, 4> reading_corners(double cx, double cy, double along, double across, double angle, bool flip) {
  double ux = std::cos(angle), uy = std::sin(angle);
  // Left to right; a vertical line reads upward (y decreasing).
  if (ux < -1e-9 || (std::abs(ux) <= 1e-9 && uy > 0)) ux = -ux, uy = -uy;
  if (flip) ux = -ux, uy = -uy;
  const double vx = -uy, vy = ux;  // "down" in the reading frame (y grows downward)
  const double a = along / 2, c = across / 2;
  return {maptext::Point{cx - ux * a - vx * c, cy - uy * a - vy * c}, maptext::Point{cx + ux * a - vx * c, cy + uy * a - vy * c},
          maptext::Point{cx + ux * a + vx * c, cy + uy * a + vy * c}, maptext::Point{cx - ux * a + vx * c, cy - uy * a + vy * c}};
}

namespace {
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
    const double score = (o.score_outline ? mean_inside(prob, contour) : mean_inside(prob, r)) / unit;
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
    boxes.push_back(b);
  }
  return boxes;
}
}  // namespace

std::vector<TextBox> text_boxes(const float* prob, int h, int w, const TextBoxOptions& o) {
  return boxes_of(cv::Mat(h, w, CV_32F, const_cast<float*>(prob)), 1.0, o);
}

std::vector<TextBox> text_boxes(const uint8_t* prob, int h, int w, const TextBoxOptions& o) {
  return boxes_of(cv::Mat(h, w, CV_8U, const_cast<uint8_t*>(prob)), 255.0, o);
}

}  // namespace light::spot

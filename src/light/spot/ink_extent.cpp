#include "light/image/ink.h"
#include "light/spot/ink_extent.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "light/data/word_crops.h"
#include "light/spot/spotter.h"

namespace light::spot {

std::optional<AcrossExtent> ink_extent(const image::RgbImage& image, const std::vector<maptext::Point>& polygon,
                                       const InkExtentOptions& o) {
  const size_t n = polygon.size(), half = n / 2;
  if (n < 4 || n % 2) return std::nullopt;
  // Facing points: lower[k] = polygon[k], upper[k] = polygon[n - 1 - k].
  auto lower = [&](size_t k) { return polygon[k]; };
  auto upper = [&](size_t k) { return polygon[n - 1 - k]; };
  double thickness = 0;
  for (size_t k = 0; k < half; ++k) thickness += std::hypot(upper(k).x - lower(k).x, upper(k).y - lower(k).y) / static_cast<double>(half);
  if (thickness < 4) return std::nullopt;
  // The word grown by `look` heights above and below, straightened: row 0 on the grown upper edge.
  std::vector<maptext::Point> grown(n);
  for (size_t k = 0; k < half; ++k) {
    const maptext::Point lo = lower(k), up = upper(k);
    const double dx = up.x - lo.x, dy = up.y - lo.y;
    grown[k] = {lo.x - o.look * dx, lo.y - o.look * dy};
    grown[n - 1 - k] = {up.x + o.look * dx, up.y + o.look * dy};
  }
  const int H = 64;
  const data::WordStrip s = data::straighten_word(image, grown, H, H * 40);
  const int x0 = static_cast<int>(s.width * 0.03), x1 = std::max(x0 + 1, static_cast<int>(std::ceil(s.width * 0.97)));
  std::vector<uint8_t> grey;
  grey.reserve(static_cast<size_t>(H) * (x1 - x0));
  for (int y = 0; y < H; ++y)
    for (int x = x0; x < x1; ++x) {
      const uint8_t* p = &s.rgb[(static_cast<size_t>(y) * s.width + x) * 3];
      grey.push_back(light::image::grey_of(p));
    }
  std::vector<uint8_t> sorted = grey;
  const double dark = light::image::grey_quantile(sorted, light::image::kInkQuantile);
  const double paper = light::image::grey_quantile(sorted, light::image::kPaperQuantile);
  if (paper - dark < o.min_contrast) return std::nullopt;
  const double cut = (dark + paper) / 2;
  const int cols = x1 - x0;
  cv::Mat ink(H, cols, CV_8U);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < cols; ++x) ink.at<uint8_t>(y, x) = grey[static_cast<size_t>(y) * cols + x] < cut ? 255 : 0;
  const double row_of = H / (1 + 2 * o.look);  // rows per word height
  // A rule along the word touching its letters would join them to whatever it reaches (the next line's
  // letters, the strip's edge): lettering has no stroke that long along the line, so it comes out first.
  const int rule = static_cast<int>(std::lround(o.rule_length * row_of));
  if (rule > 0 && rule < cols) {
    cv::Mat rules;
    cv::morphologyEx(ink, rules, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(rule, 1)));
    cv::dilate(rules, rules, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3)));
    ink.setTo(0, rules);
  }
  std::vector<double> share(H, 0.0);
  for (int y = 0; y < H; ++y) share[y] = static_cast<double>(cv::countNonZero(ink.row(y))) / cols;
  // The letters' core: the rows inside the word as given holding at least half the most inked one's
  // ink (a rule along the word, holding more than max_row_ink, is not lettering).
  const int top0 = static_cast<int>(std::ceil(o.look * row_of)), bottom0 = std::min(H - 1, static_cast<int>((1 + o.look) * row_of));
  double most = 0;
  for (int y = top0; y <= bottom0; ++y)
    if (share[y] <= o.max_row_ink) most = std::max(most, share[y]);
  if (most < o.min_row_ink) return std::nullopt;
  int core_top = H, core_bottom = -1;
  for (int y = top0; y <= bottom0; ++y)
    if (share[y] <= o.max_row_ink && share[y] >= most / 2) core_top = std::min(core_top, y), core_bottom = std::max(core_bottom, y);
  // The letters: pieces of ink reaching into the core, each whole (a capital's top, a descender),
  // leaving out what runs off the strip's top or bottom (a line crossing, the next line's letters).
  cv::Mat labels, stats, centroids;
  const int count = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
  int top = H, bottom = -1;
  for (int c = 1; c < count; ++c) {
    const int y = stats.at<int>(c, cv::CC_STAT_TOP), h = stats.at<int>(c, cv::CC_STAT_HEIGHT);
    if (stats.at<int>(c, cv::CC_STAT_AREA) < 4 || y + h - 1 < core_top || y > core_bottom) continue;
    if (y == 0 || y + h == H) continue;
    top = std::min(top, y), bottom = std::max(bottom, y + h - 1);
  }
  if (bottom < top) return std::nullopt;
  // The ink's extent as fractions of the height given: 0 on the upper edge, 1 on the lower.
  const double ink_top = top / row_of - o.look, ink_bottom = (bottom + 1) / row_of - o.look;
  const double pad = o.margin * (ink_bottom - ink_top) + 1.0 / thickness;
  const double u0 = ink_top - pad, u1 = ink_bottom + pad;
  if (u1 - u0 < o.min_ratio || u1 - u0 > o.max_ratio) return std::nullopt;
  return AcrossExtent{u0, u1};
}

std::vector<maptext::Point> moved_across(const std::vector<maptext::Point>& polygon, const AcrossExtent& e) {
  const size_t n = polygon.size(), half = n / 2;
  if (n < 4 || n % 2) return polygon;
  std::vector<maptext::Point> out(n);
  for (size_t k = 0; k < half; ++k) {
    const maptext::Point lo = polygon[k], up = polygon[n - 1 - k];
    const double dx = lo.x - up.x, dy = lo.y - up.y;  // from the upper edge down to the lower
    out[n - 1 - k] = {up.x + e.top * dx, up.y + e.top * dy};
    out[k] = {up.x + e.bottom * dx, up.y + e.bottom * dy};
  }
  return out;
}

std::vector<maptext::Point> fit_to_ink(const image::RgbImage& image, const std::vector<maptext::Point>& polygon,
                                       const InkExtentOptions& options) {
  const std::optional<AcrossExtent> e = ink_extent(image, polygon, options);
  return e ? moved_across(polygon, *e) : polygon;
}

namespace {
// Two words cut from one line box (read on the same detector line, the box unchanged by joining).
bool same_line(const LineWord& a, const LineWord& b) {
  if (a.read_on != b.read_on) return false;
  for (int k = 0; k < 4; ++k)
    if (a.line.corners[k].x != b.line.corners[k].x || a.line.corners[k].y != b.line.corners[k].y) return false;
  return a.line.upper.size() == b.line.upper.size();
}
}  // namespace

std::vector<std::optional<AcrossExtent>> line_extents(const image::RgbImage& image, const std::vector<LineWord>& words,
                                                      const InkExtentOptions& options) {
  std::vector<std::optional<AcrossExtent>> extent(words.size());
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i].on_ink) continue;
    if (i > 0 && same_line(words[i], words[i - 1])) {
      extent[i] = extent[i - 1];
      continue;
    }
    double from = words[i].word.from, to = words[i].word.to;
    for (size_t j = i + 1; j < words.size() && same_line(words[j], words[i]); ++j)
      from = std::min(from, words[j].word.from), to = std::max(to, words[j].word.to);
    extent[i] = ink_extent(image, word_polygon(words[i].line, from, to), options);
  }
  return extent;
}

}  // namespace light::spot

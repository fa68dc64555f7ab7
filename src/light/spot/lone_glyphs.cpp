#include "light/spot/lone_glyphs.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

#include "light/spot/spotter.h"  // word_polygon

namespace light::spot {

namespace {
// Whether `p` lies within `reach` pixels of a line found.
bool near_line(const cv::Point2f& p, const std::vector<std::vector<cv::Point2f>>& outlines, const std::vector<cv::Rect2f>& bounds, double reach) {
  for (size_t k = 0; k < outlines.size(); ++k) {
    const cv::Rect2f& b = bounds[k];
    if (p.x < b.x - reach || p.y < b.y - reach || p.x > b.x + b.width + reach || p.y > b.y + b.height + reach) continue;
    if (cv::pointPolygonTest(outlines[k], p, true) >= -reach) return true;
  }
  return false;
}

// A line's outline: its word polygon from end to end (bent edges where it bends).
std::vector<cv::Point2f> outline(const TextBox& l) {
  std::vector<cv::Point2f> poly;
  for (const maptext::Point& p : word_polygon(l, 0, 1)) poly.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
  return poly;
}

TextBox mark_box(const InkMark& m, double margin) {
  const double g = margin * m.height;
  TextBox t;
  t.corners = reading_corners(m.x + m.width / 2.0, m.y + m.height / 2.0, m.width + 2 * g, m.height + 2 * g, 0);
  return t;
}
}  // namespace

namespace {
// The marks in `area` of the image whose centres lie in `core` (both in the image's pixels): `area`
// reaches far enough about `core` that every mark centred there, the mean its ink is told by and the
// marks near it lie inside it.
void marks_in(const cv::Mat& rgb, const cv::Rect& area, const cv::Rect& core, const LoneGlyphOptions& o, std::vector<InkMark>& out) {
  cv::Mat grey, ink;
  cv::cvtColor(rgb(area), grey, cv::COLOR_RGB2GRAY);
  // Ink: darker by `contrast` than the mean of a square about it wider than the largest letter sought.
  const int block = static_cast<int>(o.max_height) | 1;
  cv::adaptiveThreshold(grey, ink, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY_INV, block, o.contrast);
  grey.release();
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
  // Every mark of a letter's height, for telling which stand alone; those also of a letter's shape,
  // centred in the core, kept.
  std::vector<cv::Rect> letter_high;
  std::vector<InkMark> found;
  for (int i = 1; i < n; ++i) {
    const cv::Rect b(area.x + stats.at<int>(i, cv::CC_STAT_LEFT), area.y + stats.at<int>(i, cv::CC_STAT_TOP), stats.at<int>(i, cv::CC_STAT_WIDTH),
                     stats.at<int>(i, cv::CC_STAT_HEIGHT));
    if (b.height * 2 < o.min_height || b.height > 2 * o.max_height) continue;
    if (b.width <= 2 * o.max_height) letter_high.push_back(b);  // (line work never counts as a neighbour)
    const double h = b.height, aspect = b.width / h, fill = stats.at<int>(i, cv::CC_STAT_AREA) / (static_cast<double>(b.width) * b.height);
    if (h < o.min_height || h > o.max_height || aspect < o.min_aspect || aspect > o.max_aspect || fill < o.min_fill || fill > o.max_fill) continue;
    if (!core.contains(cv::Point(b.x + b.width / 2, b.y + b.height / 2))) continue;
    if (b.x == 0 || b.y == 0 || b.x + b.width >= rgb.cols || b.y + b.height >= rgb.rows) continue;  // cut by the image's edge
    found.push_back(InkMark{b.x, b.y, b.width, b.height, false});
  }
  // Alone: no mark of like height (half to twice) and no wider than twice its height (line work)
  // within `alone` heights of it. Marks sorted by their left edge, each looks only as far as it reaches.
  std::sort(letter_high.begin(), letter_high.end(), [](const cv::Rect& a, const cv::Rect& b) { return a.x < b.x; });
  int widest = 0;
  for (const cv::Rect& r : letter_high) widest = std::max(widest, r.width);
  for (InkMark& m : found) {
    const int reach = static_cast<int>(o.alone * m.height);
    const cv::Rect self(m.x, m.y, m.width, m.height), near(m.x - reach, m.y - reach, m.width + 2 * reach, m.height + 2 * reach);
    auto it = std::lower_bound(letter_high.begin(), letter_high.end(), near.x - widest, [](const cv::Rect& r, int x) { return r.x < x; });
    m.alone = true;
    for (; it != letter_high.end() && it->x < near.x + near.width && m.alone; ++it) {
      const cv::Rect& b = *it;
      if (b == self || b.height * 2 < m.height || b.height > 2 * m.height || b.width > 2 * m.height) continue;
      if ((near & b).area() > 0) m.alone = false;
    }
  }
  out.insert(out.end(), found.begin(), found.end());
}
}  // namespace

std::vector<InkMark> ink_marks(const image::RgbImage& image, const LoneGlyphOptions& o) {
  const cv::Mat rgb(image.height, image.width, CV_8UC3, const_cast<uint8_t*>(image.rgb.data()));
  // In windows (a whole map's labels, four bytes a pixel, would outweigh the map): each window's core
  // `kCore` px square, read with a margin wider than a letter, half the threshold's square and the
  // reach of `alone`, so that its marks are the ones the whole image would give.
  constexpr int kCore = 2048;
  const int margin = static_cast<int>(o.max_height * (1.5 + o.alone)) + static_cast<int>(o.max_height) / 2 + 2;
  const cv::Rect whole(0, 0, image.width, image.height);
  std::vector<InkMark> out;
  for (int y = 0; y < image.height; y += kCore)
    for (int x = 0; x < image.width; x += kCore) {
      const cv::Rect core = cv::Rect(x, y, kCore, kCore) & whole;
      marks_in(rgb, cv::Rect(x - margin, y - margin, kCore + 2 * margin, kCore + 2 * margin) & whole, core, o, out);
    }
  std::sort(out.begin(), out.end(), [](const InkMark& a, const InkMark& b) {
    return a.height != b.height ? a.height > b.height : a.y != b.y ? a.y < b.y : a.x < b.x;
  });
  return out;
}

std::vector<TextBox> lone_glyphs(const std::vector<InkMark>& marks, const std::vector<TextBox>& lines, const LoneGlyphOptions& o,
                                 double image_pixels) {
  const size_t most = o.max_candidates * static_cast<size_t>(std::max(1.0, std::ceil(image_pixels / (2048.0 * 2048.0))));
  std::vector<std::vector<cv::Point2f>> outlines;
  std::vector<cv::Rect2f> bounds;
  for (const TextBox& l : lines) {
    outlines.push_back(outline(l));
    bounds.push_back(cv::boundingRect(outlines.back()));
  }
  std::vector<TextBox> out;
  for (const InkMark& m : marks) {
    if (out.size() >= most) break;
    if (!m.alone) continue;
    const cv::Point2f centre(m.x + m.width / 2.0f, m.y + m.height / 2.0f);
    if (near_line(centre, outlines, bounds, o.clear_of_lines * m.height)) continue;
    out.push_back(mark_box(m, o.margin));
  }
  return out;
}

std::optional<TextBox> on_its_mark(const TextBox& box, const std::vector<InkMark>& marks, const LoneGlyphOptions& o) {
  const std::vector<cv::Point2f> poly = outline(box);
  const cv::Rect2f bounds = cv::boundingRect(poly);
  const double h = std::min(box.height(), box.length());
  for (const InkMark& m : marks) {
    if (m.height < 0.5 * h || m.height > 3 * h) continue;
    const cv::Point2f centre(m.x + m.width / 2.0f, m.y + m.height / 2.0f);
    if (!bounds.contains(centre) || cv::pointPolygonTest(poly, centre, false) < 0) continue;
    return mark_box(m, o.margin);
  }
  return std::nullopt;
}

}  // namespace light::spot

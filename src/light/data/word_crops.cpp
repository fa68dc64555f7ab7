#include "light/geometry/polygon.h"
#include "light/data/word_crops.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

#include "light/error.h"

namespace light::data {


WordStrip straighten_word(const image::RgbImage& image, const std::vector<maptext::Point>& p, int height, int max_width) {
  const size_t n = p.size();
  if (n < 4 || n % 2) throw Error("straighten_word: expected an even number of vertices, at least 4");
  const size_t half = n / 2;
  // Lower edge: p[0..half-1] forwards; upper edge: p[n-1..half] forwards.
  std::vector<maptext::Point> lower(p.begin(), p.begin() + static_cast<long>(half)), upper;
  for (size_t k = 0; k < half; ++k) upper.push_back(p[n - 1 - k]);
  std::vector<double> seg(half - 1);
  double length = 0, thickness = 0;
  for (size_t k = 0; k + 1 < half; ++k) {
    seg[k] = (geometry::distance(lower[k], lower[k + 1]) + geometry::distance(upper[k], upper[k + 1])) / 2;
    length += seg[k];
  }
  for (size_t k = 0; k < half; ++k) thickness += geometry::distance(lower[k], upper[k]) / static_cast<double>(half);
  WordStrip out;
  out.height = height;
  out.width = std::clamp(static_cast<int>(std::lround(height * length / std::max(thickness, 1.0))), 8, max_width);
  out.rgb.assign(static_cast<size_t>(out.width) * height * 3, 255);
  if (length <= 0) return out;
  const cv::Mat src(image.height, image.width, CV_8UC3, const_cast<uint8_t*>(image.rgb.data()));
  cv::Mat dst(height, out.width, CV_8UC3, out.rgb.data());
  // Each slice between facing vertices k and k+1 gets its share of the strip's width.
  double x = 0;
  for (size_t k = 0; k + 1 < half; ++k) {
    const double w = out.width * seg[k] / length;
    const int x0 = static_cast<int>(std::floor(x)), x1 = std::min(out.width, static_cast<int>(std::ceil(x + w)));
    x += w;
    if (x1 <= x0) continue;
    const cv::Point2f from[4] = {{float(upper[k].x), float(upper[k].y)}, {float(upper[k + 1].x), float(upper[k + 1].y)},
                                 {float(lower[k + 1].x), float(lower[k + 1].y)}, {float(lower[k].x), float(lower[k].y)}};
    const float sx = static_cast<float>(x - w - x0);  // the slice's start within [x0, x1)
    const cv::Point2f to[4] = {{sx, 0}, {sx + float(w), 0}, {sx + float(w), float(height)}, {sx, float(height)}};
    cv::Mat piece;
    cv::warpPerspective(src, piece, cv::getPerspectiveTransform(from, to), cv::Size(x1 - x0, height), cv::INTER_LINEAR,
                        cv::BORDER_REPLICATE);
    piece.copyTo(dst(cv::Rect(x0, 0, x1 - x0, height)));
  }
  return out;
}

void recognizer_planes(const WordStrip& s, int padded_width, float* planes) {
  const size_t plane = static_cast<size_t>(s.height) * padded_width;
  for (int c = 0; c < 3; ++c)  // planes B, G, R
    for (int y = 0; y < s.height; ++y) {
      const uint8_t* src = s.rgb.data() + static_cast<size_t>(y) * s.width * 3 + (2 - c);
      float* dst = planes + c * plane + static_cast<size_t>(y) * padded_width;
      for (int x = 0; x < s.width; ++x) dst[x] = (src[3 * x] / 255.0f - 0.5f) / 0.5f;
    }
}

}  // namespace light::data

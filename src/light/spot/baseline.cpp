#include "light/image/ink.h"
#include "light/spot/baseline.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "light/util/utf8.h"

namespace light::spot {

namespace {

struct Piece {
  std::vector<cv::Point2d> pixels;  // pixel centres, in the image
  double weight = 0;                // its ink (pixels)
};

// The weighted median of `values`.
double weighted_median(std::vector<std::pair<double, double>> values) {
  std::sort(values.begin(), values.end());
  double total = 0;
  for (const auto& [v, w] : values) total += w;
  double run = 0;
  for (const auto& [v, w] : values)
    if ((run += w) >= total / 2) return v;
  return values.back().first;
}

// How far the pieces' lowest points lie from one line when read along `angle`, and their median
// height across, both in pixels (each piece counts by its ink; one far off, a descender or an
// apostrophe, counts at most 0.3 of a piece's height).
std::pair<double, double> spread_of_bottoms(const std::vector<Piece>& pieces, double angle) {
  const double vx = -std::sin(angle), vy = std::cos(angle);  // down, in the reading frame
  std::vector<std::pair<double, double>> bottoms, heights;
  for (const Piece& p : pieces) {
    double lo = 1e300, hi = -1e300;
    for (const cv::Point2d& q : p.pixels) {
      const double across = q.x * vx + q.y * vy;
      lo = std::min(lo, across), hi = std::max(hi, across);
    }
    bottoms.emplace_back(hi, p.weight);
    heights.emplace_back(hi - lo + 1, p.weight);
  }
  const double line = weighted_median(bottoms), height = weighted_median(heights);
  double cost = 0, total = 0;
  for (const auto& [b, w] : bottoms) cost += w * std::min(std::abs(b - line), 0.3 * height), total += w;
  return {cost / total, height};
}

}  // namespace

std::optional<double> baseline_direction(const image::RgbImage& image, const TextBox& box, const std::string& text,
                                         const BaselineOptions& o) {
  if (o.max_turn <= 0 || o.step <= 0 || box.bent()) return std::nullopt;
  const std::u32string t = utf8_decode(text);
  if (std::count_if(t.begin(), t.end(), [](char32_t ch) { return ch != U' '; }) < 2) return std::nullopt;
  for (char32_t ch : t)  // below the line
    if (std::u32string_view(U"gjpqyQ,;").find(ch) != std::u32string_view::npos) return std::nullopt;
  const double L = box.length(), H = box.height();
  if (!(L >= 4 && H >= 4)) return std::nullopt;
  const double base = box.direction();
  const double ux = std::cos(base), uy = std::sin(base), vx = -uy, vy = ux;
  const auto [cx, cy] = box.centroid();
  // The ink about the box, far enough for the word turned within it.
  const int R = static_cast<int>(std::ceil(0.9 * std::max(L, H))) + 2;
  const cv::Rect area = cv::Rect(static_cast<int>(cx) - R, static_cast<int>(cy) - R, 2 * R + 1, 2 * R + 1) & cv::Rect(0, 0, image.width, image.height);
  if (area.width < 8 || area.height < 8) return std::nullopt;
  // Its grey; the paper's grey is taken about the word, its ink's darkest among the box's own pixels
  // (the paper about it would hide a small word's ink among its darkest few per cent).
  cv::Mat grey(area.height, area.width, CV_8U);
  std::vector<uint8_t> inside;
  for (int y = 0; y < area.height; ++y)
    for (int x = 0; x < area.width; ++x) {
      const uint8_t* p = &image.rgb[(static_cast<size_t>(area.y + y) * image.width + area.x + x) * 3];
      const uint8_t g = light::image::grey_of(p);
      grey.at<uint8_t>(y, x) = g;
      const double dx = area.x + x + 0.5 - cx, dy = area.y + y + 0.5 - cy;
      if (std::abs(dx * ux + dy * uy) <= L / 2 && std::abs(dx * vx + dy * vy) <= H / 2) inside.push_back(g);
    }
  std::vector<uint8_t> all(grey.begin<uint8_t>(), grey.end<uint8_t>());
  if (inside.empty()) return std::nullopt;
  const double dark = light::image::grey_quantile(inside, light::image::kInkQuantile);
  const double paper = light::image::grey_quantile(all, light::image::kPaperQuantile);
  if (paper - dark < o.min_contrast) return std::nullopt;
  cv::Mat ink;
  cv::threshold(grey, ink, (dark + paper) / 2, 255, cv::THRESH_BINARY_INV);
  cv::Mat labels, stats, centroids;
  const int count = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
  // The word's pieces: centred in its box (grown by a tenth), no longer than the box is, and not running
  // off the ink looked at (a line crossing the word, a street's edge).
  std::vector<int> piece_of(count, -1);
  std::vector<Piece> pieces;
  for (int k = 1; k < count; ++k) {
    const int x = stats.at<int>(k, cv::CC_STAT_LEFT), y = stats.at<int>(k, cv::CC_STAT_TOP);
    const int w = stats.at<int>(k, cv::CC_STAT_WIDTH), h = stats.at<int>(k, cv::CC_STAT_HEIGHT);
    if (stats.at<int>(k, cv::CC_STAT_AREA) < 2 || std::max(w, h) > 1.2 * std::max(L, H)) continue;
    const bool off = (x == 0 && area.x > 0) || (y == 0 && area.y > 0) || (x + w == area.width && area.br().x < image.width) ||
                     (y + h == area.height && area.br().y < image.height);
    if (off) continue;
    const double dx = area.x + centroids.at<double>(k, 0) + 0.5 - cx, dy = area.y + centroids.at<double>(k, 1) + 0.5 - cy;
    if (std::abs(dx * ux + dy * uy) > 0.55 * L || std::abs(dx * vx + dy * vy) > 0.55 * H) continue;
    piece_of[k] = static_cast<int>(pieces.size());
    pieces.emplace_back();
  }
  if (pieces.size() < 2) return std::nullopt;
  for (int y = 0; y < labels.rows; ++y)
    for (int x = 0; x < labels.cols; ++x)
      if (const int k = labels.at<int>(y, x); k > 0 && piece_of[k] >= 0) {
        Piece& p = pieces[piece_of[k]];
        p.pixels.emplace_back(area.x + x + 0.5, area.y + y + 0.5);
        p.weight += 1;
      }
  // The directions tried, and the one (the middle of those as good) where the bottoms line up best.
  const int steps = static_cast<int>(std::floor(o.max_turn / o.step));
  std::vector<double> cost(2 * steps + 1);
  int at = -1;
  double height = 0;
  for (int i = 0; i <= 2 * steps; ++i) {
    const auto [spread, h] = spread_of_bottoms(pieces, base + (i - steps) * o.step * M_PI / 180);
    cost[i] = spread;
    if (at < 0 || spread < cost[at] || (spread == cost[at] && std::abs(i - steps) < std::abs(at - steps))) at = i, height = h;
  }
  const double best = cost[at], tolerance = 0.02 * height;
  int first = at, last = at;
  while (first > 0 && cost[first - 1] <= best + tolerance) --first;
  while (last < 2 * steps && cost[last + 1] <= best + tolerance) ++last;
  const double turn = ((first + last) / 2.0 - steps) * o.step;
  // Taken only where the bottoms line up clearly better than along the box's own direction.
  if (std::abs(turn) < o.min_turn || cost[steps] - best < o.min_gain || best > 0.5 * cost[steps]) return std::nullopt;
  return base + turn * M_PI / 180;
}

}  // namespace light::spot

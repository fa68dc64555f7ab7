#include "light/link/lettering.h"

#include "light/image/ink.h"

#include <algorithm>
#include <cmath>


namespace light::link {

std::vector<Lettering> word_lettering(const std::vector<const maptext::Word*>& words, const std::vector<geometry::ReadingFrame>& frames,
                                      const image::RgbImage& image, int width, int height) {
  std::vector<Lettering> out(words.size());
  const double sx = width > 0 ? static_cast<double>(image.width) / width : 0, sy = height > 0 ? static_cast<double>(image.height) / height : 0;
  std::vector<std::pair<int, int>> px;  // (luminance, offset) of the box's pixels
  for (size_t k = 0; k < words.size(); ++k) {
    Lettering& l = out[k];
    l.letter_case = letter_case(words[k]->text.value_or(""));
    l.log_height = static_cast<float>(std::log(std::max(frames[k].height, 1e-3)));
    if (words[k]->vertices.empty() || image.rgb.empty()) continue;
    const geometry::BBox bb = geometry::bbox(words[k]->vertices);
    const int x0 = std::clamp(static_cast<int>(std::floor(bb.x0 * sx)), 0, image.width), x1 = std::clamp(static_cast<int>(std::ceil(bb.x1 * sx)), 0, image.width);
    const int y0 = std::clamp(static_cast<int>(std::floor(bb.y0 * sy)), 0, image.height), y1 = std::clamp(static_cast<int>(std::ceil(bb.y1 * sy)), 0, image.height);
    if (x1 <= x0 || y1 <= y0) continue;
    // At most about 4,000 pixels a word: a large word is read on a grid.
    const long area = static_cast<long>(x1 - x0) * (y1 - y0);
    const int step = std::max(1, static_cast<int>(std::sqrt(static_cast<double>(area) / 4000.0)));
    px.clear();
    for (int y = y0; y < y1; y += step)
      for (int x = x0; x < x1; x += step) {
        const size_t o = (static_cast<size_t>(y) * image.width + x) * 3;
        px.emplace_back(299 * image.rgb[o] + 587 * image.rgb[o + 1] + 114 * image.rgb[o + 2], static_cast<int>(o));
      }
    const auto [sum, dark] = light::image::darkest_fifth_sum(px, [&](int o, int c) { return image.rgb[static_cast<size_t>(o + c)]; });
    l.r = static_cast<float>(sum[0] / (255.0 * dark)), l.g = static_cast<float>(sum[1] / (255.0 * dark)),
    l.b = static_cast<float>(sum[2] / (255.0 * dark));
    l.has_ink = true;
  }
  return out;
}

bool lettered_alike(const Lettering& a, const Lettering& b) {
  if (a.has_ink && b.has_ink && std::hypot(a.r - b.r, a.g - b.g, a.b - b.b) > kInkDistance) return false;
  if (std::abs(a.log_height - b.log_height) > kLogHeightRatio) return false;
  if (a.letter_case == LetterCase::None || b.letter_case == LetterCase::None) return true;
  // Small letters go with an initial capital: the particles of a name ("Lake of the Isles", "Site / of").
  return (a.letter_case == LetterCase::Upper) == (b.letter_case == LetterCase::Upper);
}

}  // namespace light::link

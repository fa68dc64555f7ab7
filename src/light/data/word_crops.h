// A word's pixels straightened: the image under a word polygon (16 points in MapText reading order:
// the lower edge from the word's start to its end, then the upper edge back) warped, slice by slice
// between facing vertices, into a strip `height` px high whose width keeps the word's aspect. A curved
// word comes out straight. The recogniser reads such strips (spot/), and learns from them (train/).
#pragma once
#include <cstdint>
#include <vector>

#include "light/image/resize.h"
#include "light/maptext.h"

namespace light::data {

struct WordStrip {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // row-major RGB
};

// `polygon`: an even number (at least 4) of points, half along each edge as above. The strip's width
// is height x (mean edge length / mean thickness), clamped to [8, max_width].
WordStrip straighten_word(const image::RgbImage& image, const std::vector<maptext::Point>& polygon, int height = 48,
                          int max_width = 48 * 25);

// A strip as the recogniser reads it, into `planes` ([3, height, padded_width], zeroed by the caller):
// BGR planes, (x/255 - 0.5) / 0.5, the strip at the left, the rest left 0 (PaddleOCR's padding).
void recognizer_planes(const WordStrip& strip, int padded_width, float* planes);

}  // namespace light::data

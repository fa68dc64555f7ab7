// Ink and paper. A word's ink colour: the mean colour of the darkest fifth of the pixels in its box
// (the decoder's lettering prior, link/lettering.h, reads it from the map, the pairwise head's
// lettering features, model/batch.cpp, from the model's window; each brings its own pixels). A
// lettering's ink and paper greys (the spotter's baseline and ink fit, spot/baseline.h,
// spot/ink_extent.h): the darkest 3 % is its ink, the 70th percentile its paper.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace light::image {

// `pixels`: (luminance, where) for every pixel read (reordered in place; not empty); channel(where, c)
// reads channel c (0-2) of that pixel. The sum of each channel over the darkest fifth (at least one
// pixel), and how many pixels that is: the caller scales the mean to its own range.
template <class Luminance, class Where, class Channel>
std::pair<std::array<double, 3>, size_t> darkest_fifth_sum(std::vector<std::pair<Luminance, Where>>& pixels, Channel channel) {
  const size_t dark = std::max<size_t>(1, pixels.size() / 5);
  std::nth_element(pixels.begin(), pixels.begin() + static_cast<long>(dark - 1), pixels.end());
  std::array<double, 3> sum{};
  for (size_t i = 0; i < dark; ++i)
    for (int c = 0; c < 3; ++c) sum[static_cast<size_t>(c)] += channel(pixels[i].second, c);
  return {sum, dark};
}

// A pixel's grey from its RGB (ITU-R 601 weights, in whole grey levels).
inline uint8_t grey_of(const uint8_t* rgb) { return static_cast<uint8_t>((299 * rgb[0] + 587 * rgb[1] + 114 * rgb[2]) / 1000); }

// The value at share `q` (0-1) of `values` in order (reordered in place; not empty).
inline double grey_quantile(std::vector<uint8_t>& values, double q) {
  auto at = values.begin() + static_cast<long>(q * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), at, values.end());
  return static_cast<double>(*at);
}
constexpr double kInkQuantile = 0.03;    // the darkest 3 % of a lettering's pixels: its ink
constexpr double kPaperQuantile = 0.7;   // the 70th percentile of the pixels about it: its paper

}  // namespace light::image

// A word's ink colour: the mean colour of the darkest fifth of the pixels in its box. The decoder's
// lettering prior (link/lettering.h) reads it from the map, the pairwise head's lettering features
// (model/batch.cpp) from the model's window; each brings its own pixels.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
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

}  // namespace light::image

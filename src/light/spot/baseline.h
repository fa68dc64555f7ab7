// The direction of a short word's baseline, found in its ink. A word of two or three letters ("St.",
// "Co.", "Mt") comes out of the detector as a box about as high as long, and the minimum-area
// rectangle of such a region says little of which way its lettering runs (a street's "St." set along it
// came out level or upright, and the linker left it apart from its name: docs/notes/2026-11-spotter.md,
// "Short words turned along their letters"). Letters stand on one line: the word's pieces of ink (letters, a
// full stop) are found about its box, and the direction within a range about the box's own along
// which their lowest points line up best is the word's (each piece weighted by its ink, so that a
// dot or an accent counts little).
#pragma once
#include <optional>
#include <string>

#include "light/image/resize.h"
#include "light/spot/text_boxes.h"

namespace light::spot {

struct BaselineOptions {
  double max_length = 2.5;    // words read alone on a box shorter than this many times its height are looked at
  double max_turn = 40;       // degrees either way from the box's direction searched (0: never turned)
  double min_turn = 3;        // a direction found less than this far from the box's is not taken
  double min_contrast = 40;   // grey levels between the paper and the darkest ink, else no direction
  double step = 1;            // degrees between the directions tried
  // Taken only where the pieces' lowest points lie closer to one line than along the box's direction
  // by this many pixels (their mean distance, each piece counting by its ink) and by half.
  double min_gain = 0.3;
};

// The reading direction (radians, as atan2(dy, dx) in the image) along which the letters of the word
// read in `box` (TextBox corners: the word reads from the first to the second; the third and fourth
// are below) stand on one line; none when fewer than two pieces of ink lie in it, its ink is unclear, its `text` has letters that reach below the line (g,
// j, p, q, y, Q, a comma), or the best direction lies within `min_turn` of the box's, or does not
// line the bottoms up clearly better (`min_gain`).
std::optional<double> baseline_direction(const image::RgbImage& image, const TextBox& box, const std::string& text,
                                         const BaselineOptions& options = {});

}  // namespace light::spot

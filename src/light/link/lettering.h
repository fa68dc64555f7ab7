// How a word is lettered, as far as the decoder needs it: its ink colour, its height and its case
// (capitals, an initial capital, small letters). A name set on two lines, or spread across a region,
// keeps one lettering; an unrelated label on the line below usually has another. The model reads its
// window too small to see a word's ink and case, so the decoding prior (decoding_prior.h) reads them
// from the map here. How true and false next-line pairs differ in each: docs/notes/2026-11-default-model.md,
// "Lettering: a decoding prior that tells a name's next line from a label below".
#pragma once
#include <vector>

#include "light/geometry/polygon.h"
#include "light/image/resize.h"
#include "light/maptext.h"
#include "light/text/letter_case.h"

namespace light::link {

using text::LetterCase;  // text/letter_case.h
using text::letter_case;

struct Lettering {
  float r = 0, g = 0, b = 0;  // the ink: the mean colour of the darkest fifth of the word's box, 0-1
  float log_height = 0;       // log of the frame's height
  LetterCase letter_case = LetterCase::None;
  bool has_ink = false;       // false: no pixels under the word (off the image)
};

// The lettering of each word `polygons[k]` (pixels of a width x height tile; `text[k]` its text,
// `frames[k]` its reading frame), its ink read from `image`, which holds the tile at any scale.
std::vector<Lettering> word_lettering(const std::vector<const maptext::Word*>& words, const std::vector<geometry::ReadingFrame>& frames,
                                      const image::RgbImage& image, int width, int height);

// Whether two words are lettered alike: ink within kInkDistance (when both have ink), heights within
// kHeightRatio, and the same case, small letters going with an initial capital (a name's particles:
// "Lake of the Isles"; figures go with any).
inline constexpr double kInkDistance = 0.15;
inline constexpr double kLogHeightRatio = 0.2;
bool lettered_alike(const Lettering& a, const Lettering& b);

}  // namespace light::link

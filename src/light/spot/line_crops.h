// The strips the recogniser reads, and the words taken from its readings: each line straightened
// (spot/reading), steep ones also upside down (the upside_down stage), a letter alone also levelled
// and with the paper about it (lone_letters), a letter found in the ink level and turned either way
// (lone_glyphs); then each line's most confident reading split into words, a short word turned to its
// baseline (baseline). A line's crops lie next to each other, its plain reading first.
#pragma once
#include <cstddef>
#include <vector>

#include "light/data/word_crops.h"
#include "light/image/resize.h"
#include "light/spot/lone_glyphs.h"
#include "light/spot/reading.h"
#include "light/spot/spaced_words.h"
#include "light/spot/spot_options.h"

namespace light::spot {

struct Crop {
  size_t line = 0;          // the line (of the boxes given) it reads
  TextBox box;              // the line as read (upside down, levelled)
  data::WordStrip strip;    // strip_height px high
  double from = 0, to = 1;  // the part of the strip that is the box (the rest: the paper about a lone letter)
};

// Every crop of `boxes`: the first `found` the detector's lines, the rest letters alone found in the ink.
std::vector<Crop> line_crops(const image::RgbImage& image, const std::vector<TextBox>& boxes, size_t found, const SpotOptions& options);

// A crop's reading: its words (fractions of the crop's box) and its characters' mean probability.
struct CropReading {
  std::vector<ReadWord> words;
  double confidence = 0;
};

// The words of each line's most confident reading. A letter found in the ink is kept when read as one
// or two letters or figures from `glyph_score`; a letter alone the detector found and read upright as
// one character takes its mark's box (`marks`: the ink's marks, spot/lone_glyphs).
std::vector<LineWord> best_readings(const image::RgbImage& image, const std::vector<Crop>& crops, const std::vector<CropReading>& readings,
                                    const std::vector<TextBox>& boxes, size_t found, const std::vector<InkMark>& marks,
                                    const SpotOptions& options);

}  // namespace light::spot

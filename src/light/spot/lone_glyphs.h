// Letters standing alone (a city block's letter, a section's figure, a sheet's number): the text
// detector was trained on lines of text and mostly does not see them at all (docs/spotter.md, step 5).
// They are looked for in the ink instead: dark marks of a letter's size
// and shape, alone on the paper and away from every line found, each a candidate the recogniser reads
// with the paper about it; the spotter keeps the ones it reads confidently as one or two letters or
// figures (Spotter::spot, SpotOptions::glyphs).
#pragma once
#include <optional>
#include <vector>

#include "light/image/resize.h"
#include "light/spot/text_boxes.h"

namespace light::spot {

struct LoneGlyphOptions {
  double min_height = 8, max_height = 160;  // a candidate's ink, pixels high
  double min_aspect = 0.3, max_aspect = 1.5;  // its width over its height
  double min_fill = 0.12, max_fill = 0.75;    // the share of its box the ink fills (not a dot, not a block)
  double contrast = 25;       // ink at least this much darker than the mean about it (grey levels)
  double alone = 1.0;         // no other mark of a letter's size nearer than this many heights
  double clear_of_lines = 0.5;  // nor a line found nearer than this many of its heights
  double margin = 0.1;        // the candidate's box: the ink's grown by this many heights on every side
  size_t max_candidates = 200;  // per 2,048 x 2,048 px of the image, the largest first
};

// A mark of ink of a letter's size and shape (LoneGlyphOptions' height, aspect and fill), its bounds
// in the image's pixels.
struct InkMark {
  int x = 0, y = 0, width = 0, height = 0;
  bool alone = false;  // no other mark of a letter's size nearer than LoneGlyphOptions::alone heights
};

// The marks on `image` (ink: darker by `contrast` than the mean about it), the largest first.
std::vector<InkMark> ink_marks(const image::RgbImage& image, const LoneGlyphOptions& options = {});

// Candidate boxes (level, in reading order) of letters standing alone: the marks alone and away from
// `lines`, their ink's bounds grown by `margin` heights, at most `max_candidates` for every 2,048 x
// 2,048 px of `image_pixels` (the image's area; one such square at least).
std::vector<TextBox> lone_glyphs(const std::vector<InkMark>& marks, const std::vector<TextBox>& lines, const LoneGlyphOptions& options = {},
                                 double image_pixels = 0);

// The box of the mark that `box` (a letter alone the detector found) stands on: its ink's bounds grown
// by `margin` heights, where a mark's centre lies inside the box and the mark is 0.5 to 3 times its
// height (the detector's box of a letter alone is often a shrunken one); none where no mark is so.
std::optional<TextBox> on_its_mark(const TextBox& box, const std::vector<InkMark>& marks, const LoneGlyphOptions& options = {});

}  // namespace light::spot

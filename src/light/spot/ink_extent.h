// A spotted word's outline fitted across to its lettering. The detector's line boxes are a grown
// probability region: a word cut from one is as high as its line's box, not its letters, and that
// height spreads widely about the drawn outline's (docs/spotter.md, step 8). A linker reads two words lettered alike as parts of one name, so it reads
// these differences as lettering. Here a line's upper and lower edges are moved to where its letters
// begin and end across it: the line straightened with some paper above and below, its ink (darker than
// halfway between its paper and its darkest), the rows holding at least half the most inked row's ink
// (the letters' core), and the pieces of ink reaching into that core, each whole (a capital's top, a
// descender), leaving out what runs off the strip (a line crossing, the next line's letters); plus a
// margin, as a person draws a word's outline. All the words of a line take its extent, so that words
// set alike stay alike (fitted word by word, a word with a descender comes out higher than its
// neighbour without one, and the linker reads them as lettered apart).
#pragma once
#include <optional>
#include <vector>

#include "light/image/resize.h"
#include "light/maptext.h"
#include "light/spot/spaced_words.h"

namespace light::spot {

struct InkExtentOptions {
  double look = 0.3;         // the ink is looked for this far beyond each edge (of the word's height)
  double min_row_ink = 0.05; // no fit unless the most inked row inside the outline holds this share of its columns,
  double max_row_ink = 0.8;  // rows holding more are not lettering (a rule or a road's edge along the word)
  double margin = 0.06;      // the edges lie 1 px + this share of the ink's height beyond it
  double min_ratio = 0.6, max_ratio = 1.5;  // a fit is kept only within so many times the height given
  double min_contrast = 40;  // grey levels between the paper and the darkest ink, else no fit
  double rule_length = 1;    // runs of ink along the strip this many heights long or longer (a street's edge, a
                             // rule touching an ascender) are taken out before the letters are looked for; 0: kept
};

// Where the ink of the word or line under `polygon` begins and ends across it, a margin added, as
// fractions of its height (0 on its upper edge, 1 on its lower edge: beyond, below 0 or above 1);
// none when its ink is unclear or the fit falls outside the ratios. `polygon`: an even number of
// points, at least 4, in MapText order (the lower edge from the start, the upper edge back).
struct AcrossExtent {
  double top = 0, bottom = 1;
};
std::optional<AcrossExtent> ink_extent(const image::RgbImage& image, const std::vector<maptext::Point>& polygon,
                                       const InkExtentOptions& options = {});

// `polygon` with each pair of facing points moved along the line between them to `extent`.
std::vector<maptext::Point> moved_across(const std::vector<maptext::Point>& polygon, const AcrossExtent& extent);

// `polygon` (an even number of points, at least 4, in MapText order: the lower edge from the word's
// start, the upper edge back) with each pair of facing points moved along the line between them to
// the ink's extent; as given when the word's ink is unclear or the fit falls outside the ratios.
std::vector<maptext::Point> fit_to_ink(const image::RgbImage& image, const std::vector<maptext::Point>& polygon,
                                       const InkExtentOptions& options = {});

// The extent of each word's line: the words cut from one line box (one after the other in `words`)
// share the extent of their span's ink, so that words set alike stay alike; none for words whose box
// is already their ink's (LineWord::on_ink).
std::vector<std::optional<AcrossExtent>> line_extents(const image::RgbImage& image, const std::vector<LineWord>& words,
                                                      const InkExtentOptions& options = {});

}  // namespace light::spot

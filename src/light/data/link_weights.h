// Beyond the paper: the training losses can weigh each word's successor row (and its successor's
// predecessor row) by where the successor lies (geometry/link_class.h), so that the rare links a
// linker misses most (a name's next line when the two lines do not line up, spread lettering, words
// set one above the other along a bend) count for more than the many near links on one line. A
// word without a successor, and near and backward links, keep weight 1; all 1 is the paper's loss.
#pragma once
#include <string>
#include <vector>

#include "light/data/inputs.h"

namespace light::data {

struct LinkWeights {
  double spread = 1, next_line = 1, next_line_unaligned = 1, above = 1;
  bool neutral() const { return spread == 1 && next_line == 1 && next_line_unaligned == 1 && above == 1; }
};

// "spread=2,next_line=2,next_line_unaligned=3,above=3" (any subset, each > 0; "" for all 1); a
// light::Error naming `where` and the key otherwise.
LinkWeights parse_link_weights(const std::string& spec, const std::string& where);
// The keys that differ from 1, as parse_link_weights reads them ("" when neutral).
std::string link_weights_spec(const LinkWeights& w);

// Per word of a window (model order): the weight of its successor row (`next`) and of its predecessor
// row (`prev`: the weight of the link that reaches it), from the words' labels and polygons in the
// window's frame (window_frames). A next line lines up with the line above when the lines of the truth
// do (geometry::lines_of, line_end_offset within geometry::kAlignedEnds), as scripts/stack_stats.py
// counts stacks.
void link_row_weights(const TileInputs& in, const LinkWeights& w, std::vector<float>& next, std::vector<float>& prev);

}  // namespace light::data

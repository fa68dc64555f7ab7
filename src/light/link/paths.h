// From links to phrases: turning undirected path links between the words of a tile into ordered
// groups (MapText phrases), and rebuilding a tile from them. Every word ends up in exactly one group.
#pragma once
#include <utility>
#include <vector>

#include "light/geometry/polygon.h"
#include "light/maptext.h"

namespace light::link {

enum class PhraseOrder {
  Path,  // follow the path from its end nearer the left (as the baseline's export does)
  YX,    // sort each phrase's words by centre y, then x (how the paper scored the baselines)
};
PhraseOrder parse_order(const std::string& name);

// Splits words 0..n-1 into phrases along undirected links (each word at most 2 links). Paths start
// at the first free end in (centre x, centre y) order; a cycle (not expected) is opened at its
// first word in that order, so no word is ever lost.
std::vector<std::vector<int>> links_to_phrases(int n, const std::vector<std::pair<int, int>>& links,
                                               const std::vector<geometry::Point>& centres, PhraseOrder order);

// The tile's words in file order (groups flattened).
std::vector<const maptext::Word*> flatten(const maptext::Tile& tile);

// A tile with the same image and words, grouped as `phrases` (indices into flatten(tile)).
maptext::Tile regroup(const maptext::Tile& tile, const std::vector<std::vector<int>>& phrases);

}  // namespace light::link

// Words from a tiled spotter run put back on their map (`light link --merge-tiles STRIDE`): tiles
// named MAP_h<row>_w<col> (as mapKurator and the MapText Rumsey tiles are) are moved by (col, row)
// times the stride into MAP's pixel frame and become one map; a word found twice where tiles overlap
// is kept once.
#pragma once
#include <string>

#include "light/maptext.h"

namespace light::data {

struct TileMergeOptions {
  double stride = 0;     // pixels between consecutive tiles' origins (the tile side when they do not overlap)
  double min_ioa = 0.5;  // two words of different tiles are one when their intersection covers this much of the smaller
};

struct TileMergeReport {
  size_t maps = 0, tiles = 0, duplicates = 0;
};

// The dataset with every MAP_h<row>_w<col>[.ext] tile merged into a map keyed MAP (no extension: its
// image is found by stem), words in the order of their tiles (row, then column) and of the tile's
// words. Of two words that are one, the larger polygon stays (the other is most often cut by its
// tile's edge). Other tiles pass unchanged. light::Error for a stride that is not positive.
maptext::Dataset merge_tiles(const maptext::Dataset& tiles, const TileMergeOptions& options, TileMergeReport* report = nullptr);

}  // namespace light::data

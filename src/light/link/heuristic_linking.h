// `light link --method distance|mst`: the heuristic linkers applied to whole MapText files.
#pragma once
#include "light/baselines/heuristic_links.h"
#include "light/link/paths.h"
#include "light/maptext.h"

namespace light::link {

struct HeuristicOptions {
  baselines::Method method = baselines::Method::Mst;
  baselines::CostWeights weights;
  PhraseOrder order = PhraseOrder::Path;
  int threads = 0;        // 0 = all cores
  bool progress = false;  // progress line on stderr
};

// Links all words of one tile afresh (its grouping is ignored); every word appears exactly once.
maptext::Tile link_tile_heuristic(const maptext::Tile& tile, const HeuristicOptions& options);

// Every tile of a file, in parallel; output tiles in input order.
maptext::Dataset link_heuristic(const maptext::Dataset& data, const HeuristicOptions& options);

}  // namespace light::link

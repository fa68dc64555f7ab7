#include "light/link/heuristic_linking.h"

#include "light/util/parallel.h"
#include "light/util/progress.h"
#include "light/geometry/polygon.h"

namespace light::link {

maptext::Tile link_tile_heuristic(const maptext::Tile& tile, const HeuristicOptions& opt) {
  const auto words = flatten(tile);
  const int n = static_cast<int>(words.size());
  std::vector<baselines::WordFeatures> feats;
  std::vector<geometry::Point> centres;
  feats.reserve(n);
  for (const maptext::Word* w : words) {
    feats.push_back(baselines::word_features(w->vertices, w->text.value_or("")));
    centres.push_back({feats.back().rect.cx, feats.back().rect.cy});
  }
  std::vector<std::pair<int, int>> links;
  for (const auto& e : baselines::heuristic_links(feats, opt.method, opt.weights)) links.emplace_back(e.u, e.v);
  return regroup(tile, links_to_phrases(n, links, centres, opt.order));
}

maptext::Dataset link_heuristic(const maptext::Dataset& data, const HeuristicOptions& opt) {
  maptext::Dataset out(data.size());
  Progress progress("link", data.size(), "tiles");
  parallel_for(data.size(), opt.threads, [&](size_t k, int) {
    out[k] = link_tile_heuristic(data[k], opt);
    if (opt.progress) progress.add();
  });
  if (opt.progress) progress.finish();
  return out;
}

}  // namespace light::link

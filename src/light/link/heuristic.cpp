#include "light/link/heuristic.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "light/util/progress.h"

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
  for (const auto& e : baselines::link_heuristic(feats, opt.method, opt.weights)) links.emplace_back(e.u, e.v);
  return regroup(tile, links_to_phrases(n, links, centres, opt.order));
}

maptext::Dataset link_heuristic(const maptext::Dataset& data, const HeuristicOptions& opt) {
  const size_t n = data.size();
  maptext::Dataset out(n);
  size_t total_words = 0;
  for (const auto& t : data) total_words += t.word_count();
  Progress progress("link", n, "tiles");
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t k = next++; k < n; k = next++) {
      out[k] = link_tile_heuristic(data[k], opt);
      if (opt.progress) progress.add();
    }
  };
  int threads = opt.threads > 0 ? opt.threads : static_cast<int>(std::thread::hardware_concurrency());
  threads = std::max(1, std::min<int>(threads, static_cast<int>(n)));
  if (threads == 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(work);
    for (auto& th : pool) th.join();
  }
  if (opt.progress) progress.finish();
  return out;
}

}  // namespace light::link

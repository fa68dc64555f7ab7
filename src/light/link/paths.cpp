#include "light/link/paths.h"

#include <algorithm>
#include <numeric>

#include "light/error.h"
#include "light/geometry/polygon.h"

namespace light::link {

PhraseOrder parse_order(const std::string& name) {
  if (name == "path") return PhraseOrder::Path;
  if (name == "yx") return PhraseOrder::YX;
  throw Error("--order: expected path or yx, got \"" + name + "\"");
}

std::vector<std::vector<int>> links_to_phrases(int n, const std::vector<std::pair<int, int>>& links,
                                               const std::vector<geometry::Point>& centres, PhraseOrder order) {
  std::vector<std::vector<int>> adj(n);
  for (const auto& [u, v] : links) {
    adj[u].push_back(v);
    adj[v].push_back(u);
  }
  for (int i = 0; i < n; ++i)
    if (adj[i].size() > 2) throw Error("links_to_phrases: word " + std::to_string(i) + " has more than two links");
  std::vector<int> by_x(n);
  std::iota(by_x.begin(), by_x.end(), 0);
  std::stable_sort(by_x.begin(), by_x.end(), [&](int a, int b) {
    if (centres[a].x != centres[b].x) return centres[a].x < centres[b].x;
    return centres[a].y < centres[b].y;
  });
  std::vector<char> used(n, 0);
  std::vector<std::vector<int>> phrases;
  auto walk = [&](int start) {
    std::vector<int> path{start};
    used[start] = 1;
    int prev = -1, cur = start;
    while (true) {
      int next = -1;
      for (int v : adj[cur])
        if (v != prev && !used[v]) next = v;
      if (next < 0) break;
      used[next] = 1;
      path.push_back(next);
      prev = cur;
      cur = next;
    }
    return path;
  };
  for (int pass = 0; pass < 2; ++pass)  // ends first; then anything left (a cycle) from its first word
    for (int i : by_x)
      if (!used[i] && (pass == 1 || adj[i].size() < 2)) phrases.push_back(walk(i));
  if (order == PhraseOrder::YX)
    for (auto& p : phrases)
      std::stable_sort(p.begin(), p.end(), [&](int a, int b) {
        if (centres[a].y != centres[b].y) return centres[a].y < centres[b].y;
        return centres[a].x < centres[b].x;
      });
  return phrases;
}

std::vector<const maptext::Word*> flatten(const maptext::Tile& tile) {
  std::vector<const maptext::Word*> words;
  for (const auto& g : tile.groups)
    for (const auto& w : g) words.push_back(&w);
  return words;
}

maptext::Tile regroup(const maptext::Tile& tile, const std::vector<std::vector<int>>& phrases) {
  const auto words = flatten(tile);
  maptext::Tile out{tile.image, {}};
  out.groups.reserve(phrases.size());
  for (const auto& p : phrases) {
    maptext::Group g;
    for (int i : p) g.push_back(*words.at(i));
    out.groups.push_back(std::move(g));
  }
  return out;
}

}  // namespace light::link

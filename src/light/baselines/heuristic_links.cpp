#include "light/util/disjoint_sets.h"
#include "light/baselines/heuristic_links.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>

#include "light/error.h"

namespace light::baselines {

Method parse_method(const std::string& name) {
  if (name == "mst") return Method::Mst;
  if (name == "distance") return Method::Distance;
  throw Error("--method: expected distance or mst, got \"" + name + "\"");
}

std::vector<Edge> mst_edges(const std::vector<WordFeatures>& words, const CostWeights& w) {
  const int n = static_cast<int>(words.size());
  std::vector<Edge> edges;
  if (n < 2) return edges;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> key(n, kInf), cx(n), cy(n), reach(n);
  std::vector<int> parent(n, -1);
  std::vector<char> done(n, 0);
  for (int i = 0; i < n; ++i) {
    cx[i] = words[i].rect.cx;
    cy[i] = words[i].rect.cy;
    reach[i] = words[i].reach;
  }
  // cost >= D >= centre distance - both reaches, when the weights cannot make a factor < 1: a word
  // farther from u than that cannot improve its key, and its exact cost is not computed.
  const bool prune = w.a >= 0 && w.b >= 0 && w.c >= 0;
  key[0] = 0.0;
  int u = 0;
  for (int step = 0; step < n; ++step) {
    done[u] = 1;
    const WordFeatures& fu = words[u];
    int next = -1;
    for (int v = 0; v < n; ++v) {
      if (done[v]) continue;
      bool skip = false;
      if (prune && key[v] < kInf) {
        const double dx = cx[u] - cx[v], dy = cy[u] - cy[v];
        const double r = (key[v] + reach[u] + reach[v]) * (1.0 + 1e-9) + 1e-9;  // margin for rounding
        skip = dx * dx + dy * dy >= r * r;
      }
      if (!skip) {
        const double d = edge_cost(words[v], fu, w);
        if (d < key[v]) {
          key[v] = d;
          parent[v] = u;
        }
      }
      // The next word: the first (in index order) with the smallest key.
      if (next < 0 || key[v] < key[next]) next = v;
    }
    if (next < 0) break;
    u = next;
  }
  for (int v = 0; v < n; ++v)
    if (parent[v] >= 0) edges.push_back({v, parent[v], key[v]});
  return edges;
}

std::vector<Edge> distance_edges(const std::vector<WordFeatures>& words) {
  std::vector<Edge> edges;
  for_each_distance_edge(words, [&](const Edge& e) { edges.push_back(e); });
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.u != b.u ? a.u < b.u : a.v < b.v; });
  return edges;
}

void for_each_distance_edge(const std::vector<WordFeatures>& words, const std::function<void(const Edge&)>& visit) {
  const int n = static_cast<int>(words.size());
  if (n < 2) return;
  // Sweep over words sorted by centre x: a pair farther apart in x than the threshold plus both
  // reaches cannot be close enough.
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return words[a].rect.cx < words[b].rect.cx; });
  std::vector<double> xs(n);
  for (int k = 0; k < n; ++k) xs[k] = words[order[k]].rect.cx;
  double max_reach = 0;
  for (const auto& f : words) max_reach = std::max(max_reach, f.reach);
  for (int u = 0; u < n; ++u) {
    const WordFeatures& fu = words[u];
    const double threshold = 2.0 * std::max(fu.rect.w, fu.rect.h) / std::max<double>(1.0, static_cast<double>(fu.chars));
    const double span = threshold + fu.reach + max_reach;
    const auto lo = std::lower_bound(xs.begin(), xs.end(), fu.rect.cx - span) - xs.begin();
    const auto hi = std::upper_bound(xs.begin(), xs.end(), fu.rect.cx + span) - xs.begin();
    for (auto k = lo; k < hi; ++k) {
      const int v = order[k];
      if (v <= u) continue;
      const double d = side_distance(fu, words[v]);
      if (d <= threshold) visit({u, v, d});
    }
  }
}

namespace {
// The cut's order: true when x is cut after y (cheaper; at equal cost, higher word indices).
bool cut_later(const Edge& x, const Edge& y) {
  if (x.cost != y.cost) return x.cost < y.cost;
  if (std::min(x.u, x.v) != std::min(y.u, y.v)) return std::min(x.u, x.v) > std::min(y.u, y.v);
  return std::max(x.u, x.v) > std::max(y.u, y.v);
}
bool same_edge(const Edge& a, const Edge& b) {
  return std::min(a.u, a.v) == std::min(b.u, b.v) && std::max(a.u, a.v) == std::max(b.u, b.v);
}
}  // namespace

std::vector<Edge> distance_edges_cut_to_degree_two(const std::vector<WordFeatures>& words) {
  const int n = static_cast<int>(words.size());
  // Each word's link count and its two links cut last ("cheapest"), cheapest first.
  std::vector<long> degree(n, 0);
  std::vector<std::array<Edge, 2>> best(n);
  std::vector<int> held(n, 0);
  auto offer = [&](int w, const Edge& e) {
    auto& b = best[w];
    int& h = held[w];
    if (h < 2) b[h++] = e;
    else if (cut_later(e, b[1])) b[1] = e;
    else return;
    if (h == 2 && cut_later(b[1], b[0])) std::swap(b[0], b[1]);
  };
  for_each_distance_edge(words, [&](const Edge& e) {
    ++degree[e.u], ++degree[e.v];
    offer(e.u, e);
    offer(e.v, e);
  });
  auto rank = [&](int w, const Edge& e) {  // how many of w's links are cheaper than e; -1: not among its two
    for (int k = 0; k < held[w]; ++k)
      if (same_edge(best[w][k], e)) return k;
    return -1;
  };
  std::vector<Edge> candidates;  // among the two cheapest of both words
  for (int w = 0; w < n; ++w)
    for (int k = 0; k < held[w]; ++k) {
      const Edge& e = best[w][k];
      const int other = e.u == w ? e.v : e.u;
      if (w < other && rank(other, e) >= 0) candidates.push_back(e);
    }
  // The cut, costliest first: at a link's turn, a word's links are the cheaper ones (all still
  // there), the link itself and the costlier ones kept; more than two cut it.
  std::sort(candidates.begin(), candidates.end(), [](const Edge& a, const Edge& b) { return cut_later(b, a); });
  std::vector<int> kept_costlier(n, 0);
  std::vector<Edge> kept;
  for (const Edge& e : candidates) {
    const bool in_heap = degree[e.u] > 2 || degree[e.v] > 2;
    const bool cut = in_heap && (rank(e.u, e) + 1 + kept_costlier[e.u] > 2 || rank(e.v, e) + 1 + kept_costlier[e.v] > 2);
    if (cut) continue;
    ++kept_costlier[e.u], ++kept_costlier[e.v];
    kept.push_back(e);
  }
  std::sort(kept.begin(), kept.end(), [](const Edge& a, const Edge& b) { return a.u != b.u ? a.u < b.u : a.v < b.v; });
  return kept;
}

void cut_to_degree_two(int n, std::vector<Edge>& edges) {
  std::vector<int> degree(n, 0);
  for (const Edge& e : edges) ++degree[e.u], ++degree[e.v];
  auto worse = [&](int a, int b) { return cut_later(edges[a], edges[b]); };  // heap order: costliest first
  std::priority_queue<int, std::vector<int>, decltype(worse)> heap(worse);
  for (int k = 0; k < static_cast<int>(edges.size()); ++k)
    if (degree[edges[k].u] > 2 || degree[edges[k].v] > 2) heap.push(k);
  std::vector<char> removed(edges.size(), 0);
  while (!heap.empty()) {
    const int k = heap.top();
    heap.pop();
    const Edge& e = edges[k];
    if (degree[e.u] <= 2 && degree[e.v] <= 2) continue;  // no longer touches an over-linked word
    removed[k] = 1;
    --degree[e.u];
    --degree[e.v];
  }
  std::vector<Edge> kept;
  for (size_t k = 0; k < edges.size(); ++k)
    if (!removed[k]) kept.push_back(edges[k]);
  edges.swap(kept);
}

void cut_cycles(int n, std::vector<Edge>& edges) {
  // Components by union-find; a component of maximum degree 2 with as many links as words is a cycle.
  DisjointSets components(static_cast<size_t>(n));
  auto find = [&](int x) { return static_cast<int>(components.find(static_cast<size_t>(x))); };
  for (const Edge& e : edges) components.join(static_cast<size_t>(e.u), static_cast<size_t>(e.v));
  std::vector<int> words(n, 0), links(n, 0), costliest(n, -1);
  for (int i = 0; i < n; ++i) ++words[find(i)];
  for (int k = 0; k < static_cast<int>(edges.size()); ++k) {
    const int r = find(edges[k].u);
    ++links[r];
    if (costliest[r] < 0 || edges[k].cost > edges[costliest[r]].cost) costliest[r] = k;
  }
  std::vector<char> drop(edges.size(), 0);
  for (int r = 0; r < n; ++r)
    if (links[r] > 0 && links[r] >= words[r]) drop[costliest[r]] = 1;
  std::vector<Edge> kept;
  for (size_t k = 0; k < edges.size(); ++k)
    if (!drop[k]) kept.push_back(edges[k]);
  edges.swap(kept);
}

std::vector<Edge> heuristic_links(const std::vector<WordFeatures>& words, Method method, const CostWeights& w) {
  const int n = static_cast<int>(words.size());
  std::vector<Edge> edges;
  if (method == Method::Mst) {
    edges = mst_edges(words, w);
    cut_to_degree_two(n, edges);
  } else {
    edges = distance_edges_cut_to_degree_two(words);
  }
  cut_cycles(n, edges);  // a tree has none; the distance graph may
  return edges;
}

}  // namespace light::baselines

// The two heuristic linkers of the paper's baselines (Olson et al.):
//   mst:      Prim's minimum spanning tree over all words under the heuristic edge cost (O(n²)),
//             then cut to disjoint paths;
//   distance: link every pair closer than two average character widths of the first word, then cut
//             to disjoint paths and break any remaining cycle.
// Paths become ordered phrases in link/paths.h.
#pragma once
#include <functional>
#include <vector>

#include "light/baselines/features.h"
#include "light/maptext.h"

namespace light::baselines {

struct Edge {
  int u = 0, v = 0;
  double cost = 0.0;
};

enum class Method { Distance, Mst };
Method parse_method(const std::string& name);

// Prim's algorithm from word 0 on the complete graph, as the reference: the next word is the first
// with the smallest key (index order); keys improve on a strict "<". Returns n-1 edges (word, parent).
std::vector<Edge> mst_edges(const std::vector<WordFeatures>& words, const CostWeights& w);

// Pairs (u < v) with side distance D(u, v) <= 2 · max(w_u, h_u) / max(1, characters of u); cost D.
std::vector<Edge> distance_edges(const std::vector<WordFeatures>& words);
// The same pairs, one at a time (in no set order), without holding them: words piled on one spot
// have n² of them.
void for_each_distance_edge(const std::vector<WordFeatures>& words, const std::function<void(const Edge&)>& visit);

// cut_to_degree_two(n, distance_edges(words)), sorted by (u, v), in memory proportional to the
// words: a link survives the cut only if it is among the two cheapest (cut order) of both its words,
// and whether it does depends only on those links and each word's link count, so only they are kept.
std::vector<Edge> distance_edges_cut_to_degree_two(const std::vector<WordFeatures>& words);

// While some word has more than two links, remove the costliest link touching such a word.
// Leaves disjoint paths and (for graphs that had them) simple cycles. Ties: lower word indices first.
void cut_to_degree_two(int n, std::vector<Edge>& edges);

// Breaks every cycle of a graph of maximum degree 2 at its costliest link.
void cut_cycles(int n, std::vector<Edge>& edges);

// Links the words of one tile: features, edges, cuts. Returns undirected path edges.
std::vector<Edge> heuristic_links(const std::vector<WordFeatures>& words, Method method, const CostWeights& w);

}  // namespace light::baselines

// Disjoint sets (union-find with path halving): the groups that items joined pair by pair fall into.
// Lines of one phrase (link/line_alignment), a heuristic's components (baselines/heuristic_links),
// the evaluator's groups of candidate matches, letters in runs (spot/joined_lines).
#pragma once
#include <cstddef>
#include <numeric>
#include <vector>

namespace light {

class DisjointSets {
 public:
  explicit DisjointSets(size_t n) : root_(n) { std::iota(root_.begin(), root_.end(), size_t{0}); }
  size_t size() const { return root_.size(); }
  // The representative of i's set.
  size_t find(size_t i) {
    while (root_[i] != i) i = root_[i] = root_[root_[i]];
    return i;
  }
  // a's set joins b's (its representative becomes b's).
  void join(size_t a, size_t b) { root_[find(a)] = find(b); }
  // Each set's items in order, at its representative's index (the other entries empty).
  std::vector<std::vector<size_t>> groups() {
    std::vector<std::vector<size_t>> out(root_.size());
    for (size_t i = 0; i < root_.size(); ++i) out[find(i)].push_back(i);
    return out;
  }

 private:
  std::vector<size_t> root_;
};

}  // namespace light

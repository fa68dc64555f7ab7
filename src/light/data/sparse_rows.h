// Successor (or predecessor) probabilities of n words as sparse rows: a word's row holds the words of
// the window it was read in, nothing else (every other entry is 0). A whole map of 10,000 words then
// takes megabytes, not the 400 MB of a dense n x n matrix.
#pragma once
#include <algorithm>
#include <utility>
#include <vector>

namespace light::data {

struct SparseRows {
  int n = 0;
  std::vector<std::vector<std::pair<int, float>>> rows;  // per row: (column, value), columns ascending

  explicit SparseRows(int size = 0) : n(size), rows(static_cast<size_t>(size)) {}

  // The entry (i, j); 0 when not stored.
  float at(int i, int j) const {
    const auto& r = rows[static_cast<size_t>(i)];
    const auto it = std::lower_bound(r.begin(), r.end(), std::make_pair(j, -1e30f));
    return it != r.end() && it->first == j ? it->second : 0.0f;
  }
  // A stored entry to change; nullptr when (i, j) is not stored.
  float* find(int i, int j) {
    auto& r = rows[static_cast<size_t>(i)];
    const auto it = std::lower_bound(r.begin(), r.end(), std::make_pair(j, -1e30f));
    return it != r.end() && it->first == j ? &it->second : nullptr;
  }
  // The non-zero entries of a row-major n x n matrix.
  static SparseRows from_dense(const std::vector<float>& m, int size) {
    SparseRows s(size);
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) {
        const float v = m[static_cast<size_t>(i) * static_cast<size_t>(size) + static_cast<size_t>(j)];
        if (v != 0.0f) s.rows[static_cast<size_t>(i)].emplace_back(j, v);
      }
    return s;
  }
};

}  // namespace light::data

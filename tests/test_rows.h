// Helpers shared by the decoding tests: reading frames along a line and successor rows from dense ones.
#pragma once
#include <vector>

#include "light/data/sparse_rows.h"
#include "light/geometry/polygon.h"

namespace light::test {

// A word's reading frame: from (x0, y) to (x1, y) at height h.
inline geometry::ReadingFrame frame(double x0, double x1, double y, double h) { return {{x0, y}, {x1, y}, h}; }

// Sparse rows holding the non-zero entries of `dense` (a square matrix, row by row).
inline data::SparseRows rows(const std::vector<std::vector<float>>& dense) {
  std::vector<float> flat;
  for (const auto& r : dense) flat.insert(flat.end(), r.begin(), r.end());
  return data::SparseRows::from_dense(flat, static_cast<int>(dense.size()));
}

}  // namespace light::test

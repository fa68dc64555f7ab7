// Rectangular linear sum assignment (optimal one-to-one matching), the algorithm that
// scipy.optimize.linear_sum_assignment uses: shortest augmenting paths after Crouse (2016),
// "On implementing 2D rectangular assignment algorithms", IEEE TAES 52(4). It follows the same
// row order, column scan order and tie rules, so ties resolve as scipy resolves them.
#pragma once
#include <utility>
#include <vector>

namespace light::eval {

// cost: row-major nr x nc matrix. Returns min(nr, nc) pairs (row, col), sorted by row, that
// minimise (or, with maximize, maximise) the summed cost. Throws light::Error for NaN entries,
// -inf entries (after the sign flip for maximize) or an infeasible matrix.
std::vector<std::pair<int, int>> linear_sum_assignment(const std::vector<double>& cost, int nr, int nc,
                                                       bool maximize);

}  // namespace light::eval

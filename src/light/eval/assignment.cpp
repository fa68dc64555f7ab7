#include "light/eval/assignment.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "light/error.h"

namespace light::eval {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// One shortest augmenting path from free row i (Crouse's Algorithm 2 with Dijkstra over columns).
// Returns the sink column, or -1 if the matrix is infeasible.
int augmenting_path(int nc, const std::vector<double>& cost, std::vector<double>& u, std::vector<double>& v,
                    std::vector<int>& path, const std::vector<int>& row4col, std::vector<double>& spc, int i,
                    std::vector<char>& SR, std::vector<char>& SC, std::vector<int>& remaining, double* p_min) {
  double min_val = 0.0;
  int num_remaining = nc;
  // Reverse order: a constant matrix then yields the identity (scipy issue #11602).
  for (int it = 0; it < nc; ++it) remaining[it] = nc - it - 1;
  std::fill(SR.begin(), SR.end(), 0);
  std::fill(SC.begin(), SC.end(), 0);
  std::fill(spc.begin(), spc.end(), kInf);

  int sink = -1;
  while (sink == -1) {
    int index = -1;
    double lowest = kInf;
    SR[i] = 1;
    const double* row = cost.data() + static_cast<size_t>(i) * nc;
    for (int it = 0; it < num_remaining; ++it) {
      const int j = remaining[it];
      const double r = min_val + row[j] - u[i] - v[j];
      if (r < spc[j]) {
        path[j] = i;
        spc[j] = r;
      }
      // Among equal minima prefer a free column: it ends the path at once.
      if (spc[j] < lowest || (spc[j] == lowest && row4col[j] == -1)) {
        lowest = spc[j];
        index = it;
      }
    }
    min_val = lowest;
    if (min_val == kInf) return -1;
    const int j = remaining[index];
    if (row4col[j] == -1) {
      sink = j;
    } else {
      i = row4col[j];
    }
    SC[j] = 1;
    remaining[index] = remaining[--num_remaining];
  }
  *p_min = min_val;
  return sink;
}

}  // namespace

std::vector<std::pair<int, int>> linear_sum_assignment(const std::vector<double>& input, int nr, int nc,
                                                       bool maximize) {
  if (static_cast<size_t>(nr) * static_cast<size_t>(nc) != input.size())
    throw Error("linear_sum_assignment: matrix size does not match its shape");
  std::vector<std::pair<int, int>> result;
  if (nr == 0 || nc == 0) return result;

  // A tall matrix is solved transposed.
  const bool transpose = nc < nr;
  std::vector<double> cost(input.size());
  if (transpose) {
    for (int i = 0; i < nr; ++i)
      for (int j = 0; j < nc; ++j) cost[static_cast<size_t>(j) * nr + i] = input[static_cast<size_t>(i) * nc + j];
    std::swap(nr, nc);
  } else {
    cost = input;
  }
  if (maximize)
    for (double& c : cost) c = -c;
  for (double c : cost)
    if (std::isnan(c) || c == -kInf) throw Error("linear_sum_assignment: matrix contains invalid numeric entries");

  std::vector<double> u(nr, 0.0), v(nc, 0.0), spc(nc);
  std::vector<int> path(nc, -1), col4row(nr, -1), row4col(nc, -1), remaining(nc);
  std::vector<char> SR(nr), SC(nc);

  for (int cur = 0; cur < nr; ++cur) {
    double min_val = 0.0;
    const int sink = augmenting_path(nc, cost, u, v, path, row4col, spc, cur, SR, SC, remaining, &min_val);
    if (sink < 0) throw Error("linear_sum_assignment: cost matrix is infeasible");

    u[cur] += min_val;
    for (int i = 0; i < nr; ++i)
      if (SR[i] && i != cur) u[i] += min_val - spc[col4row[i]];
    for (int j = 0; j < nc; ++j)
      if (SC[j]) v[j] -= min_val - spc[j];

    int j = sink;
    while (true) {
      const int i = path[j];
      row4col[j] = i;
      std::swap(col4row[i], j);
      if (i == cur) break;
    }
  }

  result.reserve(nr);
  if (transpose) {
    // Rows of the transposed problem are the original columns; report sorted by original row.
    std::vector<int> order(nr);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return col4row[a] < col4row[b]; });
    for (int k : order) result.emplace_back(col4row[k], k);
  } else {
    for (int i = 0; i < nr; ++i) result.emplace_back(i, col4row[i]);
  }
  return result;
}

}  // namespace light::eval

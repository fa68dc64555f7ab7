#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "light/eval/assignment.h"
#include "light/error.h"

using light::eval::linear_sum_assignment;
using Pairs = std::vector<std::pair<int, int>>;

namespace {
double total(const std::vector<double>& c, int nc, const Pairs& p) {
  double s = 0;
  for (auto [i, j] : p) s += c[static_cast<size_t>(i) * nc + j];
  return s;
}
// Best possible sum by trying every injective map of the smaller side.
double brute_force(const std::vector<double>& c, int nr, int nc, bool maximize) {
  const bool tall = nr > nc;
  const int small = tall ? nc : nr, big = tall ? nr : nc;
  std::vector<int> perm(big);
  std::iota(perm.begin(), perm.end(), 0);
  double best = maximize ? -1e300 : 1e300;
  do {
    double s = 0;
    for (int k = 0; k < small; ++k)
      s += tall ? c[static_cast<size_t>(perm[k]) * nc + k] : c[static_cast<size_t>(k) * nc + perm[k]];
    best = maximize ? std::max(best, s) : std::min(best, s);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}
}  // namespace

TEST(Assignment, SquareTextbookCase) {
  // scipy's documentation example: rows -> cols [1, 0, 2], cost 5.
  const std::vector<double> c{4, 1, 3, 2, 0, 5, 3, 2, 2};
  EXPECT_EQ(linear_sum_assignment(c, 3, 3, false), (Pairs{{0, 1}, {1, 0}, {2, 2}}));
}

TEST(Assignment, WideAndTallMatrices) {
  const std::vector<double> wide{1, 9, 2, 8, 1, 9};  // 2 x 3
  EXPECT_EQ(linear_sum_assignment(wide, 2, 3, false), (Pairs{{0, 0}, {1, 1}}));
  const std::vector<double> tall{9, 1, 1, 9, 5, 5};  // 3 x 2: transposed internally, sorted by row
  EXPECT_EQ(linear_sum_assignment(tall, 3, 2, false), (Pairs{{0, 1}, {1, 0}}));
  EXPECT_EQ(linear_sum_assignment(tall, 3, 2, true), (Pairs{{0, 0}, {1, 1}}));
}

TEST(Assignment, TiesResolveLikeScipy) {
  // A constant matrix gives the identity (scipy #11602), square, wide and tall.
  EXPECT_EQ(linear_sum_assignment(std::vector<double>(9, 1.0), 3, 3, true), (Pairs{{0, 0}, {1, 1}, {2, 2}}));
  EXPECT_EQ(linear_sum_assignment(std::vector<double>(6, 1.0), 2, 3, true), (Pairs{{0, 0}, {1, 1}}));
  EXPECT_EQ(linear_sum_assignment(std::vector<double>(6, 1.0), 3, 2, true), (Pairs{{0, 0}, {1, 1}}));
  // Two rows tie for one column: the first row keeps it, the second takes its other option.
  const std::vector<double> c{1, 1, -1, 1};
  EXPECT_EQ(linear_sum_assignment(c, 2, 2, true), (Pairs{{0, 0}, {1, 1}}));
}

TEST(Assignment, NonAllowedPairsFillTheRest) {
  // The evaluator scores forbidden pairs -1: the matching stays maximal and callers filter them.
  const std::vector<double> c{0.8, -1, -1, -1, -1, 0.6};  // 2 x 3
  EXPECT_EQ(linear_sum_assignment(c, 2, 3, true), (Pairs{{0, 0}, {1, 2}}));
  const std::vector<double> none{-1, -1, -1, -1};
  EXPECT_EQ(linear_sum_assignment(none, 2, 2, true).size(), 2u);
}

TEST(Assignment, OptimalOnRandomMatrices) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 300; ++trial) {
    const int nr = 1 + rng() % 6, nc = 1 + rng() % 6;
    std::vector<double> c(static_cast<size_t>(nr) * nc);
    for (double& x : c) x = (rng() % 3 == 0) ? -1.0 : std::round(u(rng) * 8) / 8;  // many ties
    for (bool maximize : {false, true}) {
      const Pairs p = linear_sum_assignment(c, nr, nc, maximize);
      ASSERT_EQ(p.size(), static_cast<size_t>(std::min(nr, nc)));
      std::vector<char> used_r(nr), used_c(nc);
      for (auto [i, j] : p) {
        ASSERT_FALSE(used_r[i] || used_c[j]);
        used_r[i] = used_c[j] = 1;
      }
      EXPECT_TRUE(std::is_sorted(p.begin(), p.end()));
      EXPECT_NEAR(total(c, nc, p), brute_force(c, nr, nc, maximize), 1e-9);
    }
  }
}

TEST(Assignment, EmptyAndInvalid) {
  EXPECT_TRUE(linear_sum_assignment({}, 0, 5, true).empty());
  EXPECT_TRUE(linear_sum_assignment({}, 3, 0, true).empty());
  EXPECT_THROW(linear_sum_assignment({1, std::nan("")}, 1, 2, false), light::Error);
  EXPECT_THROW(linear_sum_assignment({1, std::numeric_limits<double>::infinity()}, 1, 2, true), light::Error);
  EXPECT_THROW(linear_sum_assignment({1, 2, 3}, 2, 2, true), light::Error);
}

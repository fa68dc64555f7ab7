#include <gtest/gtest.h>

#include <vector>

#include "light/eval/python_sums.h"

using namespace light::eval;

TEST(PyNum, HarmonicMeanMatchesPythonStatistics) {
  // Values printed by CPython 3.11's statistics.harmonic_mean.
  EXPECT_EQ(harmonic_mean({0.5, 1.0, 0.3}), 0.47368421052631576);
  EXPECT_EQ(harmonic_mean({0.0, 1.0}), 0.0);
  EXPECT_EQ(harmonic_mean({0.7}), 0.7);
  // The official evaluator's hmeans on the bundled example (expected_metrics.json).
  EXPECT_EQ(harmonic_mean({0.875, 1.0, 0.7915550491751623, 0.8067226890756303, 0.3333333333333333, 1.0}),
            0.6939804663478768);
  EXPECT_EQ(harmonic_mean({0.875, 1.0, 0.7915550491751623}), 0.8807486430193963);
  EXPECT_EQ(harmonic_mean({0.875, 1.0, 0.3333333333333333, 1.0}), 0.6511627906976745);
}

TEST(PyNum, NumpySumUsesPairwiseBlocks) {
  // Below 8 terms numpy adds left to right.
  EXPECT_EQ(numpy_sum({0.1, 0.2, 0.3}), (0.1 + 0.2) + 0.3);
  // From 8 terms it keeps 8 partial sums: 1e16 + 1 + ... differs from a left-to-right sum.
  std::vector<double> x{1e16, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -1e16};
  double r[8];
  for (int k = 0; k < 8; ++k) r[k] = x[k];
  const double expected = (((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])) + x[8]) + x[9];
  EXPECT_EQ(numpy_sum(x), 0.0 + expected);
  EXPECT_EQ(numpy_sum(x), 8.0);
  EXPECT_NE(python_sum(x), numpy_sum(x));  // left to right loses the ones
  EXPECT_EQ(numpy_sum(std::vector<double>{}), 0.0);
}

TEST(PyNum, RatioIsZeroWithoutDenominator) {
  EXPECT_EQ(ratio(3.0, 0.0), 0.0);
  EXPECT_EQ(ratio(3.0, 4.0), 0.75);
}

// Floating-point sums exactly as the official (Python/numpy) evaluator forms them, so that printed
// metrics agree to the last digit, not only to a tolerance.
#pragma once
#include <cstddef>
#include <vector>

namespace light::eval {

// numpy.sum of a contiguous float64 array: 0.0 + pairwise sum (8-way unrolled blocks of <= 128).
double numpy_sum(const double* x, size_t n);
inline double numpy_sum(const std::vector<double>& x) { return numpy_sum(x.data(), x.size()); }

// Python's builtin sum() of floats before 3.12: left to right from 0.
double python_sum(const std::vector<double>& x);

// statistics.harmonic_mean: 0 if any value is 0; n / (exact sum of the float reciprocals),
// rounded once; a single value is returned as is. Values must be >= 0.
double harmonic_mean(const std::vector<double>& x);

// Python's `a / b if b > 0 else 0.0` for the metric ratios.
inline double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

}  // namespace light::eval

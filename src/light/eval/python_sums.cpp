#include "light/eval/python_sums.h"

#include <cmath>

namespace light::eval {

namespace {

double pairwise(const double* a, size_t n) {
  if (n < 8) {
    double res = 0.0;
    for (size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (int k = 0; k < 8; ++k) r[k] = a[k];
    size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int k = 0; k < 8; ++k) r[k] += a[i + k];
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  size_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise(a, n2) + pairwise(a + n2, n - n2);
}

// Error-free transformation: a + b = s + e exactly.
inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

}  // namespace

double numpy_sum(const double* x, size_t n) { return 0.0 + pairwise(x, n); }

double python_sum(const std::vector<double>& x) {
  double s = 0.0;
  for (double v : x) s += v;
  return s;
}

double harmonic_mean(const std::vector<double>& x) {
  if (x.empty()) return 0.0;
  if (x.size() == 1) return x[0];
  // Sum of reciprocals as a double-double (exact for these few, similar-sized terms).
  double hi = 0.0, lo = 0.0;
  for (double v : x) {
    if (v == 0.0) return 0.0;
    double s, e;
    two_sum(hi, 1.0 / v, s, e);
    hi = s;
    lo += e;
  }
  double s, e;
  two_sum(hi, lo, s, e);
  hi = s;
  lo = e;
  // n / (hi + lo), with one correction step of the quotient.
  const double n = static_cast<double>(x.size());
  double q = n / hi;
  const double r = std::fma(-q, hi, n) - q * lo;
  q += r / hi;
  return q;
}

}  // namespace light::eval

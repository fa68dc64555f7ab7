#include "light/text/ctc_likelihood.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace light::text {

namespace {

constexpr double kNone = -std::numeric_limits<double>::infinity();

double log_add(double a, double b) {
  if (a == kNone) return b;
  if (b == kNone) return a;
  const double m = std::max(a, b);
  return m + std::log1p(std::exp(-std::abs(a - b)));
}

}  // namespace

double ctc_log_likelihood(const std::vector<float>& log_probs, int steps, int classes, const std::vector<int>& label) {
  if (steps < 0 || classes < 1 || log_probs.size() != static_cast<size_t>(steps) * static_cast<size_t>(classes))
    throw std::invalid_argument("ctc_log_likelihood: log_probs is not steps x classes");
  for (int c : label)
    if (c <= 0 || c >= classes)
      throw std::invalid_argument(
          "ctc_log_likelihood: a label column is the "
          "blank or past the classes");
  if (steps == 0) return label.empty() ? 0.0 : kNone;
  // The extended label: a blank before, between and after the characters.
  const size_t n = 2 * label.size() + 1;
  std::vector<int> ext(n, 0);
  for (size_t k = 0; k < label.size(); ++k) ext[2 * k + 1] = label[k];
  std::vector<double> alpha(n, kNone), next(n, kNone);
  const auto at = [&](int t, int c) { return static_cast<double>(log_probs[static_cast<size_t>(t) * classes + c]); };
  alpha[0] = at(0, 0);
  if (n > 1) alpha[1] = at(0, ext[1]);
  for (int t = 1; t < steps; ++t) {
    for (size_t s = 0; s < n; ++s) {
      double a = alpha[s];
      if (s >= 1) a = log_add(a, alpha[s - 1]);
      // Skipping the blank between two characters, unless they are the same one.
      if (s >= 2 && ext[s] != 0 && ext[s] != ext[s - 2]) a = log_add(a, alpha[s - 2]);
      next[s] = a == kNone ? kNone : a + at(t, ext[s]);
    }
    alpha.swap(next);
  }
  return n > 1 ? log_add(alpha[n - 1], alpha[n - 2]) : alpha[0];
}

}  // namespace light::text

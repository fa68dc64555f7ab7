#include "light/eval/edit_distance.h"

#include <algorithm>
#include <vector>

#include "light/util/utf8.h"

namespace light::eval {

size_t levenshtein(const std::u32string& a, const std::u32string& b) {
  if (a.size() < b.size()) return levenshtein(b, a);
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({up + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

double normalized_levenshtein(const std::string& a, const std::string& b) {
  if (a == b) return 0.0;
  const std::u32string ua = utf8_decode(a), ub = utf8_decode(b);
  const size_t d = levenshtein(ua, ub);
  if (d == 0) return 0.0;
  return 2.0 * static_cast<double>(d) / static_cast<double>(ua.size() + ub.size() + d);
}

std::string within_edits(const std::string& key, const std::vector<std::string>& known, size_t edits) {
  const std::u32string k = utf8_decode(key);
  for (const std::string& candidate : known)
    if (levenshtein(k, utf8_decode(candidate)) <= edits) return candidate;
  return "";
}

}  // namespace light::eval

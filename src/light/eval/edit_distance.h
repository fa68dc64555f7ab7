// Edit distances over Unicode code points (as Python strings count characters).
#pragma once
#include <string>
#include <vector>

namespace light::eval {

// Plain Levenshtein distance (unit insert, delete, substitute) between two code-point strings.
size_t levenshtein(const std::u32string& a, const std::u32string& b);

// Yujian–Bo normalised edit distance, as pyeditdistance's normalized_levenshtein used by the
// official evaluator: 2d / (|a| + |b| + d), 0 when d = 0. Inputs are UTF-8.
double normalized_levenshtein(const std::string& a, const std::string& b);

// The first of `known` within `edits` edits of `key` (UTF-8), or "": the key a misspelt one meant.
std::string within_edits(const std::string& key, const std::vector<std::string>& known, size_t edits = 2);

}  // namespace light::eval

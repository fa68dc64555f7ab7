#include <gtest/gtest.h>

#include "light/eval/edit_distance.h"
#include "light/util/utf8.h"

using light::eval::levenshtein;
using light::eval::normalized_levenshtein;

TEST(EditDistance, Levenshtein) {
  EXPECT_EQ(levenshtein(U"kitten", U"sitting"), 3u);
  EXPECT_EQ(levenshtein(U"", U"abc"), 3u);
  EXPECT_EQ(levenshtein(U"abc", U""), 3u);
  EXPECT_EQ(levenshtein(U"flaw", U"lawn"), 2u);
  EXPECT_EQ(levenshtein(U"same", U"same"), 0u);
}

// Pairs of the bundled MapText example (docs/reference-notes.md §6): NED = 2d / (|a| + |b| + d).
TEST(EditDistance, YujianBoOnTheExamplePairs) {
  EXPECT_DOUBLE_EQ(normalized_levenshtein("Smith's", "Siniths"), 6.0 / 17.0);  // d = 3
  EXPECT_DOUBLE_EQ(normalized_levenshtein("Cr.", "Cr"), 1.0 / 3.0);            // d = 1
  EXPECT_DOUBLE_EQ(normalized_levenshtein("Water", "Hiter"), 1.0 / 3.0);       // d = 2
  EXPECT_DOUBLE_EQ(normalized_levenshtein("40", "400"), 1.0 / 3.0);
  EXPECT_EQ(normalized_levenshtein("Fork", "Fork"), 0.0);
}

TEST(EditDistance, EdgeCases) {
  EXPECT_EQ(normalized_levenshtein("", ""), 0.0);
  EXPECT_DOUBLE_EQ(normalized_levenshtein("", "ab"), 1.0);  // d = 2: 4 / 4
  EXPECT_DOUBLE_EQ(normalized_levenshtein("a", "b"), 2.0 / 3.0);
}

TEST(EditDistance, CountsUnicodeCodePoints) {
  // One substitution over 6 code points each (bytes would give 7 + 6).
  EXPECT_DOUBLE_EQ(normalized_levenshtein("Zürich", "Zurich"), 2.0 / 13.0);
  EXPECT_DOUBLE_EQ(normalized_levenshtein("北京市", "北京"), 2.0 / 6.0);
}

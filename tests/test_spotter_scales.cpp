// The spotter's readings at more than one scale (spot/spotter.cpp enlarged_lines): lettering the
// enlarged reading misses, found by a second reading at a share of the enlargement.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "light/image/resize.h"
#include "light/spot/spotter.h"
#include "test_util.h"

namespace {

// The word read as `text` whose outline's top left lies within 6 px of (x, y), if any.
bool has_word(const std::vector<light::spot::SpottedWord>& words, const std::string& text, double x, double y) {
  return std::any_of(words.begin(), words.end(), [&](const light::spot::SpottedWord& w) {
    double left = 1e9, top = 1e9;
    for (const auto& p : w.polygon) left = std::min(left, p.x), top = std::min(top, p.y);
    return w.text == text && std::abs(left - x) < 6 && std::abs(top - y) < 6;
  });
}

}  // namespace

TEST(Spotter, ReadsAgainAtASecondScaleAndAddsTheLinesTheEnlargedReadingMissed) {
  // A crop of the 1939 Sanborn sheet (dev split): a court building's 9 px capitals in three lines,
  // "APPELLATE DIV'N OF THE SUPREME" / "COURT FOR THE 2ND DEPT OF THE" / "STATE OF N.Y.". Read
  // enlarged for its median line alone, the second line is not found; read again at 0.6 of that
  // enlargement, it is ("COURT" at 165, 11; "DEPT" at 220, 10), and nothing found before is lost.
  const auto img = light::image::read_rgb(light::test::source_path("tests/data/spot/sanborn-court-crop.jpg"));
  light::spot::SpotOptions once;
  once.second_scale = 0;
  const auto alone = light::spot::Spotter(light::test::released_detector_spotter(), {}, once).spot(img);
  light::spot::SpotOptions twice = once;
  twice.second_scale = 0.6;
  const auto both = light::spot::Spotter(light::test::released_detector_spotter(), {}, twice).spot(img);
  EXPECT_FALSE(has_word(alone, "COURT", 165, 11));
  EXPECT_FALSE(has_word(alone, "DEPT", 220, 10));
  EXPECT_TRUE(has_word(both, "COURT", 165, 11));
  EXPECT_TRUE(has_word(both, "DEPT", 220, 10));
  EXPECT_TRUE(has_word(alone, "PIERREPONT", 120, 201));  // a street name read turned, either way
  for (const auto& w : alone) {
    const double x = std::min_element(w.polygon.begin(), w.polygon.end(), [](auto& a, auto& b) { return a.x < b.x; })->x;
    const double y = std::min_element(w.polygon.begin(), w.polygon.end(), [](auto& a, auto& b) { return a.y < b.y; })->y;
    EXPECT_TRUE(has_word(both, w.text, x, y)) << w.text;
  }
  EXPECT_GT(both.size(), alone.size() + 5);
}

// A spotted word's polygon fitted across to its lettering (spot/ink_extent): the ink's extent with a
// capital and a descender, lines crossing or running along left out, the word's own frame when it is
// turned, no fit where there is no clear ink.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include <cmath>
#include <vector>

#include "light/spot/ink_extent.h"
#include "test_util.h"

namespace {

using light::maptext::Point;
using light::spot::AcrossExtent;

// Paper 300 x 200; a word given as the box x 50-250, y 40-140 (100 px high: the detector's line box,
// too high). Its lettering: five letters of x-height (y 80-120), a capital from y 65, a descender to
// y 130 (ink rows 65-129). Expected extent, as fractions of the box from its upper edge: the ink
// (0.25-0.90) and a margin of 1 px + 6 % of the ink's height (0.049) each side: 0.201-0.949.
cv::Mat lettered(bool rule_along, bool line_across) {
  cv::Mat m(200, 300, CV_8UC3, cv::Scalar(230, 225, 210));
  const cv::Scalar ink(40, 35, 30);
  for (int k = 0; k < 7; ++k) {
    const int x = 58 + k * 27 + (k >= 4 ? 12 : 0);  // a wider gap between the 4th and 5th letters
    const int top = k == 0 ? 65 : 80, bottom = k == 5 ? 130 : 120;
    cv::rectangle(m, cv::Rect(x, top, 16, bottom - top), ink, cv::FILLED);
  }
  if (rule_along) cv::line(m, {30, 55}, {270, 55}, ink, 3);     // a road's edge just above the word
  if (line_across) cv::line(m, {163, 0}, {168, 199}, ink, 2);   // a line crossing the word in that gap
  return m;
}

light::image::RgbImage rgb(const cv::Mat& m) {
  light::image::RgbImage img;
  img.width = m.cols, img.height = m.rows;
  img.rgb.assign(m.data, m.data + m.total() * 3);
  return img;
}

std::vector<Point> box(double x0, double y0, double x1, double y1) { return light::test::upright_polygon16(x0, y0, x1, y1); }

}  // namespace

TEST(InkExtent, FitsAWordsEdgesToItsLetteringCapitalAndDescenderIncluded) {
  const auto e = light::spot::ink_extent(rgb(lettered(false, false)), box(50, 40, 250, 140));
  ASSERT_TRUE(e.has_value());
  // The strip is read at 64 rows for 1.6 heights: 2.5 px a row.
  EXPECT_NEAR(e->top, 0.201, 0.03);
  EXPECT_NEAR(e->bottom, 0.949, 0.03);
  const auto fitted = light::spot::fit_to_ink(rgb(lettered(false, false)), box(50, 40, 250, 140));
  ASSERT_EQ(fitted.size(), 16u);
  for (int k = 0; k < 8; ++k) {
    EXPECT_NEAR(fitted[k].y, 40 + 100 * e->bottom, 1e-9);     // the lower edge
    EXPECT_NEAR(fitted[15 - k].y, 40 + 100 * e->top, 1e-9);   // the upper edge
    EXPECT_NEAR(fitted[k].x, 50 + 200.0 * k / 7, 1e-9);       // along: unchanged
  }
}

TEST(InkExtent, LeavesOutARuleAlongTheWordAndALineCrossingIt) {
  const auto plain = light::spot::ink_extent(rgb(lettered(false, false)), box(50, 40, 250, 140));
  const auto busy = light::spot::ink_extent(rgb(lettered(true, true)), box(50, 40, 250, 140));
  ASSERT_TRUE(plain && busy);
  EXPECT_NEAR(busy->top, plain->top, 1e-9);
  EXPECT_NEAR(busy->bottom, plain->bottom, 1e-9);
}

TEST(InkExtent, TakesOutARuleJoinedToTheLettersAndToTheNextLinesLetters) {
  // A street's edge under the word touching its descender (rows 130-132), and below it the next
  // line's letters hanging from it off the strip's bottom: kept, the rule would carry the descender's
  // letter off with the next line, and the fit would end at the x-height.
  cv::Mat m = lettered(false, false);
  const cv::Scalar ink(40, 35, 30);
  cv::line(m, {30, 131}, {270, 131}, ink, 3);
  for (int x = 70; x <= 240; x += 40) cv::rectangle(m, cv::Rect(x, 133, 16, 67), ink, cv::FILLED);
  const auto plain = light::spot::ink_extent(rgb(lettered(false, false)), box(50, 40, 250, 140));
  light::spot::InkExtentOptions kept;
  kept.rule_length = 0;
  const auto with_rule = light::spot::ink_extent(rgb(m), box(50, 40, 250, 140), kept);
  const auto without = light::spot::ink_extent(rgb(m), box(50, 40, 250, 140));
  ASSERT_TRUE(plain && with_rule && without);
  EXPECT_LT(with_rule->bottom, plain->bottom - 0.05);
  EXPECT_NEAR(without->top, plain->top, 0.01);
  EXPECT_NEAR(without->bottom, plain->bottom, 0.04);
}

TEST(InkExtent, FitsATurnedWordInItsOwnFrame) {
  // The sheet turned 30 degrees about (150, 100), the box with it.
  const cv::Mat m = lettered(false, false);
  cv::Mat big(400, 400, CV_8UC3, cv::Scalar(230, 225, 210));
  m.copyTo(big(cv::Rect(50, 100, 300, 200)));
  const cv::Mat r = cv::getRotationMatrix2D({200, 200}, -30, 1.0);  // clockwise in the image: the word runs down-right
  cv::Mat turned;
  cv::warpAffine(big, turned, r, big.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  std::vector<Point> poly = box(100, 140, 300, 240);
  for (auto& p : poly) p = {r.at<double>(0, 0) * p.x + r.at<double>(0, 1) * p.y + r.at<double>(0, 2),
                            r.at<double>(1, 0) * p.x + r.at<double>(1, 1) * p.y + r.at<double>(1, 2)};
  const auto e = light::spot::ink_extent(rgb(turned), poly);
  ASSERT_TRUE(e.has_value());
  EXPECT_NEAR(e->top, 0.201, 0.04);
  EXPECT_NEAR(e->bottom, 0.949, 0.04);
}

TEST(InkExtent, GivesNoFitOnBlankPaperOrFaintMarks) {
  cv::Mat blank(200, 300, CV_8UC3, cv::Scalar(230, 225, 210));
  EXPECT_FALSE(light::spot::ink_extent(rgb(blank), box(50, 40, 250, 140)).has_value());
  cv::Mat faint = blank.clone();
  cv::rectangle(faint, cv::Rect(60, 80, 120, 40), cv::Scalar(205, 200, 190), cv::FILLED);  // 25 grey levels: under min_contrast
  EXPECT_FALSE(light::spot::ink_extent(rgb(faint), box(50, 40, 250, 140)).has_value());
  const std::vector<Point> given = box(50, 40, 250, 140);
  EXPECT_EQ(light::spot::fit_to_ink(rgb(blank), given).size(), given.size());
  EXPECT_EQ(light::spot::fit_to_ink(rgb(blank), given)[3].y, given[3].y);
}

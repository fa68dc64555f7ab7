// Letters standing alone looked for in the ink (spot/lone_glyphs): which marks are candidates, and
// the polygon of a letter the detector found shrunken.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include <string>
#include <vector>

#include "light/spot/lone_glyphs.h"
#include "light/spot/text_boxes.h"

namespace {

using light::spot::InkMark;
using light::spot::TextBox;

// Paper 400 x 300 with: a "B" alone, the word "Main" (its letters side by side), a "C" under a line
// the detector found, a solid block and a long rule (line work).
struct Sheet {
  light::image::RgbImage image;
  cv::Rect b, c;  // the ink's bounds of the lone "B" and "C"
  TextBox line_over_c;
};

cv::Rect ink_bounds(const cv::Mat& m, const cv::Rect& area) {
  cv::Mat grey, dark;
  cv::cvtColor(m(area), grey, cv::COLOR_RGB2GRAY);
  cv::threshold(grey, dark, 200, 255, cv::THRESH_BINARY_INV);  // 25 grey levels under the paper: ink as ink_marks sees it
  cv::Rect r = cv::boundingRect(dark);
  return r + area.tl();
}

Sheet sheet() {
  cv::Mat m(300, 400, CV_8UC3, cv::Scalar(235, 225, 205));
  const cv::Scalar ink(40, 30, 20);
  cv::putText(m, "B", {60, 100}, cv::FONT_HERSHEY_SIMPLEX, 1.2, ink, 3, cv::LINE_AA);
  cv::putText(m, "Main", {200, 100}, cv::FONT_HERSHEY_SIMPLEX, 1.2, ink, 3, cv::LINE_AA);
  cv::putText(m, "C", {60, 240}, cv::FONT_HERSHEY_SIMPLEX, 1.2, ink, 3, cv::LINE_AA);
  cv::rectangle(m, cv::Rect(320, 200, 30, 30), ink, cv::FILLED);
  cv::line(m, {150, 280}, {390, 150}, ink, 2);
  Sheet s;
  s.b = ink_bounds(m, cv::Rect(50, 60, 50, 50));
  s.c = ink_bounds(m, cv::Rect(50, 200, 50, 50));
  s.line_over_c.corners = light::spot::reading_corners(s.c.x + s.c.width / 2.0, s.c.y + s.c.height / 2.0, 3 * s.c.width, 1.4 * s.c.height, 0);
  s.image.width = m.cols;
  s.image.height = m.rows;
  s.image.rgb.assign(m.data, m.data + m.total() * 3);
  return s;
}

}  // namespace

TEST(LoneGlyphs, ALetterAloneIsACandidateButNotTheLettersOfAWordALetterUnderALineOrLineWork) {
  const Sheet s = sheet();
  const std::vector<InkMark> marks = light::spot::ink_marks(s.image);
  // Letter-shaped marks: B, C and the four of "Main" ("i" and its dot are one mark no more than
  // the block or the rule are: too thin, too short or too full).
  int alone = 0;
  for (const InkMark& m : marks) alone += m.alone;
  EXPECT_EQ(alone, 2);  // B and C
  const std::vector<TextBox> found = light::spot::lone_glyphs(marks, {s.line_over_c});
  ASSERT_EQ(found.size(), 1u);
  const TextBox& b = found[0];
  // The B's ink grown by a tenth of its height on every side, read left to right.
  const double g = 0.1 * s.b.height;
  EXPECT_NEAR(b.corners[0].x, s.b.x - g, 1.0);
  EXPECT_NEAR(b.corners[0].y, s.b.y - g, 1.0);
  EXPECT_NEAR(b.corners[2].x, s.b.x + s.b.width + g, 1.0);
  EXPECT_NEAR(b.corners[2].y, s.b.y + s.b.height + g, 1.0);
  // Without the line, the C is one too.
  EXPECT_EQ(light::spot::lone_glyphs(marks, {}).size(), 2u);
}

TEST(LoneGlyphs, ALetterTheDetectorFoundShrunkenTakesItsInksBoxAndNothingElseDoes) {
  const Sheet s = sheet();
  const std::vector<InkMark> marks = light::spot::ink_marks(s.image);
  TextBox shrunken;  // half the B's size about its centre
  shrunken.corners = light::spot::reading_corners(s.b.x + s.b.width / 2.0, s.b.y + s.b.height / 2.0, s.b.width / 2.0, s.b.height / 2.0, 0);
  const auto on = light::spot::on_its_mark(shrunken, marks);
  ASSERT_TRUE(on.has_value());
  EXPECT_NEAR(on->height(), 1.2 * s.b.height, 1.0);
  EXPECT_NEAR(on->length(), s.b.width + 0.2 * s.b.height, 1.0);
  TextBox paper;  // bare paper
  paper.corners = light::spot::reading_corners(150, 200, 20, 20, 0);
  EXPECT_FALSE(light::spot::on_its_mark(paper, marks).has_value());
  TextBox huge;  // a box over the B four times its height: the B is not what it stands on
  huge.corners = light::spot::reading_corners(s.b.x + s.b.width / 2.0, s.b.y + s.b.height / 2.0, 4 * s.b.height, 4 * s.b.height, 0);
  EXPECT_FALSE(light::spot::on_its_mark(huge, marks).has_value());
}

TEST(LoneGlyphs, AMarkWhereTheImageIsReadInTwoWindowsIsFoundOnceAndWhole) {
  // 4,400 px wide: read in three windows; one "B" across the first window's edge (x 2,048), one near
  // the image's far end.
  cv::Mat m(200, 4400, CV_8UC3, cv::Scalar(235, 225, 205));
  const cv::Scalar ink(40, 30, 20);
  cv::putText(m, "B", {2035, 100}, cv::FONT_HERSHEY_SIMPLEX, 1.2, ink, 3, cv::LINE_AA);
  cv::putText(m, "B", {4300, 100}, cv::FONT_HERSHEY_SIMPLEX, 1.2, ink, 3, cv::LINE_AA);
  light::image::RgbImage image;
  image.width = m.cols;
  image.height = m.rows;
  image.rgb.assign(m.data, m.data + m.total() * 3);
  const std::vector<InkMark> marks = light::spot::ink_marks(image);
  ASSERT_EQ(marks.size(), 2u);
  const cv::Rect first = ink_bounds(m, cv::Rect(2025, 60, 50, 50)), second = ink_bounds(m, cv::Rect(4290, 60, 50, 50));
  ASSERT_LT(first.x, 2048);
  ASSERT_GT(first.x + first.width, 2048);
  const InkMark& a = marks[0].x < marks[1].x ? marks[0] : marks[1];
  const InkMark& b = marks[0].x < marks[1].x ? marks[1] : marks[0];
  EXPECT_EQ(a.height, second.height);  // the same letter drawn twice: one height
  EXPECT_NEAR(a.x, first.x, 1);
  EXPECT_NEAR(a.width, first.width, 2);
  EXPECT_NEAR(b.x, second.x, 1);
  EXPECT_TRUE(a.alone && b.alone);
}

TEST(LoneGlyphs, AtMostSoManyCandidatesForEverySquareOfTheImageTheLargestFirst) {
  std::vector<InkMark> marks;
  for (int k = 0; k < 5; ++k) marks.push_back(InkMark{100 * k, 0, 20, 40 - k, true});  // sorted by height, as ink_marks gives them
  light::spot::LoneGlyphOptions o;
  o.max_candidates = 2;
  auto found = light::spot::lone_glyphs(marks, {}, o);  // one 2,048 px square at least
  ASSERT_EQ(found.size(), 2u);
  EXPECT_NEAR(found[1].height(), 39 * 1.2, 1e-9);
  EXPECT_EQ(light::spot::lone_glyphs(marks, {}, o, 2.5 * 2048 * 2048).size(), 5u);  // three squares: six
  EXPECT_EQ(light::spot::lone_glyphs(marks, {}, o, 1.5 * 2048 * 2048).size(), 4u);  // two squares: four
}

// A short word's direction found in its ink (spot/baseline): "St." turned 15 degrees inside a level
// box is read at 15 degrees, upside down too, and in a box much larger than its ink; nothing where
// the box's direction is already right, where there is no ink, one letter, or a letter below the line.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include <cmath>
#include <optional>

#include "light/spot/baseline.h"

namespace {

using light::spot::TextBox;

constexpr double kDeg = M_PI / 180;

light::image::RgbImage rgb(const cv::Mat& m) {
  light::image::RgbImage img;
  img.width = m.cols, img.height = m.rows;
  img.rgb.assign(m.data, m.data + m.total() * 3);
  return img;
}

// `text` lettered about (200, 200) on 400 x 400 px of paper (Hershey simplex, letters some 36 px
// high), turned by `degrees` (positive: its reading direction runs down the image), and a street's
// edge under it that runs off the page when `street`.
cv::Mat lettered(const std::string& text, double degrees, bool street = false) {
  cv::Mat m(400, 400, CV_8UC3, cv::Scalar(228, 222, 205));
  int base = 0;
  const cv::Size size = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, 1.5, 3, &base);
  cv::putText(m, text, {200 - size.width / 2, 200 + size.height / 2}, cv::FONT_HERSHEY_SIMPLEX, 1.5, cv::Scalar(40, 35, 30), 3, cv::LINE_AA);
  if (street) cv::line(m, {0, 245}, {399, 245}, cv::Scalar(40, 35, 30), 2);
  const cv::Mat r = cv::getRotationMatrix2D({200, 200}, -degrees, 1.0);
  cv::Mat turned;
  cv::warpAffine(m, turned, r, m.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  return turned;
}

// A box about (200, 200), `length` along and `height` across, reading along `degrees`.
TextBox box_at(double length, double height, double degrees) {
  TextBox b;
  b.corners = {light::maptext::Point{200 - length / 2, 200 - height / 2}, light::maptext::Point{200 + length / 2, 200 - height / 2},
               light::maptext::Point{200 + length / 2, 200 + height / 2}, light::maptext::Point{200 - length / 2, 200 + height / 2}};
  return b.turned_to(degrees * kDeg);
}

}  // namespace

TEST(Baseline, TurnsALevelBoxToTheDirectionItsLettersStandAlong) {
  for (const double degrees : {15.0, -22.0}) {
    const auto angle = light::spot::baseline_direction(rgb(lettered("St.", degrees)), box_at(90, 70, 0), "St.");
    ASSERT_TRUE(angle.has_value()) << degrees;
    EXPECT_NEAR(*angle / kDeg, degrees, 2.5);
  }
  // A street's edge under the word runs off the ink looked at: it is no letter.
  const auto with_street = light::spot::baseline_direction(rgb(lettered("St.", 15, true)), box_at(90, 70, 0), "St.");
  ASSERT_TRUE(with_street.has_value());
  EXPECT_NEAR(*with_street / kDeg, 15, 2.5);
}

TEST(Baseline, ReadsAWordUpsideDownInItsOwnFrame) {
  // Turned 195 degrees: read from right to left, its letters' feet towards the top of the image.
  const auto angle = light::spot::baseline_direction(rgb(lettered("Co.", 195)), box_at(90, 70, 180), "Co.");
  ASSERT_TRUE(angle.has_value());
  EXPECT_NEAR(std::remainder(*angle / kDeg - 195, 360), 0, 2.5);
}

TEST(Baseline, KeepsTheBoxWhereItsDirectionIsRightOrTheInkSaysNothing) {
  EXPECT_FALSE(light::spot::baseline_direction(rgb(lettered("St.", 0)), box_at(90, 70, 0), "St.").has_value());
  EXPECT_FALSE(light::spot::baseline_direction(rgb(lettered("St.", 15)), box_at(90, 70, 15), "St.").has_value());
  const cv::Mat blank(400, 400, CV_8UC3, cv::Scalar(228, 222, 205));
  EXPECT_FALSE(light::spot::baseline_direction(rgb(blank), box_at(90, 70, 0), "St.").has_value());
  // One letter has no line to stand on; "y" and "p" reach below it.
  EXPECT_FALSE(light::spot::baseline_direction(rgb(lettered("S", 15)), box_at(50, 70, 0), "S").has_value());
  EXPECT_FALSE(light::spot::baseline_direction(rgb(lettered("Ry.", 15)), box_at(90, 70, 0), "Ry.").has_value());
}

TEST(Baseline, TurnsABoxAboutItsCentreKeepingItsSize) {
  const TextBox b = box_at(90, 70, 0);
  const TextBox t = b.turned_to(30 * kDeg);
  EXPECT_NEAR(t.length(), 90, 1e-9);
  EXPECT_NEAR(t.height(), 70, 1e-9);
  EXPECT_NEAR((t.corners[0].x + t.corners[2].x) / 2, 200, 1e-9);
  EXPECT_NEAR((t.corners[0].y + t.corners[2].y) / 2, 200, 1e-9);
  EXPECT_NEAR(std::atan2(t.corners[1].y - t.corners[0].y, t.corners[1].x - t.corners[0].x) / kDeg, 30, 1e-9);
  // "Down" stays to the right of the reading direction, as the detector's boxes have it.
  EXPECT_GT((t.corners[3].x - t.corners[0].x) * -std::sin(30 * kDeg) + (t.corners[3].y - t.corners[0].y) * std::cos(30 * kDeg), 0);
}

TEST(Baseline, TurnsAWordOfTwoLetters) {
  for (const char* text : {"St", "Co", "Mt"}) {
    const auto angle = light::spot::baseline_direction(rgb(lettered(text, 15)), box_at(90, 70, 0), text);
    ASSERT_TRUE(angle.has_value()) << text;
    EXPECT_NEAR(*angle / kDeg, 15, 2.5) << text;
  }
}

TEST(Baseline, FindsASmallWordsInkAmongMuchPaper) {
  // A box larger than the word: the paper about it is most of what is looked at.
  const auto angle = light::spot::baseline_direction(rgb(lettered("St.", 15)), box_at(110, 90, 0), "St.");
  ASSERT_TRUE(angle.has_value());
  EXPECT_NEAR(*angle / kDeg, 15, 2.5);
}

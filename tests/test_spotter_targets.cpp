// What the spotter's models learn from (torch-free): a phrase's text lines, their polygons, and the
// detector's shrunk word regions.
#include <gtest/gtest.h>

#include <cmath>

#include "light/data/detector_targets.h"
#include "light/data/text_lines.h"
#include "test_util.h"

using light::maptext::Point;
namespace data = light::data;

namespace {
std::vector<Point> box(double x0, double y0, double x1, double y1) { return light::test::upright_polygon16(x0, y0, x1, y1); }
}  // namespace

TEST(TextLines, WordsRunningOnAlongABaselineShareALineAndTheNextLineStartsANewOne) {
  // "Holy Trinity" on one line (a gap of half a height), "Church" a line below, then "Mill" 3 heights
  // further along its line, too far to be read with it.
  const std::vector<std::vector<Point>> words = {box(0, 0, 40, 10), box(45, 0, 100, 10), box(20, 15, 70, 25), box(100, 15, 130, 25)};
  const auto runs = data::same_line_runs(words);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].first, 0u);
  EXPECT_EQ(runs[0].last, 1u);
  EXPECT_EQ(runs[1].first, 2u);
  EXPECT_EQ(runs[1].last, 2u);
  EXPECT_EQ(runs[2].first, 3u);
  EXPECT_EQ(data::same_line_runs(words, 4.0).size(), 2u);  // a wider gap allowed: "Church Mill"
}

TEST(TextLines, ALinesPolygonHoldsItsWordsEdgesAndGrowsByTheMarginsAsked) {
  const std::vector<std::vector<Point>> words = {box(0, 0, 40, 10), box(45, 0, 100, 10)};
  const auto p = data::line_polygon(words);
  ASSERT_EQ(p.size(), 32u);
  EXPECT_DOUBLE_EQ(p[0].x, 0);     // the first word's lower start
  EXPECT_DOUBLE_EQ(p[15].x, 100);  // the last word's lower end
  EXPECT_DOUBLE_EQ(p[15].y, 10);
  EXPECT_DOUBLE_EQ(p[16].x, 100);  // then the upper edge back
  EXPECT_DOUBLE_EQ(p[16].y, 0);
  EXPECT_DOUBLE_EQ(p[31].x, 0);
  const auto grown = data::line_polygon(words, 0.1, 0.5);  // a tenth of the height above and below, half a height at the ends
  EXPECT_NEAR(grown[0].x, -5, 1e-9);
  EXPECT_NEAR(grown[0].y, 11, 1e-9);
  EXPECT_NEAR(grown[16].x, 105, 1e-9);
  EXPECT_NEAR(grown[16].y, -1, 1e-9);
}

TEST(DetectorTargets, AWordIsShrunkByDBsDistanceInItsOwnFrame) {
  // 100 x 20: area 2000, perimeter 240, D = 2000 (1 - 0.16) / 240 = 7.
  const auto p = box(10, 10, 110, 30);
  EXPECT_NEAR(data::db_shrink_distance(p), 7.0, 1e-9);
  const auto s = data::shrink_word_polygon(p, 7.0);
  EXPECT_NEAR(s[0].x, 17, 1e-9);   // lower start: 7 in, 7 up
  EXPECT_NEAR(s[0].y, 23, 1e-9);
  EXPECT_NEAR(s[7].x, 103, 1e-9);  // lower end
  EXPECT_NEAR(s[8].y, 17, 1e-9);   // upper end: 7 down
  EXPECT_NEAR(s[3].y, 23, 1e-9);   // every lower vertex moved up
  // Never past 40 % of a tiny word's extent: a 10 x 4 word shrunk by 7 keeps a sliver.
  const auto tiny = data::shrink_word_polygon(box(0, 0, 10, 4), 7.0);
  EXPECT_NEAR(tiny[0].y, 4 - 1.6, 1e-9);
  EXPECT_NEAR(tiny[0].x, 4, 1e-9);
}

TEST(DetectorTargets, AKernelGrownBackByTheSpottersUnclipIsTheWordItself) {
  // 100 x 20 shrunk by d: (100 - 2d) x (20 - 2d); grown back by 1.5 x area / perimeter = d when
  // 14 d^2 - 600 d + 3000 = 0: d = (600 - sqrt(192000)) / 28 = 5.7794 (DB's own distance is 7).
  const auto p = box(10, 10, 110, 30);
  const double d = data::unclip_inverse_distance(p, 1.5);
  EXPECT_NEAR(d, (600 - std::sqrt(192000.0)) / 28, 1e-6);
  const double w = 100 - 2 * d, h = 20 - 2 * d;
  EXPECT_NEAR(1.5 * w * h / (2 * (w + h)), d, 1e-6);
  // A long line's kernel is 0.4 of its height thick (DB's: 0.2, the 40 % floor).
  const double line = data::unclip_inverse_distance(box(0, 0, 2000, 10), 1.5);
  EXPECT_NEAR(10 - 2 * line, 4.0, 0.05);
  // In the targets: row 16 is inside the unclip kernel (rows 16-24) and outside DB's (17-23).
  auto row16 = [&](double unclip) { return data::detector_targets({p}, {false}, 120, 40, 4.0, unclip).text[16 * 120 + 60]; };
  EXPECT_EQ(row16(1.5), 1);
  EXPECT_EQ(row16(0), 0);
}

TEST(DetectorTargets, TheThresholdMapRisesFrom0Point3ToItsOutlineAsDBsBorderMap) {
  // 100 x 20: D = 2000 x (1 - 0.16) / 240 = 7. The threshold is 0.3 + 0.4 x (1 - distance / 7) within
  // 7 px of the outline, inside or out; 0.3 deeper in and further out; the mask is the box grown by 7.
  const auto b = data::detector_borders({box(10, 10, 110, 30), box(10, 50, 60, 70)}, {false, true}, 120, 80);
  auto at = [&](int x, int y) { return b.threshold[static_cast<size_t>(y) * 120 + x]; };
  auto in = [&](int x, int y) { return b.mask[static_cast<size_t>(y) * 120 + x]; };
  EXPECT_NEAR(at(60, 10), 0.7, 1e-5);                     // on the outline
  EXPECT_NEAR(at(60, 14), 0.3 + 0.4 * (1 - 4.0 / 7), 1e-5);  // 4 px inside
  EXPECT_NEAR(at(60, 5), 0.3 + 0.4 * (1 - 5.0 / 7), 1e-5);   // 5 px outside
  EXPECT_NEAR(at(60, 20), 0.3, 1e-6);                     // 10 px in: deeper than D
  EXPECT_EQ(in(60, 20), 1);
  EXPECT_EQ(in(60, 5), 1);
  EXPECT_EQ(in(60, 2), 0);  // 8 px out
  EXPECT_NEAR(at(60, 2), 0.3, 1e-6);
  EXPECT_EQ(in(30, 60), 0);  // the illegible word is left out
  EXPECT_NEAR(at(30, 50), 0.3, 1e-6);
}

TEST(DetectorTargets, KernelsOfWordsASpaceApartStayApartAndIllegibleWordsAreMaskedOut) {
  // Two words 20 high with a 6 px space, and an illegible word below.
  const auto t = data::detector_targets({box(10, 10, 110, 30), box(116, 10, 216, 30), box(10, 50, 60, 70)}, {false, false, true}, 240, 80);
  auto at = [&](const std::vector<uint8_t>& v, int x, int y) { return v[static_cast<size_t>(y) * 240 + x]; };
  EXPECT_EQ(at(t.text, 60, 20), 1);   // the first word's middle
  EXPECT_EQ(at(t.text, 113, 20), 0);  // the space, widened by both ends' shrink
  EXPECT_EQ(at(t.text, 15, 20), 0);   // the word's own first letter's edge: outside the kernel
  EXPECT_EQ(at(t.text, 160, 20), 1);
  EXPECT_EQ(at(t.text, 60, 12), 0);   // above the kernel
  EXPECT_EQ(at(t.mask, 60, 20), 1);
  EXPECT_EQ(at(t.text, 35, 60), 0);   // the illegible word: not text, and not looked at
  EXPECT_EQ(at(t.mask, 35, 60), 0);
  EXPECT_EQ(at(t.mask, 100, 60), 1);
  // Too low to draw: masked.
  const auto small = data::detector_targets({box(10, 10, 60, 13)}, {false}, 80, 20);
  EXPECT_EQ(small.text[static_cast<size_t>(11) * 80 + 30], 0);
  EXPECT_EQ(small.mask[static_cast<size_t>(11) * 80 + 30], 0);
}

TEST(DetectorTargets, PlanesAreBgrNormalisedWithImageNetsStatisticsAndZeroPadded) {
  const std::vector<uint8_t> rgb = {255, 0, 128};  // one pixel
  std::vector<float> planes(3 * 32 * 32, 42.0f);
  data::detector_planes(rgb.data(), 1, 1, 3, 32, 32, planes.data());
  EXPECT_NEAR(planes[0], (128 / 255.0f - 0.485f) / 0.229f, 1e-6);            // B first, with the first channel's statistics
  EXPECT_NEAR(planes[32 * 32], (0 - 0.456f) / 0.224f, 1e-6);                 // G
  EXPECT_NEAR(planes[2 * 32 * 32], (1.0f - 0.406f) / 0.225f, 1e-6);          // R
  EXPECT_EQ(planes[1], 0.0f);                                               // padding
}

#include <gtest/gtest.h>

#include <filesystem>

#include "light/image/plot.h"
#include "light/image/resize.h"
#include "light/error.h"
#include "test_util.h"

using namespace light;

namespace {
bool has_colour(const image::RgbImage& img, int x0, int x1, uint8_t r, uint8_t g, uint8_t b) {
  for (int y = 0; y < img.height; ++y)
    for (int x = x0; x < x1; ++x) {
      const uint8_t* p = &img.rgb[3 * (static_cast<size_t>(y) * img.width + x)];
      if (p[0] == r && p[1] == g && p[2] == b) return true;
    }
  return false;
}
}  // namespace

TEST(Plot, DrawsEachSeriesInItsPanel) {
  const std::string dir = test::temp_dir();
  image::Panel loss{"loss", "epoch", {{"train", {1, 2, 3}, {3, 2, 1}, 0xff0000}}, 2, true};
  image::Panel f{"F", "epoch", {{"F", {1, 2, 3}, {0.2, 0.5, 0.7}, 0x0000ff}, {"empty", {}, {}, 0x00ff00}}};
  image::write_plot_png(dir + "/c.png", {loss, f}, 300, 200);
  const image::RgbImage img = image::read_rgb(dir + "/c.png");
  EXPECT_EQ(img.width, 600);
  EXPECT_EQ(img.height, 200);
  EXPECT_TRUE(has_colour(img, 0, 300, 255, 0, 0));     // the red series on the left
  EXPECT_FALSE(has_colour(img, 300, 600, 255, 0, 0));
  EXPECT_TRUE(has_colour(img, 300, 600, 0, 0, 255));   // the blue one on the right
  EXPECT_FALSE(has_colour(img, 0, 300, 0, 0, 255));
  EXPECT_FALSE(std::filesystem::exists(dir + "/c.png.tmp.png"));
  EXPECT_THROW(image::write_plot_png(dir + "/no/such/dir/c.png", {loss}), Error);
  std::filesystem::remove_all(dir);
}

TEST(Plot, AxisTicksAreRoundNumbers) {
  using V = std::vector<double>;
  EXPECT_EQ(image::axis_ticks(2.4, 22, true, false), (V{5, 10, 20}));
  EXPECT_EQ(image::axis_ticks(0.9, 1100, true, false), (V{1, 10, 100, 1000}));  // 1-2-5 would be 10 ticks
  EXPECT_EQ(image::axis_ticks(1, 6, false, true), (V{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(image::axis_ticks(1, 3, false, true), (V{1, 2, 3}));                  // never half epochs
  EXPECT_EQ(image::axis_ticks(1, 12, false, true), (V{5, 10}));                  // 2.5 is no step for epochs
  EXPECT_EQ(image::axis_ticks(1, 12, false, false), (V{2.5, 5, 7.5, 10}));
  const V unit = image::axis_ticks(0, 1, false, false);
  ASSERT_EQ(unit.size(), 6u);
  EXPECT_DOUBLE_EQ(unit[1], 0.2);
  EXPECT_DOUBLE_EQ(unit[5], 1.0);
  const V narrow = image::axis_ticks(3.1, 3.3, true, false);  // no 1-2-5 value inside: plain ticks
  EXPECT_GE(narrow.size(), 2u);
  for (double t : narrow) EXPECT_TRUE(t >= 3.1 - 1e-9 && t <= 3.3 + 1e-9) << t;
}

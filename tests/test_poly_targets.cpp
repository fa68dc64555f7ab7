// Polygon-pretraining data: the targets on hand-worked polygons, the masking and vertex dropout
// rules, and the two data sources.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <opencv2/imgcodecs.hpp>

#include "light/data/inputs.h"
#include "light/data/poly_pretrain.h"
#include "light/image/resize.h"
#include "light/error.h"
#include "light/geometry/polygon.h"
#include "test_util.h"

using namespace light;
using namespace light::data;
using geometry::Point;

namespace {
std::vector<Point> box(double x0, double y0, double x1, double y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

// A 16-point polygon as MapText gives them: 8 points along the top, left to right, then 8 along the
// bottom, right to left.
std::vector<Point> sixteen(double x0, double y0, double x1, double y1) {
  std::vector<Point> p;
  for (int k = 0; k < 8; ++k) p.push_back({x0 + (x1 - x0) * k / 7.0, y0});
  for (int k = 7; k >= 0; --k) p.push_back({x0 + (x1 - x0) * k / 7.0, y1});
  return p;
}

std::vector<Point> rotated(double degrees) {  // a 4 x 1 box, its long side turned by `degrees` (image y down)
  const double a = degrees * M_PI / 180;
  std::vector<Point> out;
  for (const Point& p : box(0, 0, 4, 1)) out.push_back({p.x * std::cos(a) + p.y * std::sin(a), -p.x * std::sin(a) + p.y * std::cos(a)});
  return out;
}
}  // namespace

TEST(PolyTargets, MinAreaRectAngleAsTheReference) {
  // OpenCV's minAreaRect angle lies in (0, 90]; +90 when the rectangle's width < height; / 180.
  // Horizontal text: rect 1 x 4 at 90 degrees -> (90 + 90) / 180.
  EXPECT_NEAR(min_area_rect_angle(box(0, 0, 4, 1)), 1.0, 1e-6);
  EXPECT_NEAR(min_area_rect_angle(box(0, 0, 1, 4)), 0.5, 1e-6);       // vertical: 4 x 1 at 90
  EXPECT_NEAR(min_area_rect_angle(rotated(30)), 150.0 / 180, 1e-4);   // rising: 1 x 4 at 60, + 90
  EXPECT_NEAR(min_area_rect_angle(rotated(-30)), 30.0 / 180, 1e-4);   // falling: 4 x 1 at 30
}

TEST(PolyTargets, ClosestPolygonByVertexDistance) {
  // A and B are 2 apart; C is far right of B; D sits just below A's left corner but its vertices
  // are 3 from A's.
  const std::vector<std::vector<Point>> p = {box(0, 0, 10, 2), box(12, 0, 20, 2), box(50, 0, 60, 2), box(0, 5, 3, 7)};
  EXPECT_EQ(closest_polygons(p), (std::vector<int64_t>{1, 0, 1, 0}));
  EXPECT_EQ(closest_polygons({box(0, 0, 1, 1)}), std::vector<int64_t>{-1});
  // Equal distances: the lowest index wins.
  EXPECT_EQ(closest_polygons({box(10, 0, 11, 1), box(0, 0, 8, 1), box(13, 0, 20, 1)}), (std::vector<int64_t>{1, 0, 0}));
}

TEST(PolyTargets, SampleTargetsMaskingAndPadding) {
  PolyTile t;
  t.width = 100, t.height = 50;
  t.polygons = {box(10, 5, 50, 15), sixteen(40, 10, 90, 20), {{1, 1}, {2, 2}}};  // the last: 2 points, left out
  PolySampleOptions o;
  o.vertex_dropout = false;
  std::mt19937_64 rng(3);
  const PolySample s = make_poly_sample(t, o, rng);
  ASSERT_EQ(s.count, 2u);
  for (size_t i = 0; i < 2; ++i) {
    const bool quad = s.original[i * 32 + 8] == kPolygonPad;  // 4 points: values 8.. are padding
    const float* orig = &s.original[i * 32];
    if (quad) {
      EXPECT_FLOAT_EQ(orig[0], 0.1f);
      EXPECT_FLOAT_EQ(orig[1], 0.1f);
      EXPECT_FLOAT_EQ(s.center_x[i], 0.3f);
      EXPECT_FLOAT_EQ(s.center_y[i], 0.2f);
      EXPECT_NEAR(s.distance[i], 0.2, 1e-6);  // (10, 5) to (10, 15): 10 px of 50
      EXPECT_NEAR(s.angle[i], 1.0, 1e-6);
    } else {
      EXPECT_FLOAT_EQ(s.center_x[i], 0.65f);
      EXPECT_FLOAT_EQ(s.center_y[i], 0.3f);
      EXPECT_NEAR(s.distance[i], 0.2, 1e-6);
    }
    EXPECT_EQ(s.closest[i], 1 - static_cast<int64_t>(i));
    // max(1, int(0.15 * points)) points masked, one coordinate each: 1 of 4, 2 of 16.
    int masked = 0, pad = 0;
    for (int k = 0; k < 32; ++k) {
      if (s.masked[i * 32 + k]) {
        ++masked;
        EXPECT_EQ(s.values[i * 32 + k], kMaskValue);
        EXPECT_FALSE(s.masked[i * 32 + (k ^ 1)]) << "both coordinates of a point masked";
      } else {
        EXPECT_EQ(s.values[i * 32 + k], orig[k]);
      }
      pad += orig[k] == kPolygonPad;
    }
    EXPECT_EQ(masked, quad ? 1 : 2);
    EXPECT_EQ(pad, quad ? 24 : 0);
  }
  // No polygon at all: an empty sample, not a crash.
  PolyTile empty;
  empty.width = empty.height = 10;
  empty.polygons = {{{1, 1}, {2, 2}}};
  EXPECT_EQ(make_poly_sample(empty, o, rng).count, 0u);
  // At most max_polygons, chosen at random.
  o.max_polygons = 1;
  EXPECT_EQ(make_poly_sample(t, o, rng).count, 1u);
}

TEST(PolyTargets, VertexDropoutKeepsTheCorners) {
  PolyTile t;
  t.width = t.height = 100;
  t.polygons = {sixteen(0, 0, 70, 10)};
  PolySampleOptions o;
  std::set<int> kept_counts;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    std::mt19937_64 rng(seed);
    const PolySample s = make_poly_sample(t, o, rng);
    int points = 0;
    while (points < 16 && s.original[2 * points] != kPolygonPad) ++points;
    kept_counts.insert(points);
    ASSERT_GE(points, 4);
    // The corners (points 0, 7, 8, 15) are always kept: the first point is the top-left corner, the
    // last the bottom-left one, and the top-right and bottom-right corners are among the rest.
    EXPECT_FLOAT_EQ(s.original[0], 0.0f);
    EXPECT_FLOAT_EQ(s.original[1], 0.0f);
    EXPECT_FLOAT_EQ(s.original[2 * (points - 1)], 0.0f);
    EXPECT_FLOAT_EQ(s.original[2 * (points - 1) + 1], 0.1f);
    int right_corners = 0;
    for (int k = 0; k < points; ++k) right_corners += s.original[2 * k] == 0.7f;
    EXPECT_EQ(right_corners, 2);
  }
  EXPECT_GT(kept_counts.size(), 5u) << "the number of kept points should vary";
  EXPECT_TRUE(kept_counts.count(16));
}

TEST(PolyTargets, ImageSizeFromHeaders) {
  const std::string dir = test::temp_dir();
  const cv::Mat img(37, 53, CV_8UC3, cv::Scalar(10, 200, 30));
  for (const char* ext : {".png", ".jpg", ".tif"}) {
    ASSERT_TRUE(cv::imwrite(dir + "/a" + ext, img));
    EXPECT_EQ(image::image_size(dir + "/a" + ext), (std::pair<int, int>{53, 37})) << ext;
  }
  EXPECT_THROW(image::image_size(dir + "/missing.png"), Error);
  std::filesystem::remove_all(dir);
}

TEST(PolyTargets, PerImageAnnotationFolder) {
  const std::string dir = test::temp_dir();
  std::filesystem::create_directories(dir + "/ann");
  cv::imwrite(dir + "/m1.png", cv::Mat(40, 80, CV_8UC3, cv::Scalar(0, 0, 0)));
  cv::imwrite(dir + "/m2.jpg", cv::Mat(20, 30, CV_8UC3, cv::Scalar(0, 0, 0)));
  test::write_text(dir + "/ann/m1.json",
                   R"({"annotations": [{"text": "A", "pts": [[1,2],[10,2],[10,8],[1,8]]}, {"text": "B", "pts": [[3,3],[4,4]]}]})");
  test::write_text(dir + "/ann/m2.json", R"({"annotations": []})");
  const PolyTileSource src(dir + "/ann", dir);
  ASSERT_EQ(src.size(), 2u);
  const PolyTile a = src.tile(0), b = src.tile(1);
  EXPECT_EQ(a.width, 80);
  EXPECT_EQ(a.height, 40);
  ASSERT_EQ(a.polygons.size(), 1u);  // the 2-point polygon is left out and counted
  EXPECT_EQ(a.polygons[0][2].x, 10);
  EXPECT_EQ(a.texts, std::vector<std::string>{"A"});  // texts stay beside their polygons (light pretrain)
  EXPECT_EQ(a.image_path, dir + "/m1.png");
  EXPECT_EQ(src.skipped_polygons(), 1u);
  EXPECT_EQ(b.width, 30);
  EXPECT_TRUE(b.polygons.empty());
  // A missing image stops the source at once (before any run folder is made), naming the file.
  try {
    PolyTileSource(dir + "/ann", dir + "/nowhere");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("m1.json: no image \"m1.png\""), std::string::npos) << e.what();
  }
  // A broken entry is named by file and field.
  test::write_text(dir + "/ann/m2.json", R"({"annotations": [{"pts": [[1, "x"]]}]})");
  try {
    src.tile(1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("m2.json: annotations[0].pts"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

#include <gtest/gtest.h>

#include <map>

#include "light/geometry/overlap.h"
#include "light/geometry/polygon.h"
#include "light/maptext.h"
#include "test_util.h"

using namespace light::geometry;
using light::maptext::Kind;
using light::maptext::read_maptext;

TEST(Polygon, BBoxAndArea) {
  const Polygon p{{0, 0}, {4, 0}, {4, 3}, {0, 3}};
  const BBox b = bbox(p);
  EXPECT_EQ(b.x0, 0);
  EXPECT_EQ(b.y1, 3);
  EXPECT_EQ(area(p), 12.0);
  EXPECT_EQ(signed_area(Polygon{{0, 0}, {0, 3}, {4, 3}, {4, 0}}), -12.0);
  EXPECT_EQ(area(Polygon{{0, 0}, {1, 1}}), 0.0);
  EXPECT_TRUE((BBox{0, 0, 1, 1}).intersects(BBox{1, 1, 2, 2}));  // touching counts
  EXPECT_FALSE((BBox{0, 0, 1, 1}).intersects(BBox{1.5, 0, 2, 1}));
}

TEST(Geos, IouOfHandWorkedSquares) {
  GeosContext ctx;
  const auto a = ctx.polygon({{0, 0}, {2, 0}, {2, 2}, {0, 2}});
  const auto b = ctx.polygon({{1, 0}, {3, 0}, {3, 2}, {1, 2}});
  EXPECT_DOUBLE_EQ(ctx.area(a), 4.0);
  const OverlapResult r = ctx.iou(a, 4.0, b, 4.0);
  ASSERT_TRUE(r.ok);
  EXPECT_DOUBLE_EQ(r.value, 2.0 / (6.0 + 1e-5));  // the evaluator's +1e-5 in the union
  // Identical shapes: 4 / (4 + 1e-5), not exactly 1.
  EXPECT_DOUBLE_EQ(ctx.iou(a, 4.0, a, 4.0).value, 4.0 / (4.0 + 1e-5));
  // Disjoint and merely touching shapes score 0.
  const auto far = ctx.polygon({{10, 10}, {11, 10}, {11, 11}});
  EXPECT_EQ(ctx.iou(a, 4.0, far, ctx.area(far)).value, 0.0);
  const auto touch = ctx.polygon({{2, 0}, {3, 0}, {3, 2}, {2, 2}});
  EXPECT_EQ(ctx.iou(a, 4.0, touch, 2.0).value, 0.0);
}

TEST(Geos, TinyPolygonsNeverMatch) {
  GeosContext ctx;
  const auto a = ctx.polygon({{0, 0}, {0.001, 0}, {0.001, 0.001}, {0, 0.001}});  // area 1e-6 < 1e-5
  EXPECT_LT(ctx.area(a), kPolyEpsilon);
  EXPECT_EQ(ctx.iou(a, ctx.area(a), a, ctx.area(a)).value, 0.0);
  // A degenerate (zero-area, repeated-point) polygon is built and simply never overlaps.
  const auto flat = ctx.polygon({{0, 0}, {5, 0}, {5, 0}});
  ASSERT_TRUE(flat);
  EXPECT_EQ(ctx.area(flat), 0.0);
}

TEST(Geos, InvalidPolygonGivesZeroOrAnErrorNeverACrash) {
  GeosContext ctx;
  // A bow-tie (self-intersecting) ring: invalid. GEOS either computes an overlap or reports an
  // error; the evaluator turns an error into "IoU 0, no match" with a warning.
  const auto bow = ctx.polygon({{0, 0}, {2, 2}, {2, 0}, {0, 2}});
  const auto sq = ctx.polygon({{0, 0}, {2, 0}, {2, 2}, {0, 2}});
  const OverlapResult r = ctx.iou(bow, ctx.area(bow), sq, 4.0);
  if (!r.ok) {
    EXPECT_FALSE(r.error.empty());
    EXPECT_EQ(r.value, 0.0);
  } else {
    EXPECT_GE(r.value, 0.0);
    EXPECT_LE(r.value, 1.0);
  }
}

TEST(Geos, UnaryUnionOfWords) {
  GeosContext ctx;
  const auto a = ctx.polygon({{0, 0}, {2, 0}, {2, 1}, {0, 1}});
  const auto b = ctx.polygon({{1, 0}, {3, 0}, {3, 1}, {1, 1}});
  const auto c = ctx.polygon({{5, 0}, {6, 0}, {6, 1}, {5, 1}});
  const auto u = ctx.unary_union({&a, &b, &c});
  ASSERT_TRUE(u);
  EXPECT_DOUBLE_EQ(ctx.area(u), 4.0);  // 3 (overlapping pair) + 1
}

// Per-pair IoUs of the bundled example, as the official evaluator computes them (reference-notes §6).
TEST(Geos, IousOfTheMapTextExample) {
  const auto gt = read_maptext(light::test::example_path("example_gt.json"), {Kind::GroundTruth, false});
  const auto pred = read_maptext(light::test::example_path("example_pred.json"), {Kind::Predictions, true});
  GeosContext ctx;
  auto word = [](const light::maptext::Dataset& d, const std::string& text) {
    for (const auto& g : d[0].groups)
      for (const auto& w : g)
        if (*w.text == text) return w.vertices;
    ADD_FAILURE() << "no word " << text;
    return Polygon{};
  };
  const std::vector<std::tuple<std::string, std::string, double>> golden{
      {"Smith's", "Siniths", 0.7870226440}, {"Fork", "Fork", 0.7938377025}, {"Lodge", "Lodge", 0.6691277313},
      {"Pole", "Pole", 0.8286622376},       {"Cr.", "Cr", 0.8073576632},    {"Water", "Hiter", 0.8528178769},
      {"40", "400", 0.8020594887}};
  for (const auto& [g, p, expected] : golden) {
    const auto pg = ctx.polygon(word(gt, g));
    const auto pp = ctx.polygon(word(pred, p));
    const OverlapResult r = ctx.iou(pg, ctx.area(pg), pp, ctx.area(pp));
    ASSERT_TRUE(r.ok);
    EXPECT_NEAR(r.value, expected, 1e-10) << g << " vs " << p;
  }
}

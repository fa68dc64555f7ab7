#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

// Per-pair IoUs of the bundled example, as the official evaluator computes them (docs/reference-notes.md §6).
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

// ---------------------------------------------------------------------------------------------
// Resampling word polygons to 16 points (issue 24)
// ---------------------------------------------------------------------------------------------
namespace {
// A word set along an arc (centre (500, 900), radius 400 at the baseline, 30 px high, from -110 to
// -70 degrees: left to right across the top of the circle), its outline `per_edge` points along the
// lower edge (`upper_edge` along the upper, if given), evenly spaced by angle, in MapText order: the
// lower edge from the start, the upper edge back.
Polygon arc_word(int per_edge, int upper_edge = 0) {
  if (upper_edge == 0) upper_edge = per_edge;
  Polygon p;
  const double pi = std::acos(-1.0);
  auto at = [&](double r, double deg) { return Point{500 + r * std::cos(deg * pi / 180), 900 + r * std::sin(deg * pi / 180)}; };
  for (int k = 0; k < per_edge; ++k) p.push_back(at(400, -110 + 40.0 * k / (per_edge - 1)));
  for (int k = 0; k < upper_edge; ++k) p.push_back(at(430, -70 - 40.0 * k / (upper_edge - 1)));
  return p;
}

double farthest(const Polygon& a, const Polygon& b) {
  EXPECT_EQ(a.size(), b.size());
  double d = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) d = std::max(d, std::hypot(a[i].x - b[i].x, a[i].y - b[i].y));
  return d;
}

double to_outline(const Point& p, const Polygon& poly) {
  double best = INFINITY;
  for (size_t i = 0; i < poly.size(); ++i) {
    const Point &a = poly[i], &b = poly[(i + 1) % poly.size()];
    const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    const double f = len2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0) : 0.0;
    best = std::min(best, std::hypot(p.x - a.x - f * dx, p.y - a.y - f * dy));
  }
  return best;
}
}  // namespace

TEST(ResampleWordPolygon, SixteenPointsComeBackUnchanged) {
  const Polygon p = arc_word(8);
  EXPECT_LT(signed_area(p), 0);  // the MapText direction in image coordinates
  const Resampled r = resample_word_polygon(p);
  ASSERT_TRUE(r.ok) << r.why;
  EXPECT_EQ(farthest(r.polygon, p), 0.0);
}

TEST(ResampleWordPolygon, FiftyAndTwentyFivePointsOfTheSameWordComeWithinAPixel) {
  const Polygon sixteen = arc_word(8);
  for (const Polygon& word : {arc_word(25), arc_word(13, 12)}) {  // 50 and 25 points
    SCOPED_TRACE(word.size());
    const Resampled r = resample_word_polygon(word);
    ASSERT_TRUE(r.ok) << r.why;
    ASSERT_EQ(r.polygon.size(), 16u);
    EXPECT_LT(farthest(r.polygon, sixteen), 1.0);
  }
}

TEST(ResampleWordPolygon, ClockwiseInputAndRepeatedPointsGiveTheSamePolygon) {
  const Polygon fifty = arc_word(25);
  const Resampled forward = resample_word_polygon(fifty);
  ASSERT_TRUE(forward.ok);
  Polygon reversed(fifty.rbegin(), fifty.rend());  // starts at the upper edge's first point: the word's start still
  const Resampled back = resample_word_polygon(reversed);
  ASSERT_TRUE(back.ok) << back.why;
  EXPECT_LT(farthest(back.polygon, forward.polygon), 1e-9);
  Polygon repeated = fifty;
  repeated.insert(repeated.begin() + 10, repeated[10]);
  repeated.push_back(repeated.front());  // closed explicitly
  const Resampled again = resample_word_polygon(repeated);
  ASSERT_TRUE(again.ok) << again.why;
  EXPECT_LT(farthest(again.polygon, forward.polygon), 1e-9);
}

namespace {
// A 16-point polygon whose first 8 points run evenly from `lower_start` to `lower_end` and last 8
// from `upper_start` to `upper_end`.
void expect_edges(const Polygon& p, Point lower_start, Point lower_end, Point upper_start, Point upper_end, double within) {
  for (int k = 0; k < 8; ++k) {
    const double f = k / 7.0;
    EXPECT_NEAR(p[k].x, lower_start.x + f * (lower_end.x - lower_start.x), within) << k;
    EXPECT_NEAR(p[k].y, lower_start.y + f * (lower_end.y - lower_start.y), within) << k;
    EXPECT_NEAR(p[8 + k].x, upper_start.x + f * (upper_end.x - upper_start.x), within) << k;
    EXPECT_NEAR(p[8 + k].y, upper_start.y + f * (upper_end.y - upper_start.y), within) << k;
  }
}
}  // namespace

TEST(ResampleWordPolygon, AFourPointBoxBecomesItsLowerEdgeThenItsUpperEdge) {
  // Given top-left, top-right, bottom-right, bottom-left (the other way round from MapText's order).
  const Polygon box{{0, 0}, {70, 0}, {70, 20}, {0, 20}};
  const Resampled r = resample_word_polygon(box);
  ASSERT_TRUE(r.ok) << r.why;
  ASSERT_EQ(r.polygon.size(), 16u);
  expect_edges(r.polygon, {0, 20}, {70, 20}, {70, 0}, {0, 0}, 1e-9);  // the lower edge left to right, the upper edge back
  // The same box in MapText's order gives the same points.
  const Resampled same = resample_word_polygon({{0, 20}, {70, 20}, {70, 0}, {0, 0}});
  ASSERT_TRUE(same.ok);
  EXPECT_LT(farthest(same.polygon, r.polygon), 1e-9);
}

TEST(ResampleWordPolygon, AJitteredBoxIsCutAtItsShortEndsNotAtItsLongSides) {
  // A spotter's 4-point box (MapText order), its corners a little off square: every corner turns by
  // about as much, so the ends are the short sides because they lie furthest along the word.
  const Polygon box{{882.7, 1153.67}, {1041.57, 1153.17}, {1041.53, 1115.92}, {886.07, 1111.39}};
  const Resampled r = resample_word_polygon(box);
  ASSERT_TRUE(r.ok) << r.why;
  ASSERT_EQ(r.polygon.size(), 16u);
  // The lower edge from start to end, then the upper edge back, each cut evenly.
  expect_edges(r.polygon, {882.7, 1153.67}, {1041.57, 1153.17}, {1041.53, 1115.92}, {886.07, 1111.39}, 1e-6);
}

TEST(ResampleWordPolygon, ATallOneLetterBoxKeepsItsBottomAsTheLowerEdge) {
  // "I", 10 wide and 30 tall: no long axis along the reading direction, so the MapText order of its
  // four points (bottom-left, bottom-right, top-right, top-left) decides, in either direction.
  const Polygon letter{{0, 30}, {10, 30}, {10, 0}, {0, 0}};
  const Polygon top_first{{0, 0}, {10, 0}, {10, 30}, {0, 30}};
  for (const Polygon& p : {letter, top_first}) {
    const Resampled r = resample_word_polygon(p);
    ASSERT_TRUE(r.ok) << r.why;
    for (int k = 0; k < 8; ++k) {
      EXPECT_NEAR(r.polygon[k].x, 10.0 * k / 7, 1e-9);
      EXPECT_NEAR(r.polygon[k].y, 30.0, 1e-9);
      EXPECT_NEAR(r.polygon[8 + k].x, 10.0 - 10.0 * k / 7, 1e-9);
      EXPECT_NEAR(r.polygon[8 + k].y, 0.0, 1e-9);
    }
  }
}

TEST(ResampleWordPolygon, ACollinearPointOnAnEdgeChangesNothing) {
  // Ground truth's 5 points: a box with an extra point half way along its lower edge.
  const Resampled five = resample_word_polygon({{0, 20}, {35, 20}, {70, 20}, {70, 0}, {0, 0}});
  const Resampled four = resample_word_polygon({{0, 20}, {70, 20}, {70, 0}, {0, 0}});
  ASSERT_TRUE(five.ok) << five.why;
  ASSERT_TRUE(four.ok) << four.why;
  EXPECT_LT(farthest(five.polygon, four.polygon), 1e-9);
}

TEST(ResampleWordPolygon, ATrianglesPointsLieOnItsOutline) {
  const Polygon tri{{0, 0}, {40, 0}, {20, 10}};
  const Resampled r = resample_word_polygon(tri);
  ASSERT_TRUE(r.ok) << r.why;
  ASSERT_EQ(r.polygon.size(), 16u);
  for (const Point& p : r.polygon) EXPECT_LT(to_outline(p, tri), 1e-9);
}

TEST(ResampleWordPolygon, DegeneratePolygonsAreReportedNotDropped) {
  const Resampled bowtie = resample_word_polygon({{0, 0}, {10, 10}, {10, 0}, {0, 10}});  // halves cancel
  EXPECT_FALSE(bowtie.ok);
  EXPECT_NE(bowtie.why.find("bow-tie"), std::string::npos);
  const Resampled line = resample_word_polygon({{0, 0}, {5, 5}, {10, 10}, {20, 20}});
  EXPECT_FALSE(line.ok);
  const Resampled two = resample_word_polygon({{0, 0}, {5, 5}, {5, 5}, {0, 0}});
  EXPECT_FALSE(two.ok);
  EXPECT_NE(two.why.find("fewer than 3"), std::string::npos);
  // An uneven bow-tie keeps an area and is resampled.
  EXPECT_TRUE(resample_word_polygon({{0, 0}, {30, 10}, {30, 0}, {0, 20}}).ok);
}

TEST(ResampleWordPolygon, EveryWordOfTheBundledSynthTileSurvivesAFiftyPointRoundTrip) {
  // `light synth`'s own polygons (straight, rotated, curved): each long edge traced through 25
  // points along the same outline (a 50-point spotter's polygon), then resampled to 16.
  const auto data = read_maptext(light::test::source_path("data/synth-example/annotations.json"), {Kind::GroundTruth, false});
  size_t words = 0;
  double worst = 0;
  for (const auto& tile : data)
    for (const auto& group : tile.groups)
      for (const auto& w : group) {
        if (w.vertices.size() != 16) continue;
        const Polygon lower(w.vertices.begin(), w.vertices.begin() + 8), upper(w.vertices.begin() + 8, w.vertices.end());
        Polygon fifty;
        for (const Polygon* edge : {&lower, &upper})
          for (int k = 0; k < 25; ++k) {  // 25 points evenly along the edge's 7 segments
            const double at = 7.0 * k / 24;
            const int seg = std::min(6, static_cast<int>(at));
            const double f = at - seg;
            const Point &a = (*edge)[seg], &b = (*edge)[seg + 1];
            fifty.push_back({a.x + f * (b.x - a.x), a.y + f * (b.y - a.y)});
          }
        const Resampled r = resample_word_polygon(fifty);
        ASSERT_TRUE(r.ok) << w.text.value_or("") << ": " << r.why;
        worst = std::max(worst, farthest(r.polygon, w.vertices));
        ++words;
      }
  EXPECT_GT(words, 40u);
  EXPECT_LT(worst, 1.0);
}

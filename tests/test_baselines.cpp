#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "light/baselines/features.h"
#include "light/baselines/heuristic_links.h"
#include "light/eval/evaluator.h"
#include "light/link/heuristic_linking.h"
#include "light/link/paths.h"
#include "light/geometry/polygon.h"
#include "test_util.h"

using namespace light;
using namespace light::baselines;
using light::maptext::Word;

namespace {
constexpr double kPi = 3.14159265358979323846;

// A word box of width w and height h whose baseline starts at (x, y), rotated by `deg` about that
// point (y down, as on an image), with the given text.
Word box(double x, double y, double w, double h, const std::string& text, double deg = 0) {
  const double t = deg * kPi / 180, c = std::cos(t), s = std::sin(t);
  auto at = [&](double u, double v) { return geometry::Point{x + u * c + v * s, y + u * s - v * c}; };
  Word word;
  word.vertices = {at(0, 0), at(w, 0), at(w, h), at(0, h)};
  word.text = text;
  return word;
}

std::vector<WordFeatures> features(const std::vector<Word>& words) {
  std::vector<WordFeatures> f;
  for (const auto& w : words) f.push_back(word_features(w.vertices, *w.text));
  return f;
}

// Links one tile of these words and returns its phrases as lists of texts.
std::vector<std::vector<std::string>> phrases(const std::vector<Word>& words, Method method,
                                              link::PhraseOrder order = link::PhraseOrder::Path) {
  maptext::Tile tile{"t.png", {}};
  for (const auto& w : words) tile.groups.push_back({w});
  link::HeuristicOptions opt;
  opt.method = method;
  opt.order = order;
  const maptext::Tile out = link::link_tile_heuristic(tile, opt);
  std::vector<std::vector<std::string>> texts;
  for (const auto& g : out.groups) {
    texts.emplace_back();
    for (const auto& w : g) texts.back().push_back(*w.text);
  }
  return texts;
}

std::multiset<std::vector<std::string>> as_set(const std::vector<std::vector<std::string>>& p) {
  return {p.begin(), p.end()};
}
}  // namespace

TEST(Baselines, EdgeCostOfAConstructedPair) {
  // "Lodge": 40 x 10 at the origin; "POLE": 30 x 20, 10 px to its right (axis-aligned).
  const WordFeatures a = word_features({{0, 0}, {40, 0}, {40, 10}, {0, 10}}, "Lodge");
  const WordFeatures b = word_features({{50, 0}, {80, 0}, {80, 20}, {50, 20}}, "POLE");
  EXPECT_DOUBLE_EQ(a.rect.cx, 20.0);
  EXPECT_DOUBLE_EQ(a.rect.cy, 5.0);
  EXPECT_DOUBLE_EQ(a.height, 10.0);
  EXPECT_DOUBLE_EQ(b.height, 20.0);
  EXPECT_EQ(a.letters, 5u);
  EXPECT_FALSE(a.caps);
  EXPECT_TRUE(b.caps);
  // Nearest side midpoints: right of Lodge (40, 5) and left of POLE (50, 10): D = sqrt(125).
  EXPECT_NEAR(side_distance(a, b), std::sqrt(125.0), 1e-9);
  EXPECT_DOUBLE_EQ(height_ratio(a, b), 2.0);
  EXPECT_NEAR(sin_angle_difference(a, b), 0.0, 1e-12);
  EXPECT_EQ(capitalization_difference(a, b), 1);
  // D · HR · (1 + S) · (1 + C) = sqrt(125) · 2 · 1 · 2.
  EXPECT_NEAR(edge_cost(a, b, {}), 4.0 * std::sqrt(125.0), 1e-9);
  EXPECT_NEAR(edge_cost(a, b, {2.0, 1.0, 0.0}), std::sqrt(125.0) * 4.0, 1e-9);
  EXPECT_NEAR(edge_cost(a, b, {0.0, 0.0, 0.0}), std::sqrt(125.0), 1e-9);
}

TEST(Baselines, AngleFeatures) {
  const WordFeatures a = word_features(box(0, 0, 60, 12, "River", 30).vertices, "River");
  const WordFeatures b = word_features(box(0, 0, 60, 12, "Creek", 60).vertices, "Creek");
  EXPECT_NEAR(sin_angle_difference(a, b), 0.5, 1e-5);  // sin 30°
  const WordFeatures c = word_features(box(0, 0, 20, 12, "Mt", 60).vertices, "Mt");
  EXPECT_EQ(sin_angle_difference(a, c), 0.0);  // 2 letters: angle ignored
  EXPECT_EQ(capitalization_difference(a, word_features(box(0, 0, 9, 12, "N").vertices, "N")), 0);
}

TEST(Baselines, UnicodeLettersAndCaps) {
  EXPECT_EQ(word_features(box(0, 0, 50, 10, "").vertices, "Smith's").letters, 6u);
  EXPECT_EQ(word_features(box(0, 0, 50, 10, "").vertices, "Zürich").letters, 6u);
  EXPECT_TRUE(word_features(box(0, 0, 50, 10, "").vertices, "ÉCOLE 41").caps);
  EXPECT_FALSE(word_features(box(0, 0, 50, 10, "").vertices, "41").caps);  // no cased letter
  EXPECT_FALSE(word_features(box(0, 0, 50, 10, "").vertices, "Cr.").caps);
  EXPECT_EQ(word_features(box(0, 0, 50, 10, "").vertices, "北京").letters, 2u);
}

TEST(Baselines, TwoWordsSideBySideLink) {
  const auto p = phrases({box(45, 10, 30, 10, "Pole"), box(0, 10, 40, 10, "Lodge")}, Method::Mst);
  EXPECT_EQ(p, (std::vector<std::vector<std::string>>{{"Lodge", "Pole"}}));  // read from the left
  EXPECT_EQ(phrases({box(45, 10, 30, 10, "Pole"), box(0, 10, 40, 10, "Lodge")}, Method::Distance), p);
}

TEST(Baselines, DistanceLinksOnlyWithinTwoCharacterWidths) {
  // "Lodge" is 40 px long with 5 characters: threshold 2 · 40 / 5 = 16 px between side midpoints.
  EXPECT_EQ(phrases({box(0, 10, 40, 10, "Lodge"), box(55, 10, 30, 10, "Pole")}, Method::Distance).size(), 1u);
  EXPECT_EQ(phrases({box(0, 10, 40, 10, "Lodge"), box(57, 10, 30, 10, "Pole")}, Method::Distance).size(), 2u);
  // A word far away stays alone.
  const auto p = phrases({box(0, 10, 40, 10, "Lodge"), box(45, 10, 30, 10, "Pole"), box(900, 700, 40, 10, "Denver")},
                         Method::Distance);
  EXPECT_EQ(as_set(p), as_set({{"Lodge", "Pole"}, {"Denver"}}));
}

TEST(Baselines, RotatedPhraseLinksAlongItsAngle) {
  // "Smith's Fork Creek" along a 35° line, and a horizontal "DENVER" just beside the middle word.
  const double t = 35 * kPi / 180;
  std::vector<Word> words{box(100, 300, 70, 14, "Smith's", 35), box(100 + 78 * std::cos(t), 300 + 78 * std::sin(t), 40, 14, "Fork", 35),
                          box(100 + 126 * std::cos(t), 300 + 126 * std::sin(t), 50, 14, "Creek", 35),
                          box(190, 330, 60, 14, "DENVER")};
  for (Method m : {Method::Mst, Method::Distance}) {
    const auto p = phrases(words, m);
    bool found = false;
    for (const auto& g : p) found = found || g == std::vector<std::string>{"Smith's", "Fork", "Creek"};
    EXPECT_TRUE(found) << (m == Method::Mst ? "mst" : "distance");
  }
}

TEST(Baselines, AWordWithThreeCloseNeighboursKeepsAtMostTwoLinks) {
  // Centre word with neighbours left, right and below; the costliest link is cut.
  std::vector<Word> words{box(100, 100, 40, 10, "Lake"), box(50, 100, 45, 10, "Big"), box(145, 100, 40, 10, "Trout"),
                          box(100, 125, 40, 10, "Lodge")};
  const auto f = features(words);
  std::vector<Edge> edges = mst_edges(f, {});
  ASSERT_EQ(edges.size(), 3u);
  std::vector<int> degree(4, 0);
  for (const auto& e : edges) ++degree[e.u], ++degree[e.v];
  EXPECT_EQ(degree[0], 3);  // the MST is a star on "Lake"
  cut_to_degree_two(4, edges);
  ASSERT_EQ(edges.size(), 2u);
  for (const auto& e : edges) EXPECT_FALSE(e.u == 3 || e.v == 3) << "the vertical neighbour is the costliest";
  EXPECT_EQ(as_set(phrases(words, Method::Mst)), as_set({{"Big", "Lake", "Trout"}, {"Lodge"}}));
}

TEST(Baselines, CyclesAreCutAtTheirCostliestLink) {
  // Three words within each other's threshold: a triangle in the distance graph.
  std::vector<Word> words{box(0, 10, 30, 10, "ab"), box(34, 10, 30, 10, "cd"), box(16, 24, 30, 10, "ef")};
  std::vector<Edge> edges = distance_edges(features(words));
  ASSERT_EQ(edges.size(), 3u);
  double costliest = 0;
  for (const auto& e : edges) costliest = std::max(costliest, e.cost);
  cut_to_degree_two(3, edges);
  EXPECT_EQ(edges.size(), 3u);  // degrees are 2: nothing to cut yet
  cut_cycles(3, edges);
  ASSERT_EQ(edges.size(), 2u);
  for (const auto& e : edges) EXPECT_LT(e.cost, costliest);
  EXPECT_EQ(phrases(words, Method::Distance).size(), 1u);
}

TEST(Baselines, DegenerateSingleAndEmptyTiles) {
  // Zero-area and repeated-point polygons keep their place and are never dropped.
  Word flat;
  flat.vertices = {{500, 500}, {540, 500}, {540, 500}, {500, 500}};
  flat.text = "Cr.";
  Word dot;
  dot.vertices = {{45, 15}, {45, 15}, {45, 15}};
  dot.text = "";
  const WordFeatures f = word_features(flat.vertices, "Cr.");
  EXPECT_TRUE(f.degenerate);
  EXPECT_NEAR(f.rect.cx, 520.0, 1e-6);
  EXPECT_GT(f.height, 0.0);
  for (Method m : {Method::Mst, Method::Distance}) {
    size_t words = 0;
    for (const auto& g : phrases({box(0, 10, 40, 10, "Lodge"), flat, dot, box(45, 10, 30, 10, "Pole")}, m))
      words += g.size();
    EXPECT_EQ(words, 4u);
    EXPECT_EQ(phrases({box(0, 10, 40, 10, "Lodge")}, m), (std::vector<std::vector<std::string>>{{"Lodge"}}));
    EXPECT_TRUE(phrases({}, m).empty());
  }
}

TEST(Baselines, OrderYXSortsEachPhraseByRowThenColumn) {
  // "Bear River" climbing at 45°: read from the lower-left word. Following the path keeps that order;
  // sorting by y then x puts the higher word ("River") first: the lossy order the paper scored.
  const double t = -45 * kPi / 180;
  std::vector<Word> words{box(100, 400, 40, 12, "Bear", -45),
                          box(100 + 48 * std::cos(t), 400 + 48 * std::sin(t), 50, 12, "River", -45)};
  EXPECT_EQ(phrases(words, Method::Mst, link::PhraseOrder::Path), (std::vector<std::vector<std::string>>{{"Bear", "River"}}));
  EXPECT_EQ(phrases(words, Method::Mst, link::PhraseOrder::YX), (std::vector<std::vector<std::string>>{{"River", "Bear"}}));
}

TEST(Baselines, LinkingTheExampleKeepsEveryWord) {
  const auto gt = maptext::read_maptext(test::example_path("example_gt.json"), {maptext::Kind::GroundTruth});
  for (Method m : {Method::Mst, Method::Distance}) {
    link::HeuristicOptions opt;
    opt.method = m;
    const auto linked = link::link_heuristic(gt, opt);
    ASSERT_EQ(linked.size(), 1u);
    EXPECT_EQ(linked[0].word_count(), gt[0].word_count());
    eval::Options eo;
    eo.task = eval::Task::DetEdges;
    const auto r = eval::evaluate(gt, linked, eo);
    EXPECT_EQ(r.overall[0].second, 1.0);  // recall: the same words
    EXPECT_EQ(r.overall[1].second, 1.0);  // precision
  }
}

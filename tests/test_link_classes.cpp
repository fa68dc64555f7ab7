// Links split by where the next word lies (geometry/link_class.h, eval/link_classes.h, light eval
// --link-classes): hand-worked offsets and classes, and a hand-made tile whose verdicts are known.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "light/error.h"
#include "light/eval/evaluator.h"
#include "light/eval/link_classes.h"
#include "light/geometry/line_chains.h"
#include "light/geometry/link_class.h"
#include "test_util.h"

using namespace light;
using geometry::LinkClass;

namespace {
geometry::ReadingFrame frame(double x0, double x1, double y, double h) { return {{x0, y}, {x1, y}, h}; }
}  // namespace

// Hand-worked: a word 100 px long and 20 high along y = 100 (centre (50, 100)).
TEST(LinkClass, OffsetsAreMeasuredInTheFirstWordsFrameAndHeights) {
  const auto a = frame(0, 100, 100, 20);
  // The next word 60 px long, starting 10 px after: centres 10 + 50 + 30 = 90 apart: along 4.5, gap 0.5.
  const auto near = geometry::link_offset(a, frame(110, 170, 100, 20));
  EXPECT_DOUBLE_EQ(near.along, 4.5);
  EXPECT_DOUBLE_EQ(near.across, 0.0);
  EXPECT_DOUBLE_EQ(near.gap, 0.5);
  EXPECT_EQ(geometry::classify_link(near), LinkClass::Near);
  // 30 px below, centred under it: across 1.5, next line.
  const auto below = geometry::link_offset(a, frame(20, 80, 130, 20));
  EXPECT_DOUBLE_EQ(below.across, 1.5);
  EXPECT_EQ(geometry::classify_link(below), LinkClass::NextLine);
  // 14 px below (0.7 heights): still the same line.
  EXPECT_EQ(geometry::classify_link(a, frame(110, 170, 114, 20)), LinkClass::Near);
  EXPECT_EQ(geometry::classify_link(a, frame(20, 80, 80, 20)), LinkClass::Above);    // 1 height above
  EXPECT_EQ(geometry::classify_link(a, frame(20, 80, 90, 20)), LinkClass::Near);     // overlapping, half a height up
  EXPECT_EQ(geometry::classify_link(a, frame(110, 170, 70, 20)), LinkClass::Above);  // 1.5 heights above
  // 41 px of white (2.05 heights) on the same line: spread; 39 px: near.
  EXPECT_EQ(geometry::classify_link(a, frame(141, 201, 100, 20)), LinkClass::Spread);
  EXPECT_EQ(geometry::classify_link(a, frame(139, 199, 100, 20)), LinkClass::Near);
  // Behind the word on its line: backwards; far behind: spread.
  EXPECT_EQ(geometry::classify_link(a, frame(-50, -10, 100, 20)), LinkClass::Backwards);
  EXPECT_EQ(geometry::classify_link(a, frame(-150, -110, 100, 20)), LinkClass::Spread);
}

// A word reading top to bottom has "below" at -x; a word of no length gives a near link.
TEST(LinkClass, ATurnedWordsNextLineLiesToItsLeft) {
  const geometry::ReadingFrame down{{100, 0}, {100, 100}, 20};
  EXPECT_EQ(geometry::classify_link(down, geometry::ReadingFrame{{60, 0}, {60, 100}, 20}), LinkClass::NextLine);
  EXPECT_EQ(geometry::classify_link(down, geometry::ReadingFrame{{140, 0}, {140, 100}, 20}), LinkClass::Above);
  EXPECT_EQ(geometry::classify_link(down, geometry::ReadingFrame{{100, 110}, {100, 160}, 20}), LinkClass::Near);
  EXPECT_EQ(geometry::classify_link(geometry::ReadingFrame{{5, 5}, {5, 5}, 0}, down), LinkClass::Near);
  EXPECT_STREQ(geometry::link_class_name(LinkClass::NextLine), "next_line");
}

namespace {
// Ground truth: "WRIGHT / COUNTY" on two lines, "Blue Peak" on one, "SWEET ... WATER" spread wide.
maptext::Dataset truth() {
  maptext::Tile t;
  t.image = "a.png";
  t.groups = {{test::box_word("WRIGHT", 100, 100, 220, 120), test::box_word("COUNTY", 95, 130, 225, 150)},
              {test::box_word("Blue", 400, 100, 450, 120), test::box_word("Peak", 458, 100, 510, 120)},
              {test::box_word("SWEET", 100, 400, 200, 420), test::box_word("WATER", 400, 400, 500, 420)}};
  return {t};
}
}  // namespace

// The prediction keeps "Blue Peak", leaves "WRIGHT" and "COUNTY" apart, links "SWEET" on to "Blue"
// (far above and ahead: a false link of class "above") and finds "SWEET WATER".
TEST(LinkClasses, CountsFoundMissedAndFalseLinksByClass) {
  const maptext::Dataset gt = truth();
  maptext::Tile p;
  p.image = "a.png";
  const auto& g = gt[0].groups;
  p.groups = {{g[0][0]}, {g[0][1]}, {g[2][0], g[1][0], g[1][1]}, {g[2][1]}};
  maptext::Tile p2 = p;
  p2.groups = {{g[0][0]}, {g[0][1]}, {g[1][0], g[1][1]}, {g[2][0], g[2][1]}};
  eval::Options opt;
  opt.task = eval::Task::DetEdges;
  opt.edge_verdicts = true;
  const auto r1 = eval::count_link_classes(gt, {p}, eval::evaluate(gt, {p}, opt));
  const auto at = [](const eval::LinkClassReport& r, LinkClass c) { return r[static_cast<size_t>(c)]; };
  EXPECT_EQ(at(r1, LinkClass::Near).gt, 1);
  EXPECT_EQ(at(r1, LinkClass::Near).found, 1);
  EXPECT_EQ(at(r1, LinkClass::NextLine).gt, 1);
  EXPECT_EQ(at(r1, LinkClass::NextLine).found, 0);
  EXPECT_EQ(at(r1, LinkClass::Spread).gt, 1);
  EXPECT_EQ(at(r1, LinkClass::Spread).found, 0);
  EXPECT_EQ(at(r1, LinkClass::Above).wrong, 1);  // SWEET -> Blue: 15 heights up
  long long wrong = 0;
  for (const auto& c : r1) wrong += c.wrong;
  EXPECT_EQ(wrong, 1);
  const auto r2 = eval::count_link_classes(gt, {p2}, eval::evaluate(gt, {p2}, opt));
  EXPECT_EQ(at(r2, LinkClass::Spread).found, 1);
  EXPECT_EQ(at(r2, LinkClass::Above).wrong, 0);
  EXPECT_EQ(eval::link_classes_to_json_line(r2),
            "{\"near\": {\"links\": 1, \"found\": 1, \"recall\": 1.0000, \"false_links\": 0}, "
            "\"spread\": {\"links\": 1, \"found\": 1, \"recall\": 1.0000, \"false_links\": 0}, "
            "\"next_line\": {\"links\": 1, \"found\": 0, \"recall\": 0.0000, \"false_links\": 0}, "
            "\"above\": {\"links\": 0, \"found\": 0, \"recall\": null, \"false_links\": 0}, "
            "\"backwards\": {\"links\": 0, \"found\": 0, \"recall\": null, \"false_links\": 0}}");
  // Without verdicts there is nothing to count.
  opt.edge_verdicts = false;
  EXPECT_THROW(eval::count_link_classes(gt, {p2}, eval::evaluate(gt, {p2}, opt)), Error);
}

TEST(LinkClasses, EvalPrintsThemAsAThirdLineAndRefusesThemForTasksWithoutLinks) {
  const std::string dir = test::temp_dir();
  maptext::write_maptext(dir + "/gt.json", truth());
  const auto r = test::run_light("eval --gt '" + dir + "/gt.json' --pred '" + dir + "/gt.json' --task detedges --counts --link-classes");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("{\"edges_correct\": 3, \"edges_wrong\": 0, \"edges_missed\": 0}\n{\"near\": {\"links\": 1, \"found\": 1"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"next_line\": {\"links\": 1, \"found\": 1, \"recall\": 1.0000"), std::string::npos) << r.out;
  const auto bad = test::run_light("eval --gt '" + dir + "/gt.json' --pred '" + dir + "/gt.json' --task det --link-classes");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--link-classes"), std::string::npos) << bad.err;
  std::filesystem::remove_all(dir);
}

// Lines found from the frames alone (geometry/line_chains.h), 10 px high words: "Lodge Pole" on one line,
// "Cr." centred below it, "Mill" 3.4 heights on (spread, not the same line), "MILL" right after it in
// letters twice as tall, "Road" right after "Pole"'s line but turned 30 degrees.
TEST(LineChains, ChainWordsOnOneBaselineWithinAWordGapAndNoFarther) {
  const double r = 30 * M_PI / 180;
  const std::vector<geometry::ReadingFrame> f = {frame(0, 50, 0, 10),  frame(56, 96, 0, 10),    frame(38, 58, 14, 10),
                                                 frame(130, 160, 0, 10), frame(165, 200, 0, 20),
                                                 {{0, 40}, {40 * std::cos(r), 40 + 40 * std::sin(r)}, 10},
                                                 frame(-45, -5, 40, 10)};
  const auto lines = geometry::line_ends(f);
  ASSERT_EQ(lines.size(), f.size());
  auto expect_line = [&](size_t k, double x0, double y0, double x1, double y1) {
    EXPECT_DOUBLE_EQ(lines[k].start.x, x0) << k;
    EXPECT_DOUBLE_EQ(lines[k].start.y, y0) << k;
    EXPECT_DOUBLE_EQ(lines[k].end.x, x1) << k;
    EXPECT_DOUBLE_EQ(lines[k].end.y, y1) << k;
  };
  expect_line(0, 0, 0, 96, 0);  // Lodge Pole
  expect_line(1, 0, 0, 96, 0);
  expect_line(2, 38, 14, 58, 14);  // Cr.: a line of its own
  expect_line(3, 130, 0, 160, 0);  // Mill: too far on
  expect_line(4, 165, 0, 200, 0);  // MILL: too tall
  // The turned word after "-45..-5" (gap 0.5): turned 30 degrees, not chained; both stand alone.
  expect_line(5, 0, 40, 40 * std::cos(r), 40 + 40 * std::sin(r));
  expect_line(6, -45, 40, -5, 40);
  // Turned 10 degrees: chained.
  const double s = 10 * M_PI / 180;
  const auto bent = geometry::line_ends({frame(-45, -5, 40, 10), {{0, 40}, {40 * std::cos(s), 40 + 40 * std::sin(s)}, 10}});
  EXPECT_DOUBLE_EQ(bent[0].end.x, 40 * std::cos(s));
  EXPECT_DOUBLE_EQ(bent[1].start.x, -45);
}

TEST(LineChains, EachWordChainsToTheNearestWordAheadThatChoosesItBack) {
  // "A", "B" 3 px on, "C" 8 px after B (3.8 heights after A: too far for A): A-B and B-C chain, one line.
  const auto lines = geometry::line_ends({frame(0, 30, 0, 10), frame(33, 60, 0, 10), frame(68, 90, 0, 10)});
  for (const auto& l : lines) {
    EXPECT_DOUBLE_EQ(l.start.x, 0);
    EXPECT_DOUBLE_EQ(l.end.x, 90);
  }
  // Two words ahead on one spot (a duplicate): one of them joins, the other stands alone.
  const auto dup = geometry::line_ends({frame(0, 30, 0, 10), frame(33, 60, 0, 10), frame(33, 60, 0, 10)});
  EXPECT_DOUBLE_EQ(dup[0].end.x, 60);
  EXPECT_NE(dup[1].start.x, dup[2].start.x);
  EXPECT_TRUE(geometry::line_ends({}).empty());
}

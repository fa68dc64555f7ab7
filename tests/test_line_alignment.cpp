#include <gtest/gtest.h>

#include <cmath>

#include "light/error.h"
#include "light/link/decode.h"
#include "light/link/line_alignment.h"
#include "test_rows.h"

using namespace light;
using link::LinePriors;

using test::frame;
using test::rows;

// A: 0-100 and B: 120-200 on y = 100 (height 20), C: 0-80 one and a half heights below. A -> B is a
// same-line link, B -> C a next-line one: A and B are one line, C another.
TEST(LineAlignment, SameLineLinksOfTheFirstDecodingMakeTheLinesAndNextLineLinksDoNot) {
  const std::vector<geometry::ReadingFrame> f{frame(0, 100, 100, 20), frame(120, 200, 100, 20), frame(0, 80, 130, 20)};
  const std::vector<int> line = geometry::lines_of({1, 2, 2}, f);
  EXPECT_EQ(line[0], line[1]);
  EXPECT_NE(line[1], line[2]);
  EXPECT_THROW(geometry::lines_of({0, 1}, f), Error);
}

// Hand-worked, in heights of 20 along x: the line [0, 200] against [0, 80] (left ends together): 0;
// against [60, 140] (centres at 100): 0; against [150, 230]: right ends 30 apart, left 150, centres 90:
// 30 / 20 = 1.5.
TEST(LineAlignment, TheOffsetIsTheNearestOfTheLeftEndsRightEndsAndCentres) {
  const std::vector<geometry::ReadingFrame> f{frame(0, 100, 100, 20), frame(120, 200, 100, 20), frame(0, 80, 130, 20),
                                              frame(60, 140, 130, 20), frame(150, 230, 130, 20)};
  EXPECT_DOUBLE_EQ(geometry::line_end_offset(f[0], {0, 1}, {2}, f), 0.0);
  EXPECT_DOUBLE_EQ(geometry::line_end_offset(f[0], {0, 1}, {3}, f), 0.0);
  EXPECT_DOUBLE_EQ(geometry::line_end_offset(f[0], {0, 1}, {4}, f), 1.5);
  EXPECT_TRUE(std::isinf(geometry::line_end_offset(frame(5, 5, 100, 20), {0}, {2}, f)));  // no direction
}

// "Site" (100-200, y 100) ends its phrase in the first decoding: "no successor" 0.5 against 0.25 for
// each word below. "Castle" (120-200, 1.5 heights below) is right-aligned with it; "Farm" (0-60, as
// far below) lines up with nothing. At 3: Castle 0.75, Farm 0.083: Site -> Castle.
TEST(LineAlignment, ANamesSecondLineThatLinesUpBeatsALabelBelowThatDoesNot) {
  const std::vector<geometry::ReadingFrame> f{frame(100, 200, 100, 20), frame(120, 200, 130, 20), frame(0, 60, 130, 20)};
  const auto p0 = rows({{0.5f, 0.25f, 0.25f}, {0, 1, 0}, {0, 0, 1}});
  const auto q0 = rows({{1, 0, 0}, {0.3f, 0.7f, 0}, {0.3f, 0, 0.7f}});
  const link::Decoded first = link::decode_successors(p0, q0);
  ASSERT_EQ(first.successors[0], 0);
  data::SparseRows p = p0, q = q0;
  link::apply_line_alignment(p, q, f, first.successors, LinePriors{3.0, 1.0});
  EXPECT_FLOAT_EQ(p.at(0, 0), 0.5f);  // "no successor" untouched
  EXPECT_FLOAT_EQ(p.at(0, 1), 0.75f);
  EXPECT_FLOAT_EQ(p.at(0, 2), 0.25f / 3);
  EXPECT_FLOAT_EQ(q.at(1, 0), 0.9f);  // Castle's predecessor row: Site above, lined up
  EXPECT_FLOAT_EQ(q.at(2, 0), 0.1f);  // Farm's: not
  EXPECT_EQ(link::decode_successors(p, q).successors[0], 1);
  // Factors of 1: the rows as they were.
  data::SparseRows p1 = p0, q1 = q0;
  link::apply_line_alignment(p1, q1, f, first.successors, LinePriors{});
  EXPECT_FLOAT_EQ(p1.at(0, 1), 0.25f);
}

// A word inside its line (its first-decoding successor on its own line) is not raised toward the line
// below, though the line below lines up: only a line's end and the next line's start are.
TEST(LineAlignment, AWordInsideItsLineKeepsItsLinkAndOnlyUnalignedCandidatesAreLowered) {
  // A 0-100 -> B 120-200 on y 100; C 0-80 below, left-aligned with the line; D 300-360 below, not.
  const std::vector<geometry::ReadingFrame> f{frame(0, 100, 100, 20), frame(120, 200, 100, 20), frame(0, 80, 130, 20),
                                              frame(300, 360, 130, 20)};
  auto p = rows({{0.1f, 0.5f, 0.3f, 0.1f}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}});
  auto q = rows({{1, 0, 0, 0}, {0.6f, 0.4f, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}});
  link::apply_line_alignment(p, q, f, {1, 1, 2, 3}, LinePriors{3.0, 1.0});
  EXPECT_FLOAT_EQ(p.at(0, 1), 0.5f);      // its own line: untouched
  EXPECT_FLOAT_EQ(p.at(0, 2), 0.3f);      // lined up, but A does not end its line
  EXPECT_FLOAT_EQ(p.at(0, 3), 0.1f / 3);  // not lined up: lowered
}

// Hand-worked on a word of height 20 along y = 100 (centre (50, 100)), a word centred 200 px on: 4 px
// lower (the chord turned 1.1 degrees) is on its baseline, 12 px (3.4 degrees) not; a height of 21
// (log 0.049) is, 22 (log 0.095) not; turned 4 degrees about its centre (the mean direction 2 degrees
// off the chord) is, 10 degrees (5 off) not; turned 10 degrees where an arc puts it (the chord at 5
// degrees, the mean of 0 and 10) is; turned 40 degrees there is not (more than 30).
TEST(LineAlignment, OnTheBaselineMeansOneHeightAndAChordAlongTheMeanDirectionStraightOrCurved) {
  const auto a = frame(0, 100, 100, 20);
  EXPECT_TRUE(link::on_baseline(a, frame(200, 300, 104, 20)));
  EXPECT_FALSE(link::on_baseline(a, frame(200, 300, 112, 20)));
  EXPECT_TRUE(link::on_baseline(a, frame(200, 300, 100, 21)));
  EXPECT_FALSE(link::on_baseline(a, frame(200, 300, 100, 22)));
  // A word 100 px long centred on (x, y), turned by `degrees`.
  const auto turned = [](double x, double y, double degrees) {
    const double r = degrees * M_PI / 180;
    return geometry::ReadingFrame{{x - 50 * std::cos(r), y - 50 * std::sin(r)}, {x + 50 * std::cos(r), y + 50 * std::sin(r)}, 20};
  };
  EXPECT_TRUE(link::on_baseline(a, turned(250, 100, 4)));
  EXPECT_FALSE(link::on_baseline(a, turned(250, 100, 10)));
  const double r5 = 5 * M_PI / 180;
  EXPECT_TRUE(link::on_baseline(a, turned(50 + 200 * std::cos(r5), 100 + 200 * std::sin(r5), 10)));
  const double r20 = 20 * M_PI / 180;
  EXPECT_FALSE(link::on_baseline(a, turned(50 + 200 * std::cos(r20), 100 + 200 * std::sin(r20), 40)));
}

// The same word (height 20 along y = 100) against spotted outlines' errors: a height of 22 (log 0.095)
// and a centre 12 px lower 200 px on (the chord at 3.4 degrees) are off a drawn word's baseline and
// on it within a spotter's tolerance (heights within 0.1 in log, the chord within 4.5 degrees); a
// height of 23 (log 0.140) and 20 px lower (5.7 degrees) are off it still.
TEST(LineAlignment, ASpottersToleranceTakesHeightsAndChordsAsFarApartAsItsOutlinesErr) {
  const auto a = frame(0, 100, 100, 20);
  const link::BaselineTolerance spotted{0.1, 4.5};
  EXPECT_FALSE(link::on_baseline(a, frame(200, 300, 100, 22)));
  EXPECT_TRUE(link::on_baseline(a, frame(200, 300, 100, 22), spotted));
  EXPECT_FALSE(link::on_baseline(a, frame(200, 300, 100, 23), spotted));
  EXPECT_FALSE(link::on_baseline(a, frame(200, 300, 112, 20)));
  EXPECT_TRUE(link::on_baseline(a, frame(200, 300, 112, 20), spotted));
  EXPECT_FALSE(link::on_baseline(a, frame(200, 300, 120, 20), spotted));
  // In the decoding: "GRANDE" spotted a tenth higher than "DENVER" is lowered as drawn, raised as spotted.
  const std::vector<geometry::ReadingFrame> f{a, frame(200, 300, 100, 22)};
  for (const auto& [tolerance, factor] : {std::pair{link::BaselineTolerance{}, 1.0f / 3}, std::pair{spotted, 3.0f}}) {
    auto p = rows({{0.7f, 0.3f}, {0, 1}});
    auto q = rows({{1, 0}, {0.2f, 0.8f}});
    link::apply_line_alignment(p, q, f, {0, 1}, LinePriors{1.0, 3.0, tolerance});
    EXPECT_FLOAT_EQ(p.at(0, 1), 0.3f * factor);
    EXPECT_FLOAT_EQ(q.at(1, 0), 0.2f * factor);
  }
}

// "DENVER" (0-100) and, 5 heights of white on, "GRANDE" (200-300) on its baseline; "Farm" (200-260,
// as far, but 30 px high) off it. Both end and start their phrases in the first decoding.
TEST(LineAlignment, ASpreadCandidateOnTheWordsBaselineIsRaisedAndOneOffItLowered) {
  const std::vector<geometry::ReadingFrame> f{frame(0, 100, 100, 20), frame(200, 300, 100, 20), frame(200, 260, 100, 30)};
  auto p = rows({{0.4f, 0.3f, 0.3f}, {0, 1, 0}, {0, 0, 1}});
  auto q = rows({{1, 0, 0}, {0.2f, 0.8f, 0}, {0.2f, 0, 0.8f}});
  link::apply_line_alignment(p, q, f, {0, 1, 2}, LinePriors{1.0, 3.0});
  EXPECT_FLOAT_EQ(p.at(0, 1), 0.9f);
  EXPECT_FLOAT_EQ(p.at(0, 2), 0.1f);
  EXPECT_FLOAT_EQ(q.at(1, 0), 0.6f);
  EXPECT_EQ(link::decode_successors(p, q).successors[0], 1);
  // The alignment prior alone leaves spread candidates as they were.
  auto p1 = rows({{0.4f, 0.3f, 0.3f}, {0, 1, 0}, {0, 0, 1}});
  auto q1 = q;
  link::apply_line_alignment(p1, q1, f, {0, 1, 2}, LinePriors{3.0, 1.0});
  EXPECT_FLOAT_EQ(p1.at(0, 2), 0.3f);
}

TEST(LineAlignment, RowsOfAnotherSizeThanTheFramesAreRefused) {
  const std::vector<geometry::ReadingFrame> f{frame(0, 100, 100, 20), frame(120, 200, 100, 20)};
  auto p = rows({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  auto q = p;
  EXPECT_THROW(link::apply_line_alignment(p, q, f, {0, 1, 2}, LinePriors{3.0, 3.0}), Error);
}

// Text lines from a detector's probability map (DB's post-processing, bent lines, letter-spaced
// lines joined, the turned reading's merge), the 16-point word polygons cut from them, and the pieces
// of letter-spaced words joined once read.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "light/maptext.h"
#include "light/spot/spotter.h"
#include "light/spot/spaced_words.h"
#include "light/spot/text_boxes.h"
#include "spaced_words_checks.h"

using light::test::read_alone;

namespace {

using light::maptext::Point;
using light::spot::TextBox;

double angle_of(const TextBox& b) {
  return std::atan2(b.corners[1].y - b.corners[0].y, b.corners[1].x - b.corners[0].x) * 180 / M_PI;
}

// A probability map of 0.05 with one rotated bar of 0.9 (centre, length, height, angle in degrees).
std::vector<float> map_with_bar(int w, int h, double cx, double cy, double len, double hgt, double deg) {
  std::vector<float> p(static_cast<size_t>(w) * h, 0.05f);
  const double a = deg * M_PI / 180, ux = std::cos(a), uy = std::sin(a);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double dx = x - cx, dy = y - cy, along = dx * ux + dy * uy, across = -dx * uy + dy * ux;
      if (std::abs(along) <= len / 2 && std::abs(across) <= hgt / 2) p[static_cast<size_t>(y) * w + x] = 0.9f;
    }
  return p;
}

TEST(TextBoxes, FindARotatedBarGrownByTheUnclipDistanceWithCornersInReadingOrder) {
  const std::vector<float> p = map_with_bar(200, 160, 100, 80, 100, 12, -30);  // rising to the right
  const auto boxes = light::spot::text_boxes(p.data(), 160, 200, {});
  ASSERT_EQ(boxes.size(), 1u);
  const TextBox& b = boxes[0];
  EXPECT_NEAR(angle_of(b), -30, 1.5);  // reads left to right, upward
  // D = area * 1.5 / perimeter of the found box (about 101 x 13): 1.5 * 101 * 13 / 228 = 8.6.
  EXPECT_NEAR(b.length(), 101 + 2 * 8.6, 3);
  EXPECT_NEAR(b.height(), 13 + 2 * 8.6, 3);
  EXPECT_NEAR(b.score, 0.9, 0.05);
  // corners: start-top, end-top, end-bottom, start-bottom: the bottom lies below the top.
  EXPECT_GT(b.corners[3].y, b.corners[0].y);
  EXPECT_LT(b.corners[0].x, b.corners[1].x);
}

TEST(TextBoxes, AKernelAlongAnArcGetsEdgesThatFollowItAndAStraightBarNone) {
  // A band 12 px thick along a circle of radius 200 about (150, 300), from 120 to 60 degrees above
  // the centre: lettering set along an arc (chord 200 px, sagitta 27 px), read left to right.
  const int w = 300, h = 180;
  std::vector<float> p(static_cast<size_t>(w) * h, 0.05f);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double r = std::hypot(x - 150.0, y - 300.0), deg = std::atan2(300.0 - y, x - 150.0) * 180 / M_PI;
      if (std::abs(r - 200) <= 6 && deg >= 60 && deg <= 120) p[static_cast<size_t>(y) * w + x] = 0.9f;
    }
  const auto boxes = light::spot::text_boxes(p.data(), h, w, {});
  ASSERT_EQ(boxes.size(), 1u);
  const TextBox& b = boxes[0];
  ASSERT_TRUE(b.bent());
  ASSERT_EQ(b.upper.size(), 8u);
  ASSERT_EQ(b.lower.size(), 8u);
  // Grown like a straight kernel of its length (about 209) and thickness (12 and the parabola's miss
  // of the circle, 2-3 px): D = 1.5 * 209 * 14 / (2 * 223) = 9.8 on every side. The upper edge lies
  // outside the arc and the lower inside, each on a circle about its centre (a rectangle's edges
  // would stray by the sagitta, 27 px; a parabola's by 3); the edges run from the left end to the right.
  double upper_min = 1e9, upper_max = 0, lower_min = 1e9, lower_max = 0;
  for (size_t k = 0; k < 8; ++k) {
    const double up = std::hypot(b.upper[k].x - 150, b.upper[k].y - 300), low = std::hypot(b.lower[k].x - 150, b.lower[k].y - 300);
    upper_min = std::min(upper_min, up), upper_max = std::max(upper_max, up);
    lower_min = std::min(lower_min, low), lower_max = std::max(lower_max, low);
  }
  EXPECT_LT(upper_max - upper_min, 5);
  EXPECT_LT(lower_max - lower_min, 5);
  EXPECT_NEAR((upper_max + upper_min) / 2, 206 + 9.8, 4);
  EXPECT_NEAR((lower_max + lower_min) / 2, 194 - 9.8, 4);
  EXPECT_LT(b.upper.front().x, b.upper.back().x);
  EXPECT_LT(b.upper[3].y, b.upper.front().y - 15);  // the middle rises above the ends
  // Read upside down: its start at the old end, its top the old bottom.
  const TextBox turned = b.upside_down();
  EXPECT_EQ(turned.upper.front().x, b.lower.back().x);
  EXPECT_EQ(turned.lower.back().y, b.upper.front().y);
  // With bending off, or for a straight bar, the rectangle alone.
  light::spot::TextBoxOptions straight;
  straight.bend = 0;
  EXPECT_FALSE(light::spot::text_boxes(p.data(), h, w, straight)[0].bent());
  const std::vector<float> bar = map_with_bar(200, 160, 100, 80, 120, 12, -20);
  EXPECT_FALSE(light::spot::text_boxes(bar.data(), 160, 200, {})[0].bent());
}

TEST(TextBoxes, DropBarsBelowTheBoxThresholdAndSpecks) {
  std::vector<float> p = map_with_bar(120, 80, 60, 40, 60, 10, 0);
  for (float& v : p)
    if (v > 0.5f) v = 0.45f;  // above the pixel threshold 0.3, below the box threshold 0.6
  EXPECT_TRUE(light::spot::text_boxes(p.data(), 80, 120, {}).empty());
  const std::vector<float> speck = map_with_bar(120, 80, 60, 40, 2, 2, 0);
  EXPECT_TRUE(light::spot::text_boxes(speck.data(), 80, 120, {}).empty());
}

TEST(TextBoxes, ScoreATaperedLineInsideItsOutlineNotItsRectangle) {
  // A wedge of 0.9 at 60 degrees, 120 long, 2 px high at its tip and 16 at its base (as the map of a
  // name set in growing letters): it fills about half of its minimum-area rectangle.
  const int w = 200, h = 200;
  std::vector<float> p(static_cast<size_t>(w) * h, 0.0f);
  const double a = 60 * M_PI / 180, ux = std::cos(a), uy = std::sin(a);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double dx = x - 100.0, dy = y - 100.0, along = dx * ux + dy * uy, across = -dx * uy + dy * ux;
      if (std::abs(along) <= 60 && std::abs(across) <= 1 + 7 * (along + 60) / 120) p[static_cast<size_t>(y) * w + x] = 0.9f;
    }
  const auto boxes = light::spot::text_boxes(p.data(), h, w, {});
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_NEAR(boxes[0].score, 0.9, 0.02);
  EXPECT_NEAR(std::abs(angle_of(boxes[0])), 60, 3);
  light::spot::TextBoxOptions rectangle;
  rectangle.score_outline = false;  // PaddleOCR's "fast" score: about 0.9 x 0.55
  EXPECT_TRUE(light::spot::text_boxes(p.data(), h, w, rectangle).empty());
}

// A probability map of 0 with squares of 0.9 (side `side`) centred at the given points.
std::vector<float> map_with_squares(int w, int h, const std::vector<Point>& centres, double side) {
  std::vector<float> p(static_cast<size_t>(w) * h, 0.0f);
  for (const Point& c : centres)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (std::abs(x - c.x) <= side / 2 && std::abs(y - c.y) <= side / 2) p[static_cast<size_t>(y) * w + x] = 0.9f;
  return p;
}

TEST(TextBoxes, JoinLettersSpacedAlongALineIntoOneLineAndLeaveLoneOnesAlone) {
  // "C O U N T Y" rising at 20 degrees: six letter kernels 8 px, centres 30 px apart (each grown box
  // about 14 px: 2.1 of its sizes); a lone letter far off and a word-long bar stay as they are.
  std::vector<Point> letters;
  const double a = -20 * M_PI / 180;
  for (int k = 0; k < 6; ++k) letters.push_back(Point{40 + 30 * k * std::cos(a), 150 + 30 * k * std::sin(a)});
  std::vector<Point> all = letters;
  all.push_back(Point{200, 180});  // 100 px below the line's end: alone
  std::vector<float> p = map_with_squares(260, 200, all, 8);
  const std::vector<float> bar = map_with_bar(260, 200, 60, 20, 80, 10, 0);
  for (size_t i = 0; i < p.size(); ++i) p[i] = std::max(p[i], bar[i] > 0.5f ? bar[i] : 0.0f);
  const auto boxes = light::spot::text_boxes(p.data(), 200, 260, {});
  ASSERT_EQ(boxes.size(), 3u);  // the joined line, the lone letter, the bar
  const TextBox& line = boxes[0];
  EXPECT_NEAR(angle_of(line), -20, 1);
  // It spans its letters' boxes: upright squares of about 14 px, each 14 (cos 20 + sin 20) = 17.9
  // across the line and along it.
  const double e = 14 * (std::cos(a) - std::sin(a));
  EXPECT_NEAR(line.length(), 150 + e, 3);
  EXPECT_NEAR(line.height(), e, 2);
  EXPECT_NEAR(line.corners[0].x, 40 - e / 2 * std::cos(a) + e / 2 * std::sin(a), 3);  // starts at "C", its top
  light::spot::TextBoxOptions off;
  off.letter_join = 0;
  EXPECT_EQ(light::spot::text_boxes(p.data(), 200, 260, off).size(), 8u);
  // Letters in a bunch, not along one line, are left apart.
  const std::vector<float> bunch = map_with_squares(120, 120, {Point{40, 40}, Point{70, 40}, Point{55, 65}, Point{35, 85}}, 8);
  EXPECT_EQ(light::spot::join_spaced_letters(light::spot::text_boxes(bunch.data(), 120, 120, off), {}).size(), 4u);
}

TextBox line_box(double cx, double cy, double along, double across, double deg) {
  TextBox b;
  b.corners = light::spot::reading_corners(cx, cy, along, across, deg * M_PI / 180);
  b.score = 0.9;
  return b;
}

namespace {
// A level line that starts at x `start` and is `length` long.
void expect_line_from(const TextBox& line, double start, double length) {
  EXPECT_NEAR(line.corners[0].x, start, 1e-6);
  EXPECT_NEAR(line.length(), length, 1e-6);
}

// `n` letters' boxes, 20 px, 50 px apart (centre to centre) along y = 100 from x = 40.
std::vector<TextBox> spaced_letters(int n) {
  std::vector<TextBox> boxes;
  for (int k = 0; k < n; ++k) boxes.push_back(line_box(40 + 50 * k, 100, 20, 20, 0));
  return boxes;
}

}  // namespace

TEST(TextBoxes, JoinASpacedNameBesideAStrayLetterButNotThreeUnlikeLabelsInARow) {
  // "C O U N T Y": six 20 px letters 50 px apart along y = 100, and a town's circle 40 px above the
  // third: near enough to join their run, off their line.
  std::vector<TextBox> boxes = spaced_letters(6);
  boxes.push_back(line_box(140, 60, 20, 20, 0));
  auto out = light::spot::join_spaced_letters(boxes, {});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].length(), 270, 1e-6);  // from x 30 to 300
  EXPECT_NEAR(out[0].height(), 20, 1e-6);
  EXPECT_NEAR(out[1].corners[0].y, 50, 1e-6);  // the circle stays alone
  // Three labels in a row beside a fourth, unevenly spaced (30 px, then 55): not one name.
  boxes = {line_box(40, 100, 20, 20, 0), line_box(70, 100, 20, 20, 0), line_box(125, 100, 20, 20, 0), line_box(70, 60, 20, 20, 0)};
  EXPECT_EQ(light::spot::join_spaced_letters(boxes, {}).size(), 4u);
  // Evenly spaced, they are.
  boxes[2] = line_box(100, 100, 20, 20, 0);
  EXPECT_EQ(light::spot::join_spaced_letters(boxes, {}).size(), 2u);
  // So they are when one is 1.4 times as large, but not when it lies at 45 degrees to the others, 2
  // times as thick across their line (a label of its own).
  boxes[1] = line_box(70, 100, 28, 28, 0);
  EXPECT_EQ(light::spot::join_spaced_letters(boxes, {}).size(), 2u);
  boxes[1] = line_box(70, 100, 29, 29, 45);
  EXPECT_EQ(light::spot::join_spaced_letters(boxes, {}).size(), 4u);
}

TEST(TextBoxes, ASpacedNameTakesInThePieceAtItsEndButNotTheNextWord) {
  // "C O U N" letters 20 px, 30 px apart edge to edge; "TY" found as one 60 x 22 piece 30 px on; then
  // "C O." 45 px (1.5 gaps) further: the next word.
  std::vector<TextBox> boxes = spaced_letters(4);
  boxes.push_back(line_box(260, 100, 60, 22, 0));
  boxes.push_back(line_box(345, 100, 20, 20, 0));
  boxes.push_back(line_box(395, 100, 20, 20, 0));
  const auto out = light::spot::join_spaced_letters(boxes, {});
  ASSERT_EQ(out.size(), 2u);
  expect_line_from(out[0], 30, 260);  // to x 290, the piece's end
  expect_line_from(out[1], 335, 70);
  // A piece tilted 20 degrees from the name is not its end.
  boxes[4] = line_box(260, 100, 60, 22, 20);
  EXPECT_EQ(light::spot::join_spaced_letters(boxes, {}).size(), 3u);
}

TEST(TextBoxes, ASpacedNameTakesInANarrowLetterStandingOnItAndTheLettersBeyond) {
  // "G E O R G I A": 20 px letters 50 px apart along y = 100; the "I" a box 7 px wide and 20 high
  // (too narrow to be a letter of the chain), and the "A" beyond it. Both join the name.
  std::vector<TextBox> boxes = spaced_letters(5);
  boxes.push_back(line_box(290, 100, 7, 20, 0));
  boxes.push_back(line_box(340, 100, 20, 20, 0));
  auto out = light::spot::join_spaced_letters(boxes, {});
  ASSERT_EQ(out.size(), 1u);
  expect_line_from(out[0], 30, 320);  // to x 350, the "A"'s end
  // Line work standing on the name (7 px wide, three letters high) is no letter of it.
  boxes[5] = line_box(290, 100, 7, 60, 0);
  out = light::spot::join_spaced_letters(boxes, {});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_NEAR(out[0].length(), 220, 1e-6);  // "G E O R G", from x 30 to 250
}

TEST(TextBoxes, JoinPiecesOfALetterSpacedLineButNotALineBelowAFarPieceOrATallerOne) {
  // "MIN" "NES" "OTA": three level boxes 40 x 20 along y = 50, 8 px apart (0.4 of their height).
  auto level = [](double cx, double cy, double len, double high) {
    TextBox b;
    b.corners = light::spot::reading_corners(cx, cy, len, high, 0);
    b.score = 0.9;
    return b;
  };
  const std::vector<TextBox> boxes = {level(20, 50, 40, 20),  level(68, 50, 40, 20), level(116, 50, 40, 20),
                                      level(68, 80, 40, 20),  // the line below
                                      level(190, 50, 40, 20),  // 34 px (1.7 heights) on: another label
                                      level(68, 120, 40, 30), level(116, 120, 40, 20)};  // a taller piece beside a smaller one
  const auto out = light::spot::join_line_pieces(boxes, {});
  ASSERT_EQ(out.size(), 5u);
  EXPECT_NEAR(out[0].length(), 136, 1e-6);  // from x 0 to 136
  EXPECT_NEAR(out[0].height(), 20, 1e-6);
  EXPECT_NEAR(out[0].corners[0].x, 0, 1e-6);
  EXPECT_NEAR(out[0].corners[0].y, 40, 1e-6);
  light::spot::TextBoxOptions never;
  never.piece_join = 0;
  EXPECT_EQ(light::spot::join_line_pieces(boxes, never).size(), boxes.size());
}

TEST(SpacedWords, PiecesOfASpacedNameJoinAcrossBreaksAsWideAsItsLettersButNotAcrossAWordSpace) {
  // "T E R R I T O R Y  C O.": letters 100 px apart (2.5 heights), found as "TER" "RIT" "O" "RY"; "C O."
  // begins 180 px (1.8 pitches) after the Y.
  const std::vector<light::spot::LineWord> pieces = {
      read_alone(20, 280, "TER", 50, 250, 0),   read_alone(330, 570, "RIT", 350, 550, 1), read_alone(630, 670, "O", 650, 650, 2),
      read_alone(730, 870, "RY", 750, 850, 3),  read_alone(1010, 1250, "CO.", 1030, 1230, 4)};
  const auto out = light::spot::join_spaced_words(pieces);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].word.text, "TERRITORY");
  EXPECT_NEAR(out[0].line.corners[0].x, 20, 1e-6);  // from the first piece's start to the last's end
  EXPECT_NEAR(out[0].line.corners[1].x, 870, 1e-6);
  EXPECT_NEAR(out[0].word.first * 850 + 20, 50, 1e-6);
  EXPECT_NEAR(out[0].word.last * 850 + 20, 850, 1e-6);
  EXPECT_EQ(out[1].word.text, "CO.");
  light::spot::SpacedWordOptions never;
  never.gap = 0;
  EXPECT_EQ(light::spot::join_spaced_words(pieces, never).size(), pieces.size());
  // Whatever order the pieces come in: "ARTIN" first, its "M" last, "TER" "RIT" between.
  auto below = [](light::spot::LineWord w) {
    for (auto& c : w.line.corners) c.y += 200;
    return w;
  };
  const std::vector<light::spot::LineWord> shuffled = {below(read_alone(130, 570, "ARTIN", 150, 550, 10)), pieces[0], pieces[1],
                                                       below(read_alone(30, 70, "M", 50, 50, 11))};
  std::vector<std::string> texts;
  for (const auto& w : light::spot::join_spaced_words(shuffled)) texts.push_back(w.word.text);
  std::sort(texts.begin(), texts.end());
  EXPECT_EQ(texts, (std::vector<std::string>{"MARTIN", "TERRIT"}));
}

TEST(SpacedWords, WordsSetCloseOrReadOnOneLineOrOffTheAxisStayApart) {
  // "ADAMS" "COUNTY" in capitals set close (pitch 30 px, 0.75 of the line's height), 35 px apart.
  const std::vector<light::spot::LineWord> close = {read_alone(0, 150, "ADAMS", 15, 135, 0), read_alone(160, 340, "COUNTY", 170, 320, 1)};
  EXPECT_EQ(light::spot::join_spaced_words(close).size(), 2u);
  // Spaced words the recogniser read on one line, a space between them: a word break it heard.
  const std::vector<light::spot::LineWord> one_line = {read_alone(20, 280, "TER", 50, 250, 7), read_alone(330, 570, "RIT", 350, 550, 7)};
  EXPECT_EQ(light::spot::join_spaced_words(one_line).size(), 2u);
  auto two_lines = one_line;
  two_lines[1].read_on = 8;
  EXPECT_EQ(light::spot::join_spaced_words(two_lines).size(), 1u);
  // The next piece 20 px (half a height) below the first's axis.
  two_lines[1].line.corners = light::spot::reading_corners(450, 140, 240, 40, 0);
  EXPECT_EQ(light::spot::join_spaced_words(two_lines).size(), 2u);
  // Figures are no piece of a name.
  two_lines[1] = read_alone(330, 570, "R12", 350, 550, 8);
  EXPECT_EQ(light::spot::join_spaced_words(two_lines).size(), 2u);
}

TEST(SpacedWords, ALetterFoundAloneJoinsATiltedSpacedNameOnItsAxis) {
  // "U N T Y" at 12 degrees, letters 100 px apart: "NTY" read on a tilted line, the "U" a level box
  // (a letter found alone in the ink) one pitch before the N. The name's axis is the word's.
  const double a = 12 * M_PI / 180, ux = std::cos(a), uy = std::sin(a);
  light::spot::LineWord u;
  u.line.corners = light::spot::reading_corners(100, 200, 40, 40, 0);
  u.word.text = "U";
  u.word.score = 0.99;
  u.word.first = u.word.last = 0.5;
  u.read_on = 0;
  light::spot::LineWord nty;
  nty.line.corners = light::spot::reading_corners(100 + 200 * ux, 200 + 200 * uy, 260, 40, a);
  nty.word.text = "NTY";
  nty.word.score = 0.99;
  nty.word.first = 30.0 / 260, nty.word.last = 230.0 / 260;
  nty.read_on = 1;
  const auto out = light::spot::join_spaced_words({u, nty});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].word.text, "UNTY");
  // The same letter 25 px (0.6 heights) off the name's axis stays apart.
  u.line.corners = light::spot::reading_corners(100 - 25 * uy, 200 + 25 * ux, 40, 40, 0);
  EXPECT_EQ(light::spot::join_spaced_words({u, nty}).size(), 2u);
}

TEST(SpacedWords, ARoundGlyphReadAsAFigureBetweenASpacedNamesLettersIsItsO) {
  // "C O U N T Y", letters 80 px apart, level: "C" and "UNTY" read, the "O" between them read alone as
  // the figure "0" (as the recogniser reads a lone O as often as not). Joined, it is the letter.
  auto word = [](double x, double length, const std::string& text, double first, double last, size_t line) {
    light::spot::LineWord w;
    w.line.corners = light::spot::reading_corners(x, 200, length, 32, 0);
    w.word.text = text;
    w.word.score = 0.99;
    w.word.first = first, w.word.last = last;
    w.read_on = line;
    return w;
  };
  const auto c = word(100, 32, "C", 0.5, 0.5, 0), o = word(180, 30, "0", 0.5, 0.5, 1);
  const auto unty = word(380, 300, "UNTY", 20.0 / 300, 260.0 / 300, 2);
  auto out = light::spot::join_spaced_words({c, o, unty});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].word.text, "COUNTY");
  // Among small letters, the small o: "B r o o k", letters 80 px apart from x = 100, read "Br", "0", "ok".
  const auto o3 = word(260, 30, "0", 0.5, 0.5, 1);
  auto lower = light::spot::join_spaced_words({word(140, 112, "Br", 16.0 / 112, 96.0 / 112, 0), o3, word(380, 112, "ok", 16.0 / 112, 96.0 / 112, 2)});
  ASSERT_EQ(lower.size(), 1u);
  EXPECT_EQ(lower[0].word.text, "Brook");
  // A figure other than a round one stays a figure, apart: "C" "4" "UNTY" is not a name.
  const auto four = word(180, 30, "4", 0.5, 0.5, 1);
  out = light::spot::join_spaced_words({c, four, unty});
  EXPECT_EQ(out.size(), 3u);
  // A round glyph off the name's axis (a settlement's circle below it) stays apart.
  auto below = o;
  below.line.corners = light::spot::reading_corners(180, 240, 30, 30, 0);
  out = light::spot::join_spaced_words({c, below, unty});
  ASSERT_EQ(out.size(), 3u);
  for (const auto& w : out) EXPECT_NE(w.word.text, "COUNTY");
}

TEST(TextBoxes, ATiltedReadingKeepsOnlyItsLinesBetweenTheLeastAndMostTilt) {
  // Lines at 0, 20, -35, 50 and 75 degrees from level, and a near-square box at 30.
  const std::vector<TextBox> found = {line_box(100, 50, 120, 20, 0), line_box(100, 150, 120, 20, 20), line_box(100, 250, 120, 20, -35),
                                      line_box(100, 350, 120, 20, 50), line_box(100, 450, 120, 20, 75), line_box(100, 550, 25, 20, 30)};
  const auto kept = light::spot::lines_tilted(found, 12, 60);
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_NEAR(kept[0].corners[0].y, found[1].corners[0].y, 1e-9);
  EXPECT_NEAR(kept[1].corners[0].y, found[2].corners[0].y, 1e-9);
  EXPECT_NEAR(kept[2].corners[0].y, found[3].corners[0].y, 1e-9);
  // Then added where no line was found before.
  const auto merged = light::spot::add_unseen_lines({found[0], line_box(100, 150, 60, 20, 20)}, kept, 0.3);
  EXPECT_EQ(merged.size(), 4u);  // the 20-degree line overlaps the piece found before: not added
}

TEST(TextBoxes, ASteepTurnedLineReplacesUprightPiecesButNeverALevelLine) {
  // Upright: a level line, and two pieces of a name rising at 70 degrees ("Cre" and a lone "k").
  const TextBox level = line_box(100, 50, 120, 20, 0);
  const TextBox piece = line_box(300, 200, 50, 20, -70), letter = line_box(322, 138, 20, 20, 0);
  // Turned: the whole name; a steep line across the level one; a level line; a square; a steep line
  // where the upright reading found nothing.
  const TextBox name = line_box(310, 170, 120, 22, -70), across = line_box(100, 50, 40, 18, 80);
  const TextBox flat = line_box(400, 400, 90, 20, 10), square = line_box(500, 100, 20, 20, 60);
  const TextBox alone = line_box(600, 300, 100, 20, 90);
  const auto out = light::spot::merge_turned_lines({level, piece, letter}, {name, across, flat, square, alone});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_NEAR(out[0].corners[0].x, level.corners[0].x, 1e-9);  // the level line stays
  EXPECT_NEAR(out[1].corners[0].x, name.corners[0].x, 1e-9);   // the name replaces both its pieces
  EXPECT_NEAR(out[1].length(), 120, 1e-9);
  EXPECT_NEAR(out[2].corners[0].y, alone.corners[0].y, 1e-9);  // and the steep line alone is added
  EXPECT_TRUE(light::spot::is_level_line(level));
  EXPECT_FALSE(light::spot::is_level_line(name));
  EXPECT_FALSE(light::spot::is_level_line(letter));  // a square is no line
}

TEST(TextBoxes, ASecondEnlargementAddsOnlyLinesWhereNothingWasFound) {
  const TextBox found = line_box(200, 100, 150, 30, 0);
  // Read enlarged again: the same line found as two pieces, a small line beside it touching its end
  // (common area over the smaller: 5 of 100 px long, 0.05), and a small line apart.
  const TextBox piece = line_box(150, 100, 60, 28, 0), touching = line_box(320, 100, 100, 12, 0);
  const TextBox apart = line_box(200, 300, 60, 10, 0);
  const auto out = light::spot::add_unseen_lines({found}, {piece, touching, apart});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_NEAR(out[0].length(), 150, 1e-9);  // what was found stays as it was
  EXPECT_NEAR(out[1].length(), 100, 1e-9);
  EXPECT_NEAR(out[2].corners[0].y, apart.corners[0].y, 1e-9);
  // Overlapping it by more than a tenth of the smaller, a line is not added.
  const TextBox over = line_box(290, 100, 100, 12, 0);  // 35 of 100 px
  EXPECT_EQ(light::spot::add_unseen_lines({found}, {over}).size(), 1u);
}

TEST(ReadingCorners, ReadAVerticalLineUpwardAndFlipTurnsItOver) {
  const auto up = light::spot::reading_corners(50, 50, 40, 10, M_PI / 2);  // vertical
  EXPECT_NEAR(up[0].y, 70, 1e-9);  // starts at the bottom
  EXPECT_NEAR(up[1].y, 30, 1e-9);
  EXPECT_NEAR(up[0].x, 45, 1e-9);  // the top of upward text faces left
  const auto down = light::spot::reading_corners(50, 50, 40, 10, M_PI / 2, /*flip=*/true);
  EXPECT_NEAR(down[0].y, 30, 1e-9);
  EXPECT_NEAR(down[0].x, 55, 1e-9);
  const auto left = light::spot::reading_corners(50, 50, 40, 10, M_PI);  // pointing left: read left to right
  EXPECT_NEAR(left[0].x, 30, 1e-9);
  EXPECT_NEAR(left[0].y, 45, 1e-9);
}

TEST(WordPolygon, SixteenPointsTheLowerEdgeForwardThenTheUpperEdgeBack) {
  TextBox b;
  b.corners = {Point{0, 0}, Point{70, 0}, Point{70, 10}, Point{0, 10}};
  const auto p = light::spot::word_polygon(b, 0.5, 1.0);
  ASSERT_EQ(p.size(), 16u);
  EXPECT_NEAR(p[0].x, 35, 1e-9);
  EXPECT_NEAR(p[0].y, 10, 1e-9);
  EXPECT_NEAR(p[7].x, 70, 1e-9);
  EXPECT_NEAR(p[8].x, 70, 1e-9);
  EXPECT_NEAR(p[8].y, 0, 1e-9);
  EXPECT_NEAR(p[15].x, 35, 1e-9);
  EXPECT_NEAR(p[1].x - p[0].x, 5, 1e-9);
}

TEST(WordPolygon, OnABentLineTheWordsShareItsEdgesByTheirLengthAlongIt) {
  TextBox b;
  b.corners = {Point{0, 0}, Point{70, 0}, Point{70, 30}, Point{0, 30}};
  for (int k = 0; k < 8; ++k) {  // a right angle: 30 px right along y = 10 (upper) / 20 (lower), then 40 px down
    const double t = 10.0 * k;
    b.upper.push_back(t <= 30 ? Point{t, 10} : Point{30, 10 + (t - 30)});
    b.lower.push_back(t <= 30 ? Point{t, 20} : Point{30, 20 + (t - 30)});
  }
  const auto whole = light::spot::word_polygon(b, 0, 1);
  ASSERT_EQ(whole.size(), 16u);
  for (int k = 0; k < 8; ++k) {
    EXPECT_NEAR(whole[k].x, b.lower[k].x, 1e-9);
    EXPECT_NEAR(whole[k].y, b.lower[k].y, 1e-9);
    EXPECT_NEAR(whole[15 - k].x, b.upper[k].x, 1e-9);
  }
  // The second half starts halfway along (35 px of 70), 5 px past the corner, and ends at the end.
  const auto second = light::spot::word_polygon(b, 0.5, 1);
  EXPECT_NEAR(second[0].x, 30, 1e-9);
  EXPECT_NEAR(second[0].y, 25, 1e-9);
  EXPECT_NEAR(second[15].y, 15, 1e-9);
  EXPECT_NEAR(second[7].y, 60, 1e-9);
  EXPECT_NEAR(second[8].y, 50, 1e-9);
}

}  // namespace

TEST(TextBoxes, ALargeLineReadAsItIsReplacesWhatTheEnlargedReadingMadeOfItOnlyWhereThatFoundPiecesOrABlob) {
  auto box = [](double cx, double cy, double len, double hgt) {
    TextBox b;
    b.corners = light::spot::reading_corners(cx, cy, len, hgt, 0);
    return b;
  };
  const TextBox large = box(200, 100, 150, 30), small = box(200, 300, 60, 10);
  // Enlarged, the large line came out as a blob three times its height and a letter of it; the small
  // line was found again.
  std::vector<TextBox> enlarged = {box(200, 95, 160, 95), box(140, 100, 15, 12), box(200, 300, 62, 11)};
  auto out = light::spot::merge_large_lines(enlarged, {large, small}, 25, 0.7);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(out[0].height(), 11, 1e-9);  // the small line as the enlarged reading found it
  EXPECT_NEAR(out[1].height(), 30, 1e-9);  // the large line as read at 1
  // Where the enlarged reading found the large line itself (like height), it stays as it is.
  enlarged = {box(200, 100, 148, 33)};
  out = light::spot::merge_large_lines(enlarged, {large}, 25, 0.7);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].height(), 33, 1e-9);
  // Where it found nothing there, the large line is added.
  out = light::spot::merge_large_lines({}, {large}, 25, 0.7);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].length(), 150, 1e-9);
}

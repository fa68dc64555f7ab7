// The spotter's pipeline: text lines from a probability map, reading a line (CTC, words), word
// polygons, and `light spot` end to end on the bundled synthetic tile (the evaluator's numbers).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "light/error.h"
#include "light/data/word_crops.h"
#include "light/eval/evaluator.h"
#include "light/image/resize.h"
#include "light/maptext.h"
#include "light/spot/reading.h"
#include "light/spot/spotter.h"
#include "light/spot/text_boxes.h"
#include "test_util.h"

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
  const std::vector<float> bunch = map_with_squares(120, 120, {Point{40, 40}, Point{70, 40}, Point{55, 65}, Point{40, 90}}, 8);
  EXPECT_EQ(light::spot::join_spaced_letters(light::spot::text_boxes(bunch.data(), 120, 120, off), {}).size(), 4u);
}

TextBox line_box(double cx, double cy, double along, double across, double deg) {
  TextBox b;
  b.corners = light::spot::reading_corners(cx, cy, along, across, deg * M_PI / 180);
  b.score = 0.9;
  return b;
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

// A dictionary of "a", "b", "é", "中", ".": classes blank, a, b, é, 中, ., space.
light::spot::Dictionary small_dictionary() {
  const std::string dir = light::test::temp_dir();
  light::test::write_text(dir + "/keys.txt", "a\nb\n\xC3\xA9\n\xE4\xB8\xAD\n.\n");
  return light::spot::Dictionary(dir + "/keys.txt", 7);
}

TEST(Reading, TheLatinAlphabetKeepsAccentedLettersAndPunctuationAndDropsHan) {
  const auto d = small_dictionary();
  EXPECT_EQ(d.space(), 6);
  EXPECT_EQ(d.text(3), "\xC3\xA9");
  const std::vector<bool> latin = d.allowed("latin");
  EXPECT_EQ(latin, (std::vector<bool>{true, true, true, true, false, true, true}));
  EXPECT_EQ(d.allowed("all"), std::vector<bool>(7, true));
  EXPECT_THROW(d.allowed("greek"), light::Error);
  const std::string dir = light::test::temp_dir();
  light::test::write_text(dir + "/keys.txt", "a\n");
  EXPECT_THROW(light::spot::Dictionary(dir + "/keys.txt", 7), light::Error);  // 1 + 2 classes, not 7
}

light::model::StepClasses steps(const std::vector<int>& ids, const std::vector<float>& space = {}) {
  light::model::StepClasses s;
  s.steps = static_cast<int>(ids.size());
  s.ids = ids;
  s.probs.assign(ids.size(), 0.9f);
  s.space = space.empty() ? std::vector<float>(ids.size(), 0.0f) : space;
  return s;
}

TEST(Reading, CtcCollapsesRunsAndKeepsWhereEachCharacterLies) {
  const auto d = small_dictionary();
  // a a _ a b b _ _ b : "a", "a", "b", "b" (a blank separates the repeated letters)
  const auto chars = light::spot::decode_ctc(steps({1, 1, 0, 1, 2, 2, 0, 0, 2}), d);
  ASSERT_EQ(chars.size(), 4u);
  EXPECT_EQ(chars[0].text + chars[1].text + chars[2].text + chars[3].text, "aabb");
  EXPECT_EQ(chars[0].start, 0);
  EXPECT_EQ(chars[0].end, 2);
  EXPECT_EQ(chars[2].start, 4);
  EXPECT_EQ(chars[2].end, 6);
  EXPECT_EQ(chars[3].start, 8);
}

TEST(Reading, WordsSplitAtReadSpacesHeardSpacesAndWideGapsOnly) {
  const auto d = small_dictionary();
  auto texts = [&](const light::model::StepClasses& s) {
    std::vector<std::string> out;
    for (const auto& w : light::spot::split_words(light::spot::decode_ctc(s, d), s.space, s.steps)) out.push_back(w.text);
    return out;
  };
  using V = std::vector<std::string>;
  // Even pitch of 2 steps, no space: one word.
  EXPECT_EQ(texts(steps({1, 0, 2, 0, 1, 0, 2, 0})), (V{"abab"}));
  // A space read.
  EXPECT_EQ(texts(steps({1, 0, 2, 6, 1, 0, 2, 0})), (V{"ab", "ab"}));
  // A space heard (its probability 0.3 on a blank step between two letters).
  EXPECT_EQ(texts(steps({1, 0, 2, 0, 1, 0, 2, 0}, {0, 0, 0, 0.3f, 0, 0, 0, 0})), (V{"ab", "ab"}));
  // A wide gap: centres 2 steps apart, then 6.
  EXPECT_EQ(texts(steps({1, 0, 2, 0, 0, 0, 0, 0, 1, 0, 2, 0})), (V{"ab", "ab"}));
  // A wide letter before narrow ones ("Mill"): centres 4.5 steps apart, then 2: one word (4.5 is
  // under the median pitch + 3 steps).
  EXPECT_EQ(texts(steps({1, 1, 0, 0, 0, 2, 0, 2, 0, 2})), (V{"abbb"}));
  // Letter-spaced: every gap wide alike, no split.
  EXPECT_EQ(texts(steps({1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2})), (V{"abab"}));
  // Extents: two words cover the line from its start to its end, the break between them.
  const auto s = steps({1, 0, 2, 6, 1, 0, 2, 0});
  const auto words = light::spot::split_words(light::spot::decode_ctc(s, d), s.space, 8);
  ASSERT_EQ(words.size(), 2u);
  EXPECT_EQ(words[0].from, 0);
  EXPECT_EQ(words[1].to, 1);
  EXPECT_LE(words[0].to, words[1].from + 1e-9);
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

TEST(Spotter, ReadsTheBundledSyntheticTileAsTheEvaluatorMeasuredIt) {
  light::spot::Spotter spotter(light::test::source_path("models/spotter"));
  const auto img = light::image::read_rgb(light::test::source_path("data/synth-example/topographic-1500.png"));
  light::maptext::Tile tile;
  tile.image = "topographic-1500.png";
  for (const auto& w : spotter.spot(img)) {
    ASSERT_EQ(w.polygon.size(), 16u);
    light::maptext::Word word;
    word.vertices = w.polygon;
    word.text = w.text;
    tile.groups.push_back({word});
  }
  const auto gt = light::maptext::read_maptext(light::test::source_path("data/synth-example/annotations.json"), {});
  light::eval::Options o;
  o.task = light::eval::Task::DetRec;
  const auto report = light::eval::evaluate(gt, {tile}, o);
  std::map<std::string, double> m(report.overall.begin(), report.overall.end());
  // Measured 2026-11-26: F 0.92, characters 0.955 (the recogniser fine-tuned on lines; the released
  // PP-OCRv4 weights, models/ppocr-v4: F 0.93, characters 0.975).
  EXPECT_GT(m.at("fscore"), 0.88);
  EXPECT_GT(m.at("char_accuracy"), 0.94);
}

TEST(Spotter, ReadsANameAtSixtyDegreesWholeOnlyWhenItAlsoReadsTheMapTurned) {
  // A crop of a held-out synthetic tile (seed 2215): "Grand Creek" set at 60 degrees. Read upright
  // only, the detector's line of "Creek" stops short and the word comes out "Cre".
  const auto img = light::image::read_rgb(light::test::source_path("tests/data/spot/grand-creek-at-60-degrees.jpg"));
  auto creek = [](const std::vector<light::spot::SpottedWord>& words) -> const light::spot::SpottedWord* {
    for (const auto& w : words)  // the word whose polygon's centre lies on "Creek" (about 176, 232)
      if (std::abs((w.polygon[0].x + w.polygon[8].x) / 2 - 176) < 20 && std::abs((w.polygon[0].y + w.polygon[8].y) / 2 - 232) < 20) return &w;
    return nullptr;
  };
  light::spot::SpotOptions upright;
  upright.turned_pass = false;
  light::spot::Spotter one_way(light::test::source_path("models/spotter"), {}, upright);
  const auto seen_upright = one_way.spot(img);
  ASSERT_NE(creek(seen_upright), nullptr);
  EXPECT_EQ(creek(seen_upright)->text, "Cre");
  light::spot::Spotter both_ways(light::test::source_path("models/spotter"));
  const auto seen = both_ways.spot(img);
  ASSERT_NE(creek(seen), nullptr);
  EXPECT_EQ(creek(seen)->text, "Creek");
  ASSERT_EQ(seen.size(), 2u);  // and "Grand" (the "X" on the road is missed either way)
  EXPECT_TRUE(seen[0].text == "Grand" || seen[1].text == "Grand");
}

TEST(Spotter, FindsWordsSetAlongACurveOnlyWithEdgesThatBendWithTheLine) {
  // A crop of a calibration tile (seed 2221): "Lake Lone Tree" set along an arc. Its line's
  // rectangle spans the arc: each word's share of it lies off the word (IoU 0.3-0.45), so none was
  // found; edges that follow the line place all three.
  const auto img = light::image::read_rgb(light::test::source_path("tests/data/spot/lake-lone-tree-on-a-curve.jpg"));
  const auto gt = light::maptext::read_maptext(light::test::source_path("tests/data/spot/lake-lone-tree-on-a-curve.json"), {});
  auto found = [&](light::spot::Spotter& spotter) {
    light::maptext::Tile tile;
    tile.image = gt[0].image;
    for (const auto& w : spotter.spot(img)) {
      light::maptext::Word word;
      word.vertices = w.polygon;
      word.text = w.text;
      tile.groups.push_back({word});
    }
    light::eval::Options o;
    o.task = light::eval::Task::DetRec;
    const auto report = light::eval::evaluate(gt, {tile}, o);
    return std::map<std::string, double>(report.overall.begin(), report.overall.end());
  };
  light::spot::SpotOptions rectangles;
  rectangles.boxes.bend = 0;
  light::spot::Spotter straight(light::test::source_path("models/spotter"), {}, rectangles);
  EXPECT_LT(found(straight).at("recall"), 0.5);
  light::spot::Spotter bending(light::test::source_path("models/spotter"));
  const auto m = found(bending);
  EXPECT_EQ(m.at("recall"), 1.0);
  EXPECT_EQ(m.at("precision"), 1.0);
  EXPECT_EQ(m.at("char_accuracy"), 1.0);
}

TEST(SpotCommand, RefusesAnImageThatIsNotOneNamingItAndWritesNothing) {
  const std::string dir = light::test::temp_dir();
  light::test::write_text(dir + "/notes.png", "these are not pixels");
  auto r = light::test::run_light("spot --images " + light::test::q(dir + "/notes.png") + " -o " + light::test::q(dir + "/out.json"));
  light::test::expect_error(r, dir + "/notes.png");
  EXPECT_FALSE(light::test::file_exists(dir + "/out.json"));
  light::test::write_text(dir + "/empty.png", "");
  r = light::test::run_light("spot --images " + light::test::q(dir + "/empty.png") + " -o " + light::test::q(dir + "/out.json"));
  light::test::expect_error(r, dir + "/empty.png");
  EXPECT_FALSE(light::test::file_exists(dir + "/out.json"));
  // A PNG header claiming 100,000 x 100,000 px.
  const auto be32 = [](uint32_t v) { return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)}; };
  const std::string ihdr = be32(100000) + be32(100000) + std::string("\x08\x02\x00\x00\x00", 5);
  light::test::write_text(dir + "/huge.png", std::string("\x89PNG\r\n\x1a\n", 8) + be32(13) + "IHDR" + ihdr + be32(0) + be32(0) + "IEND" + be32(0));
  r = light::test::run_light("spot --images " + light::test::q(dir + "/huge.png") + " -o " + light::test::q(dir + "/out.json"));
  light::test::expect_error(r, dir + "/huge.png");
  EXPECT_FALSE(light::test::file_exists(dir + "/out.json"));
}

TEST(SpotCommand, RefusesACorruptModelFileNamingItAndWritesNothing) {
  const std::string dir = light::test::temp_dir();
  std::filesystem::create_directories(dir + "/spotter");
  for (const char* f : {"detector.safetensors", "recognizer.safetensors", "keys.txt"})
    std::filesystem::copy_file(light::test::source_path("models/spotter/") + f, dir + "/spotter/" + f);
  std::filesystem::resize_file(dir + "/spotter/recognizer.safetensors", 4096);  // cut short
  const auto r = light::test::run_light("spot --spotter " + light::test::q(dir + "/spotter") + " --images " +
                                        light::test::q(light::test::source_path("data/synth-example/topographic-1500.png")) + " -o " +
                                        light::test::q(dir + "/out.json"));
  light::test::expect_error(r, dir + "/spotter/recognizer.safetensors");
  EXPECT_FALSE(light::test::file_exists(dir + "/out.json"));
}

}  // namespace

namespace {

TEST(SpotCommand, SpotsItsShareOfAFolderOfMapsAndRefusesABadShare) {
  const std::string dir = light::test::temp_dir();
  std::filesystem::create_directories(dir + "/maps");
  for (const char* name : {"a.jpg", "b.jpg", "c.jpg"})
    std::filesystem::copy_file(light::test::source_path("data/schagen-1689/schagen-1689-europe-africa.jpg"), dir + "/maps/" + name);
  // Two shards: every map read once, by one of them (by a hash of its name: b, then a and c).
  std::vector<std::string> seen;
  for (const char* k : {"1", "2"}) {
    const std::string out = dir + "/w" + k + ".json";
    const auto r = light::test::run_light("spot --images " + light::test::q(dir + "/maps") + " --shard " + k + "/2 -o " + light::test::q(out) +
                                          " -q --threads 1");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const auto& t : light::maptext::read_maptext(out, {light::maptext::Kind::Predictions, true})) {
      seen.push_back(t.image);
      EXPECT_GT(t.groups.size(), 20u);
    }
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"a.jpg", "b.jpg", "c.jpg"}));
  const auto r = light::test::run_light("spot --images " + light::test::q(dir + "/maps") + " --shard 3/2 -o " + light::test::q(dir + "/x.json"));
  light::test::expect_error(r, "--shard");
  EXPECT_FALSE(light::test::file_exists(dir + "/x.json"));
}

TEST(LinkFromImages, WithoutWordsTheSpotterReadsTheMapAndTheModelLinksItsWords) {
  const std::string dir = light::test::temp_dir();
  std::filesystem::create_directories(dir + "/maps");
  std::filesystem::copy_file(light::test::source_path("data/synth-example/topographic-1500.png"), dir + "/maps/topographic-1500.png");
  const auto r = light::test::run_light("link --images " + light::test::q(dir + "/maps") + " -o " + light::test::q(dir + "/linked.json") + " -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto linked = light::maptext::read_maptext(dir + "/linked.json", {light::maptext::Kind::Predictions, true});
  ASSERT_EQ(linked.size(), 1u);
  std::vector<std::string> phrases;
  for (const auto& g : linked[0].groups) {
    std::string p;
    for (const auto& w : g) p += (p.empty() ? "" : " ") + *w.text;
    phrases.push_back(p);
  }
  EXPECT_NE(std::find(phrases.begin(), phrases.end(), "CARSON COUNTY"), phrases.end());
  EXPECT_NE(std::find(phrases.begin(), phrases.end(), "Lake of the Isles"), phrases.end());
  const auto gt = light::maptext::read_maptext(light::test::source_path("data/synth-example/annotations.json"), {});
  light::eval::Options o;
  o.task = light::eval::Task::DetRecEdges;
  const auto report = light::eval::evaluate(gt, linked, o);
  std::map<std::string, double> m(report.overall.begin(), report.overall.end());
  EXPECT_GT(m.at("edges_fscore"), 0.7);  // measured 0.82 (the ground-truth words linked: 0.94)
  // A heuristic links only words it is given.
  const auto h = light::test::run_light("link --method distance --images " + light::test::q(dir + "/maps") + " -o " +
                                        light::test::q(dir + "/h.json"));
  light::test::expect_error(h, "give --words");
  EXPECT_FALSE(light::test::file_exists(dir + "/h.json"));
}

}  // namespace

namespace {

TEST(StraightenWord, ACurvedBandComesOutAsAStraightStripOfItsLengthOverItsThickness) {
  // A white image with a black ring segment (radii 84 to 96 around (150, 150), the upper half
  // circle): a word written along an arc. Its polygon: the lower (inner) edge left to right, then the
  // upper (outer) edge back, 8 points each.
  light::image::RgbImage img;
  img.width = 300;
  img.height = 200;
  img.rgb.assign(static_cast<size_t>(300) * 200 * 3, 255);
  for (int y = 0; y < 200; ++y)
    for (int x = 0; x < 300; ++x) {
      const double r = std::hypot(x - 150.0, y - 150.0);
      if (r > 84 && r < 96 && y < 150)
        for (int c = 0; c < 3; ++c) img.rgb[(static_cast<size_t>(y) * 300 + x) * 3 + c] = 0;
    }
  std::vector<Point> poly;
  for (int k = 0; k < 8; ++k) {
    const double a = M_PI - M_PI * k / 7;
    poly.push_back({150 + 80 * std::cos(a), 150 - 80 * std::sin(a)});
  }
  for (int k = 7; k >= 0; --k) {
    const double a = M_PI - M_PI * k / 7;
    poly.push_back({150 + 100 * std::cos(a), 150 - 100 * std::sin(a)});
  }
  const auto strip = light::data::straighten_word(img, poly, 48, 2000);
  // Mean edge length (chords of both arcs) over the thickness 20: about 283 / 20 x 48.
  EXPECT_NEAR(strip.width, 48 * 283.0 / 20, 48 * 1.0);
  // The band fills the strip's middle rows end to end, and its border rows are white.
  auto dark = [&](int y) {
    int n = 0;
    for (int x = 0; x < strip.width; ++x) n += strip.rgb[(static_cast<size_t>(y) * strip.width + x) * 3] < 128;
    return static_cast<double>(n) / strip.width;
  };
  EXPECT_GT(dark(24), 0.95);
  EXPECT_LT(dark(1), 0.2);
  EXPECT_LT(dark(46), 0.2);
}

TEST(Dictionary, SpellsTextsAsClassIdsAndRefusesWhatItCannotSpell) {
  const auto d = small_dictionary();
  EXPECT_EQ(d.encode("ab a\xC3\xA9"), (std::vector<int>{1, 2, 6, 1, 3}));
  EXPECT_FALSE(d.encode("abc").has_value());
}

TEST(TrainSpotter, FineTunesTheRecogniserIntoASpotterFolderAndResumes) {
  const std::string dir = light::test::temp_dir();
  const std::string gt = light::test::source_path("data/synth-example/annotations.json");
  const std::string images = light::test::source_path("data/synth-example");
  auto r = light::test::run_light("train-spotter --train " + light::test::q(gt) + " --train-images " + light::test::q(images) + " --val " +
                                  light::test::q(gt) + " --val-images " + light::test::q(images) + " --out " + light::test::q(dir + "/run") +
                                  " --max-words 40 --max-epochs 1 --batch-size 8 --threads 1 -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"best/detector.safetensors", "best/recognizer.safetensors", "best/keys.txt", "last.safetensors", "log.jsonl"})
    EXPECT_TRUE(light::test::file_exists(dir + "/run/" + f)) << f;
  // The run goes on from its last epoch; the same folder without --resume is refused.
  r = light::test::run_light("train-spotter --train " + light::test::q(gt) + " --train-images " + light::test::q(images) + " --val " +
                             light::test::q(gt) + " --val-images " + light::test::q(images) + " --out " + light::test::q(dir + "/run") +
                             " --max-words 40 --max-epochs 2 --batch-size 8 --threads 1 -q --resume");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string log = light::test::read_text(dir + "/run/log.jsonl");
  EXPECT_NE(log.find("\"epoch\":1"), std::string::npos);
  EXPECT_NE(log.find("\"epoch\":2"), std::string::npos);
  r = light::test::run_light("train-spotter --train " + light::test::q(gt) + " --train-images " + light::test::q(images) + " --val " +
                             light::test::q(gt) + " --val-images " + light::test::q(images) + " --out " + light::test::q(dir + "/run") + " -q");
  light::test::expect_error(r, dir + "/run (--out): exists");
  // The fine-tuned folder is a spotter `light spot` reads with.
  r = light::test::run_light("spot --spotter " + light::test::q(dir + "/run/best") + " --images " +
                             light::test::q(images + "/topographic-1500.png") + " -o " + light::test::q(dir + "/w.json") + " -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(TrainSpotter, FineTunesTheDetectorOnWordKernelsIntoASpotterFolder) {
  const std::string dir = light::test::temp_dir();
  const std::string gt = light::test::source_path("data/synth-example/annotations.json");
  const std::string images = light::test::source_path("data/synth-example");
  const std::string common = "train-spotter --part detector --train " + light::test::q(gt) + " --train-images " + light::test::q(images) +
                             " --val " + light::test::q(gt) + " --val-images " + light::test::q(images) + " --threads 1 -q";
  // A crop side the detector cannot read (not a multiple of 32) is refused, nothing written.
  auto r = light::test::run_light(common + " --crop 100 --out " + light::test::q(dir + "/bad"));
  light::test::expect_error(r, "--crop");
  EXPECT_FALSE(light::test::file_exists(dir + "/bad"));
  r = light::test::run_light(common + " --crop 128 --steps 2 --batch-size 2 --max-epochs 1 --out " + light::test::q(dir + "/run"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"best/detector.safetensors", "best/recognizer.safetensors", "best/keys.txt", "last.safetensors", "state.json"})
    EXPECT_TRUE(light::test::file_exists(dir + "/run/" + f)) << f;
  const std::string log = light::test::read_text(dir + "/run/log.jsonl");
  EXPECT_NE(log.find("\"epoch\":1"), std::string::npos);
  EXPECT_NE(log.find("\"val_pixel_f\""), std::string::npos);
  // The recogniser is the starting spotter's, unchanged.
  EXPECT_EQ(light::test::read_text(dir + "/run/best/recognizer.safetensors"),
            light::test::read_text(light::test::source_path("models/spotter/recognizer.safetensors")));
  r = light::test::run_light("spot --spotter " + light::test::q(dir + "/run/best") + " --images " +
                             light::test::q(images + "/topographic-1500.png") + " -o " + light::test::q(dir + "/w.json") + " -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace

// The spotter's pipeline: text lines from a probability map, reading a line (CTC, words), word
// polygons, and `light spot` end to end on the bundled synthetic tile (the evaluator's numbers).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "light/error.h"
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

TEST(TextBoxes, DropBarsBelowTheBoxThresholdAndSpecks) {
  std::vector<float> p = map_with_bar(120, 80, 60, 40, 60, 10, 0);
  for (float& v : p)
    if (v > 0.5f) v = 0.45f;  // above the pixel threshold 0.3, below the box threshold 0.6
  EXPECT_TRUE(light::spot::text_boxes(p.data(), 80, 120, {}).empty());
  const std::vector<float> speck = map_with_bar(120, 80, 60, 40, 2, 2, 0);
  EXPECT_TRUE(light::spot::text_boxes(speck.data(), 80, 120, {}).empty());
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
  // Measured 2026-11-26 with the released PP-OCRv4 weights: F 0.93, characters 0.975.
  EXPECT_GT(m.at("fscore"), 0.88);
  EXPECT_GT(m.at("char_accuracy"), 0.95);
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
}

}  // namespace

namespace {

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

// Scale windows (data/scale_windows.h): reading frames, window plans, centrality, words cut to a window
// with their links beyond it marked, padded crops, and the merge that keeps each word's most central rows.
#include <gtest/gtest.h>

#include <cmath>

#include "light/data/scale_windows.h"
#include "light/error.h"
#include "light/geometry/polygon.h"
#include "light/image/resize.h"

using namespace light;

namespace {
maptext::Word box_word(double x0, double y0, double x1, double y1, const std::string& text) {
  maptext::Word w;
  w.vertices = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  w.text = text;
  return w;
}
}  // namespace

TEST(ReadingFrame, ABoxRunsFromItsLeftEdgeToItsRightEdgeWithItsHeight) {
  const auto f = geometry::reading_frame({{10, 20}, {110, 20}, {110, 50}, {10, 50}});
  EXPECT_DOUBLE_EQ(f.start.x, 10);
  EXPECT_DOUBLE_EQ(f.start.y, 35);
  EXPECT_DOUBLE_EQ(f.end.x, 110);
  EXPECT_DOUBLE_EQ(f.end.y, 35);
  EXPECT_DOUBLE_EQ(f.height, 30);
}

TEST(ReadingFrame, ARotatedSixteenPointBandKeepsItsDirectionAndThickness) {
  // A 200 x 20 band along the direction (0.6, 0.8): 8 points on the top edge, 8 back on the bottom.
  const double ux = 0.6, uy = 0.8, vx = -0.8, vy = 0.6;
  geometry::Polygon p;
  for (int k = 0; k < 8; ++k) p.push_back({100 + ux * 200 * k / 7, 100 + uy * 200 * k / 7});
  for (int k = 7; k >= 0; --k) p.push_back({100 + ux * 200 * k / 7 + vx * 20, 100 + uy * 200 * k / 7 + vy * 20});
  const auto f = geometry::reading_frame(p);
  EXPECT_NEAR(f.height, 20, 1e-9);
  EXPECT_NEAR((f.end.x - f.start.x) / 200, ux, 1e-9);
  EXPECT_NEAR((f.end.y - f.start.y) / 200, uy, 1e-9);
}

TEST(ScaleWindows, TheSideIsTheMedianWordHeightOverTheFraction) {
  maptext::Tile t;
  t.image = "t.png";
  t.groups = {{box_word(0, 0, 50, 10, "a"), box_word(60, 0, 90, 20, "b")}, {box_word(0, 100, 40, 130, "c")}};
  EXPECT_DOUBLE_EQ(data::median_word_height(t), 20);
  EXPECT_DOUBLE_EQ(data::window_side(t, 0.02), 1000);
  EXPECT_THROW(data::window_side(t, 0), Error);
}

TEST(ScaleWindows, PlansCoverTheTileWithStartsAtMostAHalfSideApart) {
  const auto one = data::plan_regions(800, 600, 1000);
  ASSERT_EQ(one.size(), 1u);  // smaller than a window: one window reaching beyond the tile
  EXPECT_DOUBLE_EQ(one[0].x1, 1000);
  const auto grid = data::plan_regions(2500, 1000, 1000);
  // x: span 1500, stride 500 -> starts 0, 500, 1000, 1500; y: one row.
  ASSERT_EQ(grid.size(), 4u);
  EXPECT_DOUBLE_EQ(grid[1].x0, 500);
  EXPECT_DOUBLE_EQ(grid[3].x1, 2500);
  const auto uneven = data::plan_regions(2200, 2200, 1000);  // span 1200 -> 4 starts 400 apart each way
  ASSERT_EQ(uneven.size(), 16u);
  EXPECT_DOUBLE_EQ(uneven[1].x0, 400);
  EXPECT_DOUBLE_EQ(uneven[4].y0, 400);
  EXPECT_THROW(data::plan_regions(100, 100, 0), Error);
}

TEST(ScaleWindows, WindowsGrowByAtMostTheSlackWhenThatMakesFewer) {
  // 2000 x 2000 with 1050 px windows: 3 x 3; from 2000 / 1.5 = 1333.3 px (1.27 sides) 2 x 2 do.
  const double s = data::fewest_windows_side(2000, 2000, 1050, 1.3);
  EXPECT_NEAR(s, 2000.0 / 1.5, 1e-6);
  EXPECT_EQ(data::plan_regions(2000, 2000, s).size(), 4u);
  EXPECT_EQ(data::plan_regions(2000, 2000, 1050).size(), 9u);
  // 700 px: 5 x 5; the fewest within 910 px is 4 x 4, from 2000 / 2.5 = 800 px.
  EXPECT_NEAR(data::fewest_windows_side(2000, 2000, 700, 1.3), 800.0, 1e-6);
  // 1000 px: 3 x 3, and still 3 x 3 at 1300 px: unchanged.
  EXPECT_DOUBLE_EQ(data::fewest_windows_side(2000, 2000, 1000, 1.3), 1000.0);
  // Each axis on its own: 2000 x 600 with 700 px windows, 5 x 1 -> 4 x 1 from 800 px.
  EXPECT_NEAR(data::fewest_windows_side(2000, 600, 700, 1.3), 800.0, 1e-6);
  EXPECT_THROW(data::fewest_windows_side(100, 100, 0, 1.3), Error);
  EXPECT_THROW(data::fewest_windows_side(100, 100, 50, 0.9), Error);
}

TEST(ScaleWindows, CentralityIgnoresTheTilesOwnEdges) {
  const data::Region corner{0, 0, 1000, 1000}, middle{1000, 0, 2000, 1000};
  // The corner window's left and top edges are the tile's: a word near them is as central as can be.
  EXPECT_DOUBLE_EQ(data::centrality(corner, 3000, 3000, 10, 10), 0.5);
  EXPECT_DOUBLE_EQ(data::centrality(corner, 3000, 3000, 900, 100), 0.1);
  EXPECT_DOUBLE_EQ(data::centrality(middle, 3000, 3000, 1100, 500), 0.1);
  EXPECT_DOUBLE_EQ(data::centrality(middle, 3000, 3000, 1500, 500), 0.5);
}

TEST(ScaleWindows, AWindowKeepsTheWordsCentredInItAndMarksLinksBeyondIt) {
  maptext::Tile t;
  t.image = "t.png";
  // One phrase of three words across x = 500; a second phrase inside.
  t.groups = {{box_word(300, 100, 400, 120, "A"), box_word(450, 100, 540, 120, "B"), box_word(600, 100, 700, 120, "C")},
              {box_word(100, 300, 200, 320, "D"), box_word(210, 300, 300, 320, "E")}};
  const data::Region r{0, 0, 500, 500};
  data::SelectOptions so;
  so.region = &r;
  const auto words = data::select_words(t, 2000, 1000, so);
  ASSERT_EQ(words.size(), 4u);  // A, B (centre 495), D, E; C's centre 650 lies beyond
  // Test order (y, x): A, B, D, E.
  EXPECT_EQ(words[0].text, "A");
  EXPECT_EQ(words[1].text, "B");
  EXPECT_TRUE(words[1].next_outside);   // B -> C
  EXPECT_FALSE(words[1].prev_outside);  // A is inside
  EXPECT_FALSE(words[0].next_outside);
  EXPECT_FALSE(words[2].next_outside || words[3].prev_outside);
  // Boxes and polygons in the window's frame: 0..1000 and 0..1 over its 500 px.
  EXPECT_EQ(words[0].bbox[0], 600);
  EXPECT_EQ(words[0].bbox[2], 800);
  EXPECT_FLOAT_EQ(words[0].polygon[0], 0.6f);
  EXPECT_FLOAT_EQ(words[0].polygon[1], 0.2f);
  // Without a window nothing is marked and the frame is the tile's.
  const auto all = data::select_words(t, 2000, 1000, {});
  ASSERT_EQ(all.size(), 5u);
  for (const auto& w : all) EXPECT_FALSE(w.next_outside || w.prev_outside);
  EXPECT_EQ(all[0].bbox[0], 150);
}

TEST(ScaleWindows, CropsArePaddedWhiteBeyondTheImage) {
  image::RgbImage img;
  img.width = 2, img.height = 2;
  img.rgb = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const auto c = image::crop_padded(img, 1, 1, 2, 2);
  EXPECT_EQ(c.rgb, (std::vector<uint8_t>{10, 11, 12, 255, 255, 255, 255, 255, 255, 255, 255, 255}));
  const auto d = image::crop_padded(img, -1, 0, 2, 1);
  EXPECT_EQ(d.rgb, (std::vector<uint8_t>{255, 255, 255, 1, 2, 3}));
}

TEST(ScaleWindows, TheMergeKeepsEachWordsRowsFromItsMostCentralWindow) {
  data::WindowMerge m(3);
  // Window 1 holds words 0 and 1; window 2 words 1 and 2, with word 1 more central there.
  m.add({0, 1}, {0.4, 0.1}, {0.2f, 0.8f, 0.3f, 0.7f}, {1, 0, 0, 1});
  m.add({1, 2}, {0.3, 0.2}, {0.1f, 0.9f, 0.5f, 0.5f}, {1, 0, 0, 1});
  // Read densely: entries outside a word's window are 0.
  auto dense = [](const data::SparseRows& s) {
    std::vector<float> d;
    for (int i = 0; i < s.n; ++i)
      for (int j = 0; j < s.n; ++j) d.push_back(s.at(i, j));
    return d;
  };
  data::SparseRows P, Q;
  m.finish(P, Q);
  EXPECT_EQ(dense(P), (std::vector<float>{0.2f, 0.8f, 0, 0, 0.1f, 0.9f, 0, 0.5f, 0.5f}));
  EXPECT_EQ(P.rows[0].size(), 2u);  // only the window's words are stored
  // A no-successor bias multiplies each word's own entries, in both directions.
  data::SparseRows Pb, Qb;
  m.finish(Pb, Qb, 3.0);
  EXPECT_FLOAT_EQ(Pb.at(0, 0), 0.6f);
  EXPECT_FLOAT_EQ(Pb.at(1, 1), 0.3f);
  EXPECT_FLOAT_EQ(Pb.at(0, 1), 0.8f);
  EXPECT_FLOAT_EQ(Qb.at(0, 0), 3.0f);
  data::WindowMerge empty(2);
  empty.finish(P, Q);
  EXPECT_EQ(dense(P), (std::vector<float>{1, 0, 0, 1}));  // a word no window held ends alone
  EXPECT_THROW(empty.add({5}, {0.1}, {1}, {1}), Error);
}

TEST(ScaleWindows, TheMergeReachesWordsBeyondTheMostCentralWindowFromTheNextMostCentralHoldingBoth) {
  // Word 1 is most central in window 2 ({1, 2}); word 0 lies outside it, held with word 1 by window 1
  // (word 1's centrality 0.1) and window 3 (0.2).
  const auto fill = [](data::WindowMerge& m) {
    m.add({0, 1}, {0.4, 0.1}, {0.2f, 0.8f, 0.3f, 0.7f}, {1, 0, 0, 1});
    m.add({1, 2}, {0.3, 0.2}, {0.1f, 0.9f, 0.5f, 0.5f}, {1, 0, 0, 1});
    m.add({1, 0}, {0.2, 0.05}, {0.4f, 0.6f, 0.9f, 0.1f}, {0.5f, 0.25f, 0, 1});
  };
  const auto dense = [](const data::SparseRows& s) {
    std::vector<float> d;
    for (int i = 0; i < s.n; ++i)
      for (int j = 0; j < s.n; ++j) d.push_back(s.at(i, j));
    return d;
  };
  data::WindowMerge none(3), once(3, 1.0), half(3, 0.5);
  fill(none), fill(once), fill(half);
  data::SparseRows P, Q;
  none.finish(P, Q);  // the most central window's words only: word 1 never reaches word 0
  EXPECT_EQ(dense(P), (std::vector<float>{0.2f, 0.8f, 0, 0, 0.1f, 0.9f, 0, 0.5f, 0.5f}));
  once.finish(P, Q);  // word 1 -> 0 read in window 3, where word 1 is more central than in window 1
  EXPECT_EQ(dense(P), (std::vector<float>{0.2f, 0.8f, 0, 0.6f, 0.1f, 0.9f, 0, 0.5f, 0.5f}));
  EXPECT_FLOAT_EQ(Q.at(1, 0), 0.25f);
  EXPECT_EQ(P.rows[1].front().first, 0);  // columns stay ascending
  half.finish(P, Q, 2.0);  // times the factor; the no-successor bias only on the word's own entry
  EXPECT_FLOAT_EQ(P.at(1, 0), 0.3f);
  EXPECT_FLOAT_EQ(P.at(1, 1), 0.2f);
  EXPECT_THROW(data::WindowMerge(3, -1.0), Error);
}

TEST(ScaleWindows, InferenceWindowsHoldEveryWordAndScaleTheFrame) {
  maptext::Tile t;
  t.image = "t.png";
  // 20-px words spread over a 3000 x 1000 tile: windows of 20 / 0.02 = 1000 px.
  for (int g = 0; g < 6; ++g) t.groups.push_back({box_word(100 + 450 * g, 400, 300 + 450 * g, 420, "w" + std::to_string(g))});
  image::RgbImage img;
  img.width = 300, img.height = 100;  // the tile at 0.1 of its size
  img.rgb.assign(300 * 100 * 3, 128);
  const auto words = data::select_words(t, 3000, 1000, {});
  const data::Tokenize tok = [](const std::string& w) { return std::vector<int64_t>(w.size(), 7); };
  const auto windows = data::inference_windows(t, 3000, 1000, words, img, 0.1, tok, 100, {}, 0.02, 32);
  // 1000 px windows would take 5 (starts 500 apart); grown to 1200 px (within 1.3), 4 do: starts 0,
  // 600, 1200, 1800 (fewest_windows_side), one row.
  ASSERT_EQ(windows.size(), 4u);
  std::vector<double> best(words.size(), 0);
  for (const auto& w : windows) {
    EXPECT_EQ(w.pixels.size(), 3u * 32 * 32);
    EXPECT_DOUBLE_EQ(w.inputs.aspect, 1.0);
    for (size_t a = 0; a < w.index.size(); ++a) best[w.index[a]] = std::max(best[w.index[a]], w.centre[a]);
  }
  for (double b : best) EXPECT_GT(b, 0.15);  // every word well inside some window
  // A tile at most 1.3 window sides long is one window of its longer side.
  const auto slack = data::inference_windows(t, 3000, 1000, words, img, 0.1, tok, 100, {}, 0.0075, 32);  // side 2667
  ASSERT_EQ(slack.size(), 1u);
  EXPECT_EQ(slack[0].index.size(), 6u);
  // A tile smaller than a window: one window of the full side (20 / 0.004 = 5000 px) centred on the
  // tile, white around it, its words at the trained scale (a 200 px word is 40 of 1000 box units).
  const data::InferencePlan big = data::plan_inference(t, 3000, 1000, 0.004);
  EXPECT_DOUBLE_EQ(big.side, 5000.0);
  ASSERT_EQ(big.regions.size(), 1u);
  EXPECT_DOUBLE_EQ(big.regions[0].x0, -1000.0);
  EXPECT_DOUBLE_EQ(big.regions[0].y0, -2000.0);
  const auto padded = data::inference_windows(t, 3000, 1000, words, img, 0.1, tok, 100, {}, 0.004, 32);
  ASSERT_EQ(padded.size(), 1u);
  EXPECT_EQ(padded[0].index.size(), 6u);
  EXPECT_EQ(padded[0].inputs.words[0].bbox[2] - padded[0].inputs.words[0].bbox[0], 40);
  EXPECT_FLOAT_EQ(padded[0].pixels[0], (1.0f - 0.5f) / 0.5f);  // the corner: white paper added around the tile
  // Without windows: the whole tile, its own aspect.
  const auto whole = data::inference_windows(t, 3000, 1000, words, img, 0.1, tok, 100, {}, 0.0, 32);
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_DOUBLE_EQ(whole[0].inputs.aspect, 3.0);
  EXPECT_EQ(whole[0].index.size(), 6u);
}

// How word polygons reach the model (data/model_polygons.h): resample or keep, degenerate polygons
// reported, a 50-point spotter's words fed as their 16-point originals, polygons at a share of their height.
#include <gtest/gtest.h>

#include <cmath>

#include "light/data/inputs.h"
#include "light/data/model_polygons.h"
#include "light/data/synth/spotter.h"
#include "light/error.h"
#include "light/maptext.h"
#include "test_util.h"

using namespace light;
using data::PolygonPoints;

namespace {
maptext::Dataset synth_example() {
  return maptext::read_maptext(test::source_path("data/synth-example/annotations.json"), {maptext::Kind::GroundTruth, false});
}

// The largest difference between the polygon values the model reads for the same words of two tiles
// (model order; both tiles' words must be the same words).
double farthest_inputs(const maptext::Tile& a, const maptext::Tile& b) {
  const auto wa = data::select_words(a, 2000, 2000, {}), wb = data::select_words(b, 2000, 2000, {});
  EXPECT_EQ(wa.size(), wb.size());
  double d = 0;
  for (size_t i = 0; i < std::min(wa.size(), wb.size()); ++i)
    for (size_t k = 0; k < wa[i].polygon.size(); ++k) d = std::max(d, std::fabs(static_cast<double>(wa[i].polygon[k] - wb[i].polygon[k])));
  return d;
}
}  // namespace

TEST(ModelPolygons, NamesAreParsedAndABadOneIsNamedWithItsSource) {
  EXPECT_EQ(data::parse_polygon_points("resample", "x"), PolygonPoints::Resample);
  EXPECT_EQ(data::parse_polygon_points("keep", "x"), PolygonPoints::Keep);
  EXPECT_STREQ(data::polygon_points_name(PolygonPoints::Resample), "resample");
  try {
    data::parse_polygon_points("truncate", "m/config.json: polygon_points");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("m/config.json: polygon_points: expected \"resample\" or \"keep\", got \"truncate\""),
              std::string::npos)
        << e.what();
  }
}

TEST(ModelPolygons, SixteenPointWordsAndTheKeepPolicyLeaveATileAsItIs) {
  const maptext::Tile tile = synth_example()[0];  // every word 16 points
  data::PolygonReport report;
  const maptext::Tile resampled = data::model_polygons(tile, PolygonPoints::Resample, "a.json", &report);
  EXPECT_EQ(maptext::to_json_text({resampled}), maptext::to_json_text({tile}));
  EXPECT_EQ(report.words, tile.word_count());
  EXPECT_EQ(report.resampled, 0u);
  maptext::Tile box = tile;
  box.groups[0][0].vertices = {{10, 40}, {90, 40}, {90, 20}, {10, 20}};
  EXPECT_EQ(maptext::to_json_text({data::model_polygons(box, PolygonPoints::Keep, "a.json")}), maptext::to_json_text({box}));
  const maptext::Tile box16 = data::model_polygons(box, PolygonPoints::Resample, "a.json");
  ASSERT_EQ(box16.groups[0][0].vertices.size(), 16u);
  EXPECT_DOUBLE_EQ(box16.groups[0][0].vertices[1].x, 10 + 80.0 / 7);  // along the lower edge
  EXPECT_DOUBLE_EQ(box16.groups[0][0].vertices[1].y, 40);
  EXPECT_EQ(box16.groups[0][0].text, box.groups[0][0].text);
}

TEST(ModelPolygons, ADegeneratePolygonIsFedAsGivenAndReportedByFileImageGroupAndWord) {
  maptext::Tile tile = synth_example()[0];
  const std::vector<maptext::Point> line{{0, 0}, {5, 5}, {10, 10}, {20, 20}};
  tile.groups[1][0].vertices = line;
  data::PolygonReport report;
  const maptext::Tile out = data::model_polygons(tile, PolygonPoints::Resample, "words.json", &report);
  EXPECT_EQ(out.groups[1][0].vertices.size(), line.size());  // not dropped, not changed
  EXPECT_EQ(out.word_count(), tile.word_count());
  EXPECT_EQ(report.degenerate, 1u);
  const std::string note = data::degenerate_note(report);
  EXPECT_NE(note.find("1 of " + std::to_string(tile.word_count())), std::string::npos) << note;
  EXPECT_NE(note.find("words.json: image \"" + tile.image + "\", group 1, word 0 (\"" + *tile.groups[1][0].text + "\"): vertices: no area"),
            std::string::npos)
      << note;
  EXPECT_EQ(data::degenerate_note(data::PolygonReport{}), "");
}

TEST(ModelPolygons, AFiftyPointSpotterIsFedAsItsSixteenPointTwinWithResampleAndNotWithKeep) {
  for (const maptext::Tile& truth : synth_example()) {
    synth::SpotterRates rates;
    const maptext::Tile sixteen = synth::spot(truth, rates, 9, 0);
    rates.points = 50;
    const maptext::Tile fifty = synth::spot(truth, rates, 9, 0);
    // Polygon values are x/W and y/H: 1 px of a 2000-px tile is 0.0005.
    EXPECT_LT(farthest_inputs(data::model_polygons(fifty, PolygonPoints::Resample, "p.json"), sixteen), 0.0005);
    EXPECT_GT(farthest_inputs(data::model_polygons(fifty, PolygonPoints::Keep, "p.json"), sixteen), 0.01);
  }
}

TEST(ModelPolygons, AtAShareOfTheirHeightFacingVerticesCloseOnTheirMiddle) {
  // A level word 100 x 20 (16 points: the lower edge y = 120 forwards, the upper edge y = 100 back),
  // a tilted quadrilateral, and a 5-point outline (no facing vertices: left as given).
  maptext::Tile tile;
  maptext::Word level, tilted, odd;
  for (int k = 0; k < 8; ++k) level.vertices.push_back({10 + 100.0 * k / 7, 120});
  for (int k = 0; k < 8; ++k) level.vertices.push_back({110 - 100.0 * k / 7, 100});
  tilted.vertices = {{0, 10}, {40, 40}, {34, 48}, {-6, 18}};  // lower edge (0,10)-(40,40), upper back (34,48)-(-6,18)
  odd.vertices = {{0, 0}, {10, 0}, {12, 5}, {5, 9}, {-2, 5}};
  tile.groups = {{level, tilted}, {odd}};
  const maptext::Tile thin = data::polygons_at_height(tile, 0.5);
  const auto& v = thin.groups[0][0].vertices;
  for (int k = 0; k < 8; ++k) {
    EXPECT_NEAR(v[k].y, 115, 1e-12);  // the middle 110, half of 20 high
    EXPECT_NEAR(v[15 - k].y, 105, 1e-12);
    EXPECT_NEAR(v[k].x, tile.groups[0][0].vertices[k].x, 1e-12);
  }
  const auto& t = thin.groups[0][1].vertices;
  EXPECT_NEAR(t[0].x, -1.5, 1e-12);  // (0,10) halfway to the middle (-3,14) of it and its facing (-6,18)
  EXPECT_NEAR(t[0].y, 12, 1e-12);
  EXPECT_NEAR(t[3].x, -4.5, 1e-12);
  EXPECT_NEAR(t[3].y, 16, 1e-12);
  auto same = [](const std::vector<maptext::Point>& a, const std::vector<maptext::Point>& b) {
    if (a.size() != b.size()) return false;
    for (size_t k = 0; k < a.size(); ++k)
      if (a[k].x != b[k].x || a[k].y != b[k].y) return false;
    return true;
  };
  EXPECT_TRUE(same(thin.groups[1][0].vertices, tile.groups[1][0].vertices));
  EXPECT_TRUE(same(data::polygons_at_height(tile, 1.0).groups[0][1].vertices, tile.groups[0][1].vertices));
  EXPECT_EQ(thin.groups.size(), 2u);
}

// Words from other spotters' files (maptext/spotter_formats.h): per-image annotation files, GeoJSON
// (mapKurator's negated y included), folders of them, and clear errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/maptext/spotter_formats.h"
#include "test_util.h"

using namespace light;

namespace {
std::string error_of(const std::string& path) {
  try {
    maptext::read_spotter_words(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(SpotterFormats, APerImageAnnotationFileIsATileNamedByItsStem) {
  const std::string dir = test::temp_dir();
  test::write_text(dir + "/5797073_h2_w4.json",
                   R"({"annotations": [{"text": "DENVER", "pts": [[10, 40], [90, 40], [90, 20], [10, 20]]},
                                       {"pts": [[100, 40], [150, 40], [150, 20], [100, 20], [100, 40]]}]})");
  const auto w = maptext::read_spotter_words(dir + "/5797073_h2_w4.json");
  EXPECT_EQ(w.format, "annotations");
  ASSERT_EQ(w.data.size(), 1u);
  EXPECT_EQ(w.data[0].image, "5797073_h2_w4");
  ASSERT_EQ(w.data[0].groups.size(), 2u);  // each word alone
  EXPECT_EQ(w.data[0].groups[0][0].text, "DENVER");
  EXPECT_EQ(w.data[0].groups[1][0].text, "");
  EXPECT_EQ(w.data[0].groups[1][0].vertices.size(), 4u);  // the closing point dropped
  std::filesystem::remove_all(dir);
}

TEST(SpotterFormats, GeoJsonWordsWithNegatedYAreReadUprightAndSaidSo) {
  const std::string dir = test::temp_dir();
  // As mapKurator writes them: pixel x, minus pixel y, closed rings.
  test::write_text(dir + "/sheet.geojson", R"({"type": "FeatureCollection", "features": [
    {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[10, -40], [90, -40], [90, -20], [10, -20], [10, -40]]]},
     "properties": {"text": "Lodge", "score": 0.9}},
    {"type": "Feature", "geometry": {"type": "MultiPolygon", "coordinates": [[[[100, -40], [150, -40], [150, -20], [100, -20]]]]},
     "properties": {"text": "Pole"}}]})");
  const auto w = maptext::read_spotter_words(dir + "/sheet.geojson");
  EXPECT_EQ(w.format, "geojson");
  ASSERT_EQ(w.data.size(), 1u);
  EXPECT_EQ(w.data[0].image, "sheet");
  ASSERT_EQ(w.data[0].groups.size(), 2u);
  EXPECT_DOUBLE_EQ(w.data[0].groups[0][0].vertices[0].y, 40);
  EXPECT_EQ(w.data[0].groups[1][0].text, "Pole");
  ASSERT_EQ(w.notes.size(), 1u);
  EXPECT_NE(w.notes[0].find("read as -y"), std::string::npos);
  // Upright coordinates stay as they are.
  test::write_text(dir + "/up.geojson", R"({"type": "FeatureCollection", "features": [
    {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[10, 40], [90, 40], [90, 20], [10, 20]]]}, "properties": {"text": "Cr."}}]})");
  const auto up = maptext::read_spotter_words(dir + "/up.geojson");
  EXPECT_DOUBLE_EQ(up.data[0].groups[0][0].vertices[0].y, 40);
  EXPECT_TRUE(up.notes.empty());
  std::filesystem::remove_all(dir);
}

TEST(SpotterFormats, AFolderOfFilesIsOneTileEachAndMapTextStaysMapText) {
  const std::string dir = test::temp_dir();
  std::filesystem::create_directories(dir + "/words");
  test::write_text(dir + "/words/a.json", R"({"annotations": [{"text": "A", "pts": [[0, 0], [5, 0], [5, 5]]}]})");
  test::write_text(dir + "/words/b.geojson", R"({"type": "FeatureCollection", "features": []})");
  const auto w = maptext::read_spotter_words(dir + "/words");
  EXPECT_EQ(w.format, "mixed");
  ASSERT_EQ(w.data.size(), 2u);
  EXPECT_EQ(w.data[0].image, "a");
  EXPECT_EQ(w.data[1].image, "b");
  EXPECT_EQ(w.data[1].word_count(), 0u);
  const auto m = maptext::read_spotter_words(test::example_path("example_pred.json"));
  EXPECT_EQ(m.format, "maptext");
  EXPECT_EQ(m.data.size(), 1u);
  std::filesystem::remove_all(dir);
}

TEST(SpotterFormats, BadFilesNameTheFileTheEntryAndTheField) {
  const std::string dir = test::temp_dir();
  test::write_text(dir + "/a.json", R"({"annotations": [{"text": "A", "pts": [[0, 0], [5, 0]]}]})");
  EXPECT_NE(error_of(dir + "/a.json").find("a.json: annotations[0].pts: needs at least 3 [x, y] points, got 2"), std::string::npos)
      << error_of(dir + "/a.json");
  test::write_text(dir + "/b.json", R"({"annotations": [{"text": "A", "pts": [[0, 0], [5, "x"], [1, 1]]}]})");
  EXPECT_NE(error_of(dir + "/b.json").find("b.json: annotations[0].pts[1]"), std::string::npos) << error_of(dir + "/b.json");
  test::write_text(dir + "/c.geojson", R"({"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}}]})");
  EXPECT_NE(error_of(dir + "/c.geojson").find("c.geojson: features[0].geometry: expected a Polygon or MultiPolygon, got \"Point\""),
            std::string::npos)
      << error_of(dir + "/c.geojson");
  test::write_text(dir + "/d.json", R"({"words": []})");
  EXPECT_NE(error_of(dir + "/d.json").find("d.json: not a word file light reads"), std::string::npos);
  // A "type" that is not a string is no type light reads (found by fuzz_spotter: it once escaped as
  // nlohmann's type_error).
  test::write_text(dir + "/e.json", R"({"type": 55})");
  EXPECT_NE(error_of(dir + "/e.json").find("e.json: not a word file light reads"), std::string::npos) << error_of(dir + "/e.json");
  test::write_text(dir + "/f.geojson", R"({"type": "FeatureCollection", "features": [{"geometry": {"type": 7, "coordinates": [[[0, 0], [1, 0], [1, 1]]]}}]})");
  EXPECT_NE(error_of(dir + "/f.geojson").find("f.geojson: features[0].geometry: expected a Polygon or MultiPolygon, got 7"),
            std::string::npos)
      << error_of(dir + "/f.geojson");
  std::filesystem::remove_all(dir);
}

TEST(SpotterFormats, TheBundledModelLinksAPerImageSpotterFileFoundByItsStem) {
  ::unsetenv("LIGHT_MODEL");
  const std::string dir = test::temp_dir();
  const std::string src = test::source_path("data/synth-example");
  const auto gt = maptext::read_maptext(src + "/annotations.json", {maptext::Kind::GroundTruth});
  std::string anns;
  for (const auto& g : gt[0].groups)
    for (const auto& w : g) {
      std::string pts;
      for (const auto& p : w.vertices) pts += (pts.empty() ? "" : ",") + std::string("[") + std::to_string(p.x) + "," + std::to_string(p.y) + "]";
      anns += (anns.empty() ? "" : ",") + std::string("{\"text\": ") + nlohmann::json(w.text.value_or("")).dump() + ", \"pts\": [" + pts + "]}";
    }
  const std::string stem = std::filesystem::path(gt[0].image).stem().string();
  test::write_text(dir + "/" + stem + ".json", "{\"annotations\": [" + anns + "]}");
  const auto r = test::run_light("link --words '" + dir + "/" + stem + ".json' --images '" + src + "' -o '" + dir + "/out.json' -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = maptext::read_maptext(dir + "/out.json", {maptext::Kind::Predictions});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].image, stem);
  EXPECT_EQ(out[0].word_count(), gt[0].word_count());
  EXPECT_LT(out[0].groups.size(), gt[0].word_count());  // linked into phrases
  // Each word the model saw carries its link's probability (the model's, before calibration).
  size_t scored = 0;
  for (const auto& g : out[0].groups)
    for (const auto& w : g) {
      if (w.extra.empty()) continue;
      const double p = nlohmann::json::parse(w.extra).at("successor_probability").get<double>();
      EXPECT_GE(p, 0.0);
      EXPECT_LE(p, 1.0);
      ++scored;
    }
  EXPECT_GE(scored, gt[0].word_count() - 2);  // all but words without area or text
  std::filesystem::remove_all(dir);
}

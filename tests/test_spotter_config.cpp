// A spotter folder's spotter.json: the stages that run and every stage's settings, read and checked
// as the linker's config.json is, carried by the folder (spot/spotter_config.h).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/image/resize.h"
#include "light/spot/spotter.h"
#include "light/spot/spotter_config.h"
#include "light/util/json.h"
#include "test_util.h"

namespace {

using light::spot::SpotOptions;
using light::spot::Stage;

std::string refusal(const nlohmann::json& config) {
  try {
    light::spot::parse_spotter_config(config, "s/spotter.json");
  } catch (const light::Error& e) {
    return e.what();
  }
  return "(read)";
}

nlohmann::json defaults() { return nlohmann::json::parse(light::spot::spotter_config_json(SpotOptions{}).dump()); }

}  // namespace

TEST(SpotterConfig, TheBundledSpottersFileSaysEveryStageAndSettingAtItsDefault) {
  const std::string path = light::test::source_path("models/spotter/spotter.json");
  const nlohmann::json file = light::parse_json(light::test::read_text(path), path);
  EXPECT_EQ(file, defaults());
  for (const auto& s : light::spot::spot_settings()) EXPECT_TRUE(file.at(s.section).contains(s.key)) << s.section << "." << s.key;
  const SpotOptions read = light::spot::spotter_settings(light::test::source_path("models/spotter"));
  EXPECT_EQ(read.stages, light::spot::default_stages());
  EXPECT_FALSE(read.runs(Stage::small_lettering));
  EXPECT_TRUE(read.runs(Stage::turned));
}

TEST(SpotterConfig, EverySettingInTheTableIsReadIntoItsOwnFieldAndWrittenBack) {
  // Each setting given alone, at a value in its range other than its default, comes back from the
  // options it was read into (and no other setting moves).
  for (const auto& s : light::spot::spot_settings()) {
    nlohmann::json config = defaults();
    nlohmann::json& v = config[s.section][s.key];
    if (v.is_boolean()) v = !v.get<bool>();
    else if (v.is_string()) continue;  // names: one known value each today (detector db, recognizer ctc), and alphabet below
    else v = v.get<double>() == s.hi ? s.lo : s.hi;
    if (std::string(s.section) == "enlarged" && std::string(s.key) == "scale") v = 2;
    if (std::string(s.section) == "detector" && std::string(s.key) == "window") v = 4096;
    if (std::string(s.section) == "detector" && std::string(s.key) == "overlap") v = 1024;
    if (std::string(s.section) == "recognizer" && std::string(s.key) == "strip_height") v = 64;
    const nlohmann::json back = nlohmann::json::parse(light::spot::spotter_config_json(light::spot::parse_spotter_config(config, "s.json")).dump());
    EXPECT_EQ(back, config) << s.section << "." << s.key;
  }
  nlohmann::json all = defaults();
  all["recognizer"]["alphabet"] = "all";
  EXPECT_EQ(light::spot::parse_spotter_config(all, "s.json").alphabet, "all");
  nlohmann::json kept = defaults();
  kept["recognizer"]["long_s"] = "keep";
  EXPECT_EQ(light::spot::parse_spotter_config(kept, "s.json").long_s, "keep");
  nlohmann::json as_read = defaults();
  as_read["reading"]["lookalikes"] = "keep";
  EXPECT_EQ(light::spot::parse_spotter_config(as_read, "s.json").lookalikes, "keep");
}

TEST(SpotterConfig, EachDefaultLiesInItsStatedRange) {
  SpotOptions o;
  for (const auto& s : light::spot::spot_settings())
    std::visit(
        [&](auto* field) {
          using T = std::remove_pointer_t<decltype(field)>;
          if constexpr (!std::is_same_v<T, std::string> && !std::is_same_v<T, bool>) {
            EXPECT_GE(static_cast<double>(*field), s.lo) << s.section << "." << s.key;
            EXPECT_LE(static_cast<double>(*field), s.hi) << s.section << "." << s.key;
          }
        },
        s.field(o));
}

TEST(SpotterConfig, RefusesWhatItCannotRunNamingTheFileAndTheKey) {
  nlohmann::json c = defaults();
  c["db_boxes"]["threshold"] = 1.5;
  EXPECT_EQ(refusal(c), "s/spotter.json: db_boxes.threshold: expected 0 to 1, got 1.5");
  c = defaults();
  c["db_boxes"]["threshhold"] = 0.3;
  EXPECT_NE(refusal(c).find("s/spotter.json: db_boxes: \"threshhold\": not a key of the spotter's; did you mean \"threshold\"?"), std::string::npos)
      << refusal(c);
  c = defaults();
  c["recognizer"]["batch"] = 2.5;
  EXPECT_EQ(refusal(c), "s/spotter.json: recognizer.batch: expected a whole number, got 2.5");
  c = defaults();
  c["ink_fit"]["look"] = "far";
  EXPECT_NE(refusal(c).find("s/spotter.json"), std::string::npos);
  EXPECT_NE(refusal(c).find("ink_fit.look"), std::string::npos);
  c = defaults();
  c["stages"] = {"db_boxes", "turned", "bend", "reading"};
  EXPECT_NE(refusal(c).find("s/spotter.json: stages[2]: bend runs before turned"), std::string::npos) << refusal(c);
  c["stages"] = {"db_boxes", "bend"};
  EXPECT_EQ(refusal(c), "s/spotter.json: stages: reading always runs: name it");
  c["stages"] = {"db_boxes", "bends", "reading"};
  EXPECT_NE(refusal(c).find("s/spotter.json: stages[1]: \"bends\": not a key of the spotter's; did you mean \"bend\"?"), std::string::npos);
  c = defaults();
  c["detector"]["type"] = "east";
  EXPECT_EQ(refusal(c), "s/spotter.json: detector.type: unknown detector \"east\" (db)");
  c = defaults();
  c["recognizer"]["long_s"] = "f";
  EXPECT_EQ(refusal(c), "s/spotter.json: recognizer.long_s: expected s or keep, got \"f\"");
  c = defaults();
  c["reading"]["lookalikes"] = "fix";
  EXPECT_EQ(refusal(c), "s/spotter.json: reading.lookalikes: expected settle or keep, got \"fix\"");
  c = defaults();
  c["detector"]["window"] = 1000;
  EXPECT_EQ(refusal(c), "s/spotter.json: detector.window: expected a multiple of 32, got 1000");
  c = defaults();
  c["stages"].push_back("small_lettering");
  EXPECT_NE(refusal(c).find("stages[13]: small_lettering runs before ink_fit"), std::string::npos) << refusal(c);
  c = defaults();
  c["tsages"] = nlohmann::json::array();
  EXPECT_NE(refusal(c).find("did you mean \"stages\"?"), std::string::npos);
  EXPECT_EQ(refusal(nlohmann::json::array()), "s/spotter.json: expected an object of the spotter's settings");
}

TEST(SpotterConfig, AStageCanBeSwitchedOnInItsPlaceAndOffButNotTheTwoThatAlwaysRun) {
  SpotOptions o;
  o.read_small_lettering();
  ASSERT_TRUE(o.runs(Stage::small_lettering));
  EXPECT_EQ(o.stages[5], Stage::small_lettering);  // after enlarged, before turned
  o.switch_off(Stage::turned);
  EXPECT_FALSE(o.runs(Stage::turned));
  EXPECT_THROW(o.switch_off(Stage::reading), light::Error);
  EXPECT_THROW(o.switch_off(Stage::db_boxes), light::Error);
}

TEST(SpotterConfig, ASpotterFolderReadsWithTheSettingsItCarries) {
  // The bundled recogniser and the released detector in a folder whose spotter.json leaves the turned
  // reading out: it reads the name at 60 degrees as the upright-only spotter does ("Cre", test_spotter.cpp).
  const std::string dir = light::test::temp_dir();
  for (const char* f : {"detector.safetensors", "recognizer.safetensors", "keys.txt"})
    std::filesystem::copy_file(light::test::released_detector_spotter() + "/" + f, dir + "/" + f);
  nlohmann::json c = defaults();
  c["stages"].erase(std::find(c["stages"].begin(), c["stages"].end(), "turned"));
  light::test::write_text(dir + "/spotter.json", c.dump(2));
  const auto img = light::image::read_rgb(light::test::source_path("tests/data/spot/grand-creek-at-60-degrees.jpg"));
  bool creek = false, cre = false;
  for (const auto& w : light::spot::Spotter(dir).spot(img)) creek |= w.text == "Creek", cre |= w.text == "Cre";
  EXPECT_TRUE(cre);
  EXPECT_FALSE(creek);
  // And `light spot` refuses a folder whose spotter.json it cannot run, naming the file and the key.
  c["turned"]["unsettled"] = -1;
  light::test::write_text(dir + "/spotter.json", c.dump(2));
  const auto r = light::test::run_light("spot --images " + light::test::q(light::test::source_path("tests/data/spot/grand-creek-at-60-degrees.jpg")) +
                                        " -o " + light::test::q(dir + "/out.json") + " --spotter " + light::test::q(dir) + " -q");
  light::test::expect_error(r, dir + "/spotter.json: turned.unsettled: expected 0 to 1, got -1");
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.json"));
}

TEST(SpotterConfig, LightSpotListsItsStagesWithWhatTheOptionsGivenChange) {
  const auto r = light::test::run_light("spot --stages --small-lettering --upright --min-score 0.7");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("small_lettering  [runs]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("turned  [off]"), std::string::npos);
  EXPECT_NE(r.out.find("reading  [always runs]"), std::string::npos);
  EXPECT_NE(r.out.find("min_score = 0.7"), std::string::npos);
  const auto printed = light::test::run_light("spot --print-config");
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_EQ(nlohmann::json::parse(printed.out), defaults());
}

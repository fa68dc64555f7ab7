// The decoding settings (model/decoding_settings.h) are one table: each setting in it is read from a
// model's config.json, written back, checked against its range and given on `light link`'s command
// line (and, tests/python, as Python's keyword), with nothing else to add.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "light/error.h"
#include "light/model/config.h"
#include "light/model/decoding_settings.h"
#include "light/util/fs.h"
#include "test_util.h"

using namespace light;

TEST(DecodingSettings, EachSettingIsReadWrittenCheckedAndAnOptionOfLightLink) {
  const std::string dir = test::temp_dir();
  const std::string help = test::run_light("link --help").out;
  size_t options = 0;
  for (const model::DecodingSetting& s : model::decoding_settings()) {
    // A value inside the range, away from the paper's decoding: written, and read back the same.
    const double v = s.hi != s.neutral ? s.hi : s.lo;
    model::ModelConfig c;
    c.*s.field = v;
    model::write_model_config(dir + "/c.json", c);
    const nlohmann::json written = nlohmann::json::parse(read_file(dir + "/c.json"));
    ASSERT_TRUE(written.contains(s.key)) << s.key;
    EXPECT_DOUBLE_EQ(model::read_model_config(dir + "/c.json").*s.field, v) << s.key;
    // The paper's value is not written (a released checkpoint's config.json stays as it was).
    model::write_model_config(dir + "/n.json", model::ModelConfig{});
    EXPECT_FALSE(nlohmann::json::parse(read_file(dir + "/n.json")).contains(s.key)) << s.key;
    // Outside the range: refused naming the file and the key, in config.json and as an override.
    for (const double bad : {s.hi * 2 + 1, s.lo - 1}) {
      nlohmann::json j = written;
      j[s.key] = bad;
      test::write_text(dir + "/bad.json", j.dump());
      try {
        model::read_model_config(dir + "/bad.json");
        ADD_FAILURE() << s.key << " " << bad;
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(dir + "/bad.json: " + s.key + ": expected " + s.expected), std::string::npos) << e.what();
      }
      EXPECT_THROW(model::with_decoding(c, {{s.key, bad}}, false), Error) << s.key;
    }
    EXPECT_EQ(model::with_decoding(model::ModelConfig{}, {{s.key, v}}, false).*s.field, v);
    if (*s.option) {
      ++options;
      EXPECT_NE(help.find(s.option), std::string::npos) << s.option;
    }
  }
  EXPECT_GE(options, 8u);
  EXPECT_THROW(model::with_decoding(model::ModelConfig{}, {{"baseline_priro", 2}}, false), Error);
  std::filesystem::remove_all(dir);
}

TEST(DecodingSettings, TheLineJudgesWeightsAreReadAndWrittenAndAWeightThatIsNotANumberIsRefusedNamingTheKey) {
  const std::string dir = test::temp_dir();
  model::ModelConfig c;
  c.line_judge = 1;
  c.line_judge_weights = {{"next_aligned", 1.25}, {"end", -0.5}};
  model::write_model_config(dir + "/c.json", c);
  const model::ModelConfig back = model::read_model_config(dir + "/c.json");
  EXPECT_EQ(back.line_judge_weights, c.line_judge_weights);
  EXPECT_EQ(back.line_judge, 1);
  model::write_model_config(dir + "/n.json", model::ModelConfig{});
  EXPECT_FALSE(nlohmann::json::parse(read_file(dir + "/n.json")).contains("line_judge_weights"));
  for (const auto& [bad, says] : std::vector<std::pair<nlohmann::json, std::string>>{
           {nlohmann::json{{"end", "high"}}, "line_judge_weights.end: expected a finite number"},
           {nlohmann::json::array({1, 2}), "line_judge_weights: expected an object of feature weights"}}) {
    nlohmann::json j = nlohmann::json::parse(read_file(dir + "/c.json"));
    j["line_judge_weights"] = bad;
    test::write_text(dir + "/bad.json", j.dump());
    try {
      model::read_model_config(dir + "/bad.json");
      ADD_FAILURE() << says;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(dir + "/bad.json: " + says), std::string::npos) << e.what();
    }
  }
  std::filesystem::remove_all(dir);
}

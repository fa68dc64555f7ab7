// A text spotter's words are decoded with the model's own factor for them (config.json
// spotted_no_successor_bias; link/model_linking.h words_from): a tile whose every word carries a
// "score" is a spotter's, words drawn or annotated by hand keep the model's decoding.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/link/model_linking.h"
#include "light/model/config.h"
#include "test_util.h"

using namespace light;
namespace fs = std::filesystem;

namespace {
size_t links(const maptext::Dataset& d) {
  size_t n = 0;
  for (const auto& t : d)
    for (const auto& g : t.groups) n += g.size() - 1;
  return n;
}
std::vector<std::vector<std::string>> phrases(const maptext::Dataset& d) {
  std::vector<std::vector<std::string>> out;
  for (const auto& t : d)
    for (const auto& g : t.groups) {
      out.emplace_back();
      for (const auto& w : g) out.back().push_back(w.text.value_or(""));
    }
  return out;
}
maptext::Dataset with_scores(maptext::Dataset d, const std::string& extra) {
  for (auto& t : d)
    for (auto& g : t.groups)
      for (auto& w : g) w.extra = extra;
  return d;
}
}  // namespace

TEST(SpottedDecoding, ATileIsASpottersWhenEveryWordCarriesANumericScore) {
  maptext::Tile t;
  t.groups = {{test::upright_word(0, 0, 10, 5, "Lodge"), test::upright_word(12, 0, 20, 5, "Pole")}};
  EXPECT_FALSE(link::spotted_words(t));  // ground truth: no score
  for (auto& w : t.groups[0]) w.extra = R"({"score": 0.93})";
  EXPECT_TRUE(link::spotted_words(t));
  t.groups[0][1].extra = R"({"score": "0.93"})";  // not a number
  EXPECT_FALSE(link::spotted_words(t));
  t.groups[0][1].extra = R"({"confidence": 0.93})";
  EXPECT_FALSE(link::spotted_words(t));
  t.groups[0][1].extra = "";
  EXPECT_FALSE(link::spotted_words(t));
  EXPECT_FALSE(link::spotted_words(maptext::Tile{}));  // no words
}

TEST(SpottedDecoding, ASpottersWordsAreDecodedWithTheModelsFactorForSpottedWordsAndDrawnOnesAsBefore) {
  // The bundled model calibrated its factor for the bundled spotter's words (docs/default-model.md).
  const std::string bundled = test::source_path("models/light-small");
  EXPECT_DOUBLE_EQ(model::read_model_config(bundled + "/config.json").spotted_no_successor_bias, 0.7);
  // The same weights with a factor for spotted words beyond any probability ratio: they stay alone.
  const std::string dir = test::temp_dir();
  for (const char* f : {"model.safetensors", "vocab.json", "merges.txt"}) fs::create_symlink(bundled + "/" + f, dir + "/" + f);
  nlohmann::json c = nlohmann::json::parse(test::read_text(bundled + "/config.json"));
  c["spotted_no_successor_bias"] = 1e6;
  test::write_text(dir + "/config.json", c.dump(1));

  const std::string images = test::source_path("data/synth-example");
  const maptext::Dataset drawn = maptext::read_maptext(images + "/annotations.json", {maptext::Kind::GroundTruth});
  const maptext::Dataset spotted = with_scores(drawn, R"({"score": 0.9})");
  link::ModelLinkOptions o;
  o.threads = 2;
  link::ModelLinkReport r;
  const maptext::Dataset as_drawn = link::link_with_model(drawn, dir, images, o, &r);
  EXPECT_EQ(r.spotted_tiles, 0u);
  EXPECT_GE(links(as_drawn), 20u);  // the tile's names linked (25 links) as the bundled model links them
  EXPECT_EQ(phrases(as_drawn), phrases(link::link_with_model(drawn, bundled, images, o, &r)));

  EXPECT_EQ(links(link::link_with_model(spotted, dir, images, o, &r)), 0u);  // auto: scores, a spotter's
  EXPECT_EQ(r.spotted_tiles, 1u);
  o.words_from = "annotation";  // told otherwise: decoded as drawn words
  EXPECT_EQ(phrases(link::link_with_model(spotted, dir, images, o, &r)), phrases(as_drawn));
  EXPECT_EQ(r.spotted_tiles, 0u);
  o.words_from = "spotter";  // told so: a spotter's, scores or none
  EXPECT_EQ(links(link::link_with_model(drawn, dir, images, o, &r)), 0u);
  o.decoding = {{"no_successor_bias", 0.45}};  // a factor given on the command line is used for every tile
  EXPECT_EQ(phrases(link::link_with_model(spotted, dir, images, o, &r)), phrases(as_drawn));
  o.words_from = "hand";
  EXPECT_THROW(link::link_with_model(drawn, dir, images, o, &r), Error);
  // A model with only a baseline tolerance of its own for spotted words decodes them as such.
  c.erase("spotted_no_successor_bias");
  test::write_text(dir + "/config.json", c.dump(1));
  link::link_with_model(spotted, dir, images, link::ModelLinkOptions{}, &r);
  EXPECT_EQ(r.spotted_tiles, 1u);
  // ... and holds them to it: with any height and a chord within 45 degrees on one baseline, and the
  // baseline prior at 100, spread candidates the drawn words' test lowers are raised ("Kelly Cr." takes
  // "Tarsus"); told the words are drawn, the same model leaves them.
  nlohmann::json wide = c;
  wide["baseline_prior"] = 100, wide["spotted_baseline_log_height"] = 1, wide["spotted_baseline_degrees"] = 45;
  wide["line_judge"] = 0;  // the baseline prior decodes a model without a line judge
  test::write_text(dir + "/config.json", wide.dump(1));
  link::ModelLinkOptions told;
  told.words_from = "annotation";
  EXPECT_NE(phrases(link::link_with_model(spotted, dir, images, link::ModelLinkOptions{}, &r)),
            phrases(link::link_with_model(spotted, dir, images, told, &r)));
  test::write_text(dir + "/config.json", c.dump(1));
  // A model without either, nor a line judge (a released checkpoint), decodes a spotter's words as any
  // others (a model with a judge keeps it for annotated words: spotted_line_judge).
  c.erase("spotted_baseline_log_height");
  c.erase("spotted_baseline_degrees");
  c.erase("line_judge");
  c.erase("line_judge_weights");
  test::write_text(dir + "/config.json", c.dump(1));
  EXPECT_EQ(phrases(link::link_with_model(spotted, dir, images, link::ModelLinkOptions{}, &r)), phrases(as_drawn));
  EXPECT_EQ(r.spotted_tiles, 0u);
  fs::remove_all(dir);
}

TEST(SpottedDecoding, TheFactorForSpottedWordsIsWrittenOnlyWhenSetAndRefusedWhenNegative) {
  const std::string dir = test::temp_dir();
  model::ModelConfig c = model::read_model_config(test::source_path("models/light-small/config.json"));
  c.spotted_no_successor_bias = 0;
  model::write_model_config(dir + "/none.json", c);
  EXPECT_EQ(test::read_text(dir + "/none.json").find("spotted_no_successor_bias"), std::string::npos);
  c.spotted_no_successor_bias = 0.6;
  model::write_model_config(dir + "/set.json", c);
  EXPECT_DOUBLE_EQ(model::read_model_config(dir + "/set.json").spotted_no_successor_bias, 0.6);
  nlohmann::json j = nlohmann::json::parse(test::read_text(dir + "/set.json"));
  j["spotted_no_successor_bias"] = -1;
  test::write_text(dir + "/bad.json", j.dump());
  try {
    model::read_model_config(dir + "/bad.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("spotted_no_successor_bias"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

// A spotter measures each word's outline with an error (its height some 10 % either way): the
// bundled model takes two spotted words as on one baseline within 0.1 in log and 4.5 degrees
// (line_alignment.h BaselineTolerance; docs/spotter.md), drawn ones within 0.05 and 3.
TEST(SpottedDecoding, TheSpottedBaselineToleranceIsReadWrittenOnlyWhenSetAndRefusedOutOfRange) {
  const model::ModelConfig bundled = model::read_model_config(test::source_path("models/light-small/config.json"));
  EXPECT_DOUBLE_EQ(bundled.spotted_baseline_log_height, 0.1);
  EXPECT_DOUBLE_EQ(bundled.spotted_baseline_degrees, 4.5);
  const std::string dir = test::temp_dir();
  model::ModelConfig c = bundled;
  c.spotted_baseline_log_height = 0, c.spotted_baseline_degrees = 0;  // as drawn words: not written
  model::write_model_config(dir + "/none.json", c);
  const std::string none = test::read_text(dir + "/none.json");
  EXPECT_EQ(none.find("spotted_baseline"), std::string::npos);
  c.spotted_baseline_log_height = 0.2, c.spotted_baseline_degrees = 6;
  model::write_model_config(dir + "/set.json", c);
  const model::ModelConfig back = model::read_model_config(dir + "/set.json");
  EXPECT_DOUBLE_EQ(back.spotted_baseline_log_height, 0.2);
  EXPECT_DOUBLE_EQ(back.spotted_baseline_degrees, 6);
  for (const auto& [field, value] : {std::pair{"spotted_baseline_log_height", -0.1}, std::pair{"spotted_baseline_log_height", 2.0},
                                     std::pair{"spotted_baseline_degrees", 90.0}}) {
    nlohmann::json j = nlohmann::json::parse(test::read_text(dir + "/set.json"));
    j[field] = value;
    test::write_text(dir + "/bad.json", j.dump());
    try {
      model::read_model_config(dir + "/bad.json");
      ADD_FAILURE() << field << " " << value << " was taken";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
    }
  }
  fs::remove_all(dir);
}

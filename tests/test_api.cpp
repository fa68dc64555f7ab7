// The public API (include/light/light.h) as a C++ user links it: liblight.so and its three headers,
// nothing else. Synthetic tiles from the `light` binary; a tiny model fine-tuned through the API,
// then used to link, then scored.
#include <gtest/gtest.h>
#include <light/light.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace fs = std::filesystem;

namespace {
std::string fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("light_api_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d.string();
}
// A copy of the bundled spotter with the released detector, whose spotter.json enlarges the median
// line to 28 px ("" if it has no such setting).
std::string spotter_enlarging_to_28(const std::string& src, const std::string& dir) {
  fs::create_directories(dir);
  for (const char* f : {"recognizer.safetensors", "keys.txt", "spotter.json"})
    fs::copy_file(src + "/models/spotter/" + f, dir + "/" + f, fs::copy_options::overwrite_existing);
  // The released detector, whose misses of small lettering --small-lettering was measured on.
  fs::copy_file(src + "/models/ppocr-v4/detector.safetensors", dir + "/detector.safetensors", fs::copy_options::overwrite_existing);
  std::ifstream in(dir + "/spotter.json");
  std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string key = "\"auto_height\": ";
  const size_t at = json.find(key);
  if (at == std::string::npos) return "";
  const size_t end = json.find_first_of(",\n}", at + key.size());
  json.replace(at + key.size(), end - at - key.size(), "28");
  std::ofstream(dir + "/spotter.json") << json;
  return dir;
}
size_t words(const light::maptext::Dataset& d) {
  size_t n = 0;
  for (const auto& t : d) n += t.word_count();
  return n;
}
}  // namespace

TEST(PublicApi, FineTunesLinksWithTheModelAndScores) {
  const std::string dir = fresh_dir("tune");
  const std::string synth = std::string(LIGHT_BINARY) + " synth --size 600 --density 1 --threads 2 -q --out ";
  ASSERT_EQ(std::system((synth + dir + "/train --count 2 --seed 1").c_str()), 0);
  ASSERT_EQ(std::system((synth + dir + "/val --count 1 --seed 2").c_str()), 0);
  light::FineTuneOptions o;
  o.train_json = dir + "/train/annotations.json", o.train_images = dir + "/train";
  o.val_json = dir + "/val/annotations.json", o.val_images = dir + "/val";
  o.out_dir = dir + "/run";
  o.config = "tiny";
  o.max_epochs = 1;
  o.threads = 2;
  const light::FineTuneResult r = light::fine_tune(o);
  EXPECT_EQ(r.epochs, 1);
  EXPECT_EQ(r.best_epoch, 1);
  ASSERT_TRUE(fs::exists(dir + "/run/best/model.safetensors"));

  const auto gt = light::maptext::read_maptext(dir + "/val/annotations.json", {light::maptext::Kind::GroundTruth});
  light::LinkByModelReport report;
  light::LinkByModelOptions lo;
  lo.threads = 2;
  const auto linked = light::link_by_model(gt, dir + "/run/best", dir + "/val", lo, &report);
  EXPECT_EQ(words(linked), words(gt));
  EXPECT_EQ(report.words, words(gt));
  EXPECT_EQ(report.tiles, 1u);

  light::EvalOptions eo;
  eo.task = "detedges";
  const auto scores = light::evaluate(gt, linked, eo);
  ASSERT_FALSE(scores.overall.empty());
  EXPECT_EQ(scores.overall[0].first, "recall");
  EXPECT_DOUBLE_EQ(scores.overall[0].second, 1.0);  // every ground-truth word is there, polygons unchanged
  fs::remove_all(dir);
}

TEST(PublicApi, BadOptionsAreALightErrorNamingThem) {
  try {
    light::evaluate({}, {}, {"nosuchtask"});
    FAIL();
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("nosuchtask"), std::string::npos) << e.what();
  }
  light::LinkByHeuristicOptions h;
  h.method = "nearest";
  EXPECT_THROW(light::link_by_heuristic({}, h), light::Error);
  EXPECT_STREQ(light::version(), "0.1.0");
}

TEST(PublicApi, SpotsSmallLetteringWhenAskedAndLinksTheWordsAsASpotters) {
  // A plan's street names among larger lettering (the crop of light_model_tests' Spotter test), read
  // by a spotter folder that enlarges the median line to 28 px, as that test does.
  const std::string src = LIGHT_SOURCE_DIR;
  const std::string png = src + "/tests/data/spot/street-names-among-larger-lettering.png";
  const std::string spotter = spotter_enlarging_to_28(src, fresh_dir("spotter28"));
  ASSERT_FALSE(spotter.empty());
  light::SpotOptions so;
  so.threads = 2;
  const size_t once = words(light::Spotter(spotter, so).spot(png));
  so.small_lettering = true;
  const light::maptext::Dataset spotted = light::Spotter(spotter, so).spot(png);
  EXPECT_GT(words(spotted), once + 2);  // measured: 2 words read once, 5 read enlarged again
  light::LinkByModelOptions lo;
  lo.threads = 2;
  light::LinkByModelReport report;
  const auto linked = light::link_by_model(spotted, src + "/models/light-small", src + "/tests/data/spot", lo, &report);
  EXPECT_EQ(words(linked), words(spotted));
  EXPECT_EQ(report.spotted_tiles, 1u);  // each word carries the spotter's score
}

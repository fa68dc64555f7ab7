// Hostile and careless input, round two (issue 35, ../shared/docs/probes-2026-11.md): what was added
// since the first round (test_robustness.cpp) loses no data, neither crashes nor hangs, and refuses
// what it cannot do right with a message naming the file, the field or the option.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <tuple>
#include <string>

#include "test_util.h"

using namespace light::test;
namespace fs = std::filesystem;

namespace {
std::string synth_set(const std::string& dir) {
  const RunResult r = run_light("synth --out " + q(dir + "/syn") + " --count 2 --size 600 --threads 1 -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return dir + "/syn";
}

std::string train_args(const std::string& syn, const std::string& config = "tiny") {
  return "train --train " + q(syn + "/annotations.json") + " --train-images " + q(syn) + " --val " + q(syn + "/annotations.json") +
         " --val-images " + q(syn) + " --tokenizer bytes --config " + config + " --threads 1 -q --max-epochs 1";
}

// Names in `dir` (not recursive): what a failed command may have left beside its output.
std::set<std::string> names_in(const std::string& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}
}  // namespace

// ---------------------------------------------------------------------------------------------
// Data loss
// ---------------------------------------------------------------------------------------------

TEST(HostileInput, AnOverwriteWhoseSetUpFailsLeavesTheOldRunAsItWas) {
  const std::string dir = temp_dir();
  const std::string syn = synth_set(dir), run = dir + "/run";
  RunResult r = run_light(train_args(syn) + " --out " + q(run));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_light("pretrain-poly --data " + q(syn + "/annotations.json") + " --images " + q(syn) +
                " --config tiny --threads 1 -q --max-steps 1 --out " + q(dir + "/prun"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  write_text(dir + "/heads0.json", R"({"layoutlmv3": {"num_attention_heads": 0}})");
  const auto before = snapshot(run), pbefore = snapshot(dir + "/prun");
  const auto names = names_in(dir);
  const std::tuple<std::string, std::string, std::string> probes[] = {
      {"tiny", " --window-word-height 7", "--window-word-height"},
      {"tiny", " --window-word-height 0.02 --scale-jitter -1", "--scale-jitter"},
      {"tiny", " --max-length 0", "--max-length"},
      {"/nonexistent.json", "", "/nonexistent.json"},
      {"tiny", " --init /nonexistent", "/nonexistent"},
      {q(dir + "/heads0.json"), "", "heads0.json"},
  };
  for (const auto& [config, args, named] : probes) {
    r = run_light(train_args(syn, config) + " --out " + q(run) + " --overwrite" + args);
    expect_error(r, named);
    EXPECT_EQ(snapshot(run), before) << args;
  }
  r = run_light("train --train /nonexistent.json --train-images " + q(syn) + " --val " + q(syn + "/annotations.json") + " --val-images " +
                q(syn) + " --tokenizer bytes --config tiny --threads 1 -q --out " + q(run) + " --overwrite");
  expect_error(r, "/nonexistent.json");
  EXPECT_EQ(snapshot(run), before);
  r = run_light("pretrain-poly --data " + q(syn + "/annotations.json") + " --images " + q(syn) +
                " --config tiny --threads 1 -q --max-steps 1 --out " + q(dir + "/prun") + " --overwrite --loss-weights angle=nan");
  expect_error(r, "--loss-weights");
  EXPECT_EQ(snapshot(dir + "/prun"), pbefore);
  EXPECT_EQ(names_in(dir), names) << "nothing set aside is left behind";
  fs::remove_all(dir);
}

namespace {
// A words file of one map (`image`) with three words, for collections.
void one_map(const std::string& path, const std::string& image) {
  write_text(path, "[{\"image\": \"" + image + "\", \"groups\": [[" +
                       R"({"vertices": [[0, 0], [40, 0], [40, 10], [0, 10]], "text": "Lodge"}, )"
                       R"({"vertices": [[45, 0], [80, 0], [80, 10], [45, 10]], "text": "Pole"}, )"
                       R"({"vertices": [[0, 50], [40, 50], [40, 60], [0, 60]], "text": "Far"}]]}])");
}
}  // namespace

TEST(HostileInput, ACollectionNeverWritesTwoMapsToOneOutputOrItsOutputsAmongItsInputs) {
  const std::string dir = temp_dir(), c = dir + "/c";
  fs::create_directories(c);
  one_map(c + "/a.json", "a.png");
  one_map(c + "/a.geojson", "b.png");  // read as MapText by its content; one output name with a.json
  RunResult r = run_light("link --method distance --collection " + q(c) + " -o " + q(dir + "/out"));
  expect_error(r, "a.geojson and a.json would both be written as the map \"a\"");
  EXPECT_FALSE(fs::exists(dir + "/out"));
  fs::remove(c + "/a.geojson");
  r = run_light("link --method distance --collection " + q(c) + " -o " + q(c));
  expect_error(r, "is the --collection folder");
  // Manifests: a NUL in a name, a column named twice, an empty name, a words file, one image for a
  // file of several images' words, georef without GeoJSON output.
  write_text(dir + "/nul.jsonl", "{\"words\": \"c/a.json\", \"name\": \"zz\\u0000a\"}\n");
  r = run_light("link --method distance --collection " + q(dir + "/nul.jsonl") + " -o " + q(dir + "/o1"));
  expect_error(r, "nul.jsonl: line 1: \"name\" holds a control character");
  write_text(dir + "/twice.csv", "words,words\nc/a.json,c/b.json\n");
  r = run_light("link --method distance --collection " + q(dir + "/twice.csv") + " -o " + q(dir + "/o1"));
  expect_error(r, "twice.csv: line 1: the column \"words\" is named twice");
  write_text(dir + "/empty.jsonl", "{\"words\": \"c/a.json\", \"name\": \"\"}\n");
  r = run_light("link --method distance --collection " + q(dir + "/empty.jsonl") + " -o " + q(dir + "/o1"));
  expect_error(r, "empty.jsonl: line 1: \"name\" is empty");
  r = run_light("link --method distance --collection " + q(c + "/a.json") + " -o " + q(dir + "/o1"));
  expect_error(r, "a.json: a words file, not a manifest; link it with --words");
  write_text(dir + "/georef.csv", "words,georef\nc/a.json,auto\n");
  r = run_light("link --method distance --collection " + q(dir + "/georef.csv") + " -o " + q(dir + "/o1"));
  expect_error(r, "map \"a\" has georef \"auto\", which needs --format geojson");
  write_text(c + "/two.json", "[{\"image\": \"x.png\", \"groups\": []}, {\"image\": \"y.png\", \"groups\": []}]");
  write_text(dir + "/img.csv", "words,image\nc/two.json,scans/x.png\n");
  r = run_light("link --method distance --collection " + q(dir + "/img.csv") + " -o " + q(dir + "/o2"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("the manifest names one image (" + dir + "/scans/x.png) for 2 images' words"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/o1"));
  // What is read: a byte-order mark before the header; JSON lines in a file named .json.
  write_text(dir + "/bom.csv", "\xEF\xBB\xBFwords,name\nc/a.json,first\n");
  r = run_light("link --method distance --collection " + q(dir + "/bom.csv") + " -o " + q(dir + "/o3") + " -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir + "/o3/first.json"));
  write_text(dir + "/m.json", "{\"words\": \"c/a.json\", \"name\": \"second\"}\n");
  r = run_light("link --method distance --collection " + q(dir + "/m.json") + " -o " + q(dir + "/o3") + " -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir + "/o3/second.json"));
  fs::remove_all(dir);
}

TEST(HostileInput, ShardsKeepTheirMapsWhenTheFolderGrowsBetweenTheirRuns) {
  const std::string dir = temp_dir(), c = dir + "/c";
  fs::create_directories(c);
  for (int i = 0; i < 5; ++i) one_map(c + "/map1" + std::to_string(i) + ".json", "m" + std::to_string(i) + ".png");
  RunResult r = run_light("link --method distance --collection " + q(c) + " --shard 1/2 -o " + q(dir + "/out") + " -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (int i = 0; i < 5; ++i) one_map(c + "/map0" + std::to_string(i) + ".json", "n" + std::to_string(i) + ".png");  // listed first
  r = run_light("link --method distance --collection " + q(c) + " --shard 2/2 -o " + q(dir + "/out") + " -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The first five are all linked: each by the shard it hashes to, whichever ran when.
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(fs::exists(dir + "/out/map1" + std::to_string(i) + ".json")) << i;
  fs::remove_all(dir);
}

// Hostile and careless input, round two (issue 35; the probes' report is kept outside the repository): what was added
// since the first round (test_robustness.cpp) loses no data, neither crashes nor hangs, and refuses
// what it cannot do right with a message naming the file, the field or the option.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <set>
#include <tuple>
#include <vector>
#include <string>

#include "light/link/default_model.h"
#include "light/maptext.h"
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
      {"tiny", " --polygon-noise 2", "--polygon-noise"},
      {"tiny", " --hand-noise 4", "--hand-noise"},
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
  const auto manifest_refused = [&](const std::string& name, const std::string& text, const std::string& message) {
    write_text(dir + "/" + name, text);
    expect_error(run_light("link --method distance --collection " + q(dir + "/" + name) + " -o " + q(dir + "/o1")), message);
  };
  manifest_refused("nul.jsonl", "{\"words\": \"c/a.json\", \"name\": \"zz\\u0000a\"}\n", "nul.jsonl: line 1: \"name\" holds a control character");
  manifest_refused("twice.csv", "words,words\nc/a.json,c/b.json\n", "twice.csv: line 1: the column \"words\" is named twice");
  manifest_refused("folder.csv", "words\nc\n", "folder.csv: line 2: \"words\" is a folder");
  manifest_refused("empty.jsonl", "{\"words\": \"c/a.json\", \"name\": \"\"}\n", "empty.jsonl: line 1: \"name\" is empty");
  r = run_light("link --method distance --collection " + q(c + "/a.json") + " -o " + q(dir + "/o1"));
  expect_error(r, "a.json: a words file, not a manifest; link it with --words");
  manifest_refused("georef.csv", "words,georef\nc/a.json,auto\n", "map \"a\" has georef \"auto\", which needs --format geojson");
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

namespace {
// Starts `light ARGS` in the background (SIGINT not ignored, as sh would for a background job), waits until `appears` exists (up to 30 s), sends `signal`,
// and returns the shell's view of the exit status (128 + the signal when it ended by it).
int interrupt_light(const std::string& args, const std::string& appears, int signal, const std::string& dir) {
  const std::string script = "env --default-signal=INT,TERM '" + std::string(LIGHT_BINARY) + "' " + args + " 2>/dev/null & p=$!; i=0; "
                             "while [ -z \"$(ls -d " + appears + " 2>/dev/null)\" ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i+1)); done; "
                             "kill -" + std::to_string(signal) + " $p; wait $p; echo $? > " + q(dir + "/rc");
  std::system(("sh -c " + q(script)).c_str());
  return std::stoi(read_text(dir + "/rc"));
}
}  // namespace

TEST(HostileInput, AnInterruptedSynthOrViewLeavesNothingBehind) {
  const std::string dir = temp_dir();
  for (int sig : {2, 15}) {  // SIGINT, SIGTERM
    const std::string set = dir + "/set" + std::to_string(sig);
    const int rc = interrupt_light("synth --count 40 --size 2500 --threads 1 -q --out " + q(set), q(set + "/images/tile_000000.png"), sig, dir);
    EXPECT_EQ(rc, 128 + sig);
    EXPECT_FALSE(fs::exists(set)) << "a half-made set is left";
  }
  RunResult r = run_light("synth --count 1 --size 4000 --threads 1 -q --out " + q(dir + "/big"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (int sig : {2, 15}) {
    const std::string page = dir + "/page" + std::to_string(sig);
    const int rc = interrupt_light("view --words " + q(dir + "/big/annotations.json") + " --images " + q(dir + "/big") + " -o " + q(page),
                                   q(page) + ".tmp.*", sig, dir);
    EXPECT_EQ(rc, 128 + sig);
    EXPECT_FALSE(fs::exists(page));
    for (const auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
  }
  fs::remove_all(dir);
}

TEST(HostileInput, SynthNeverEmptiesAFolderThatHoldsItsOwnGazetteer) {
  const std::string dir = temp_dir(), set = dir + "/set";
  fs::create_directories(set);
  write_text(set + "/my_gazetteer.txt", "1\tLodgepole\tLodgepole\t\t41.1\t-102.6\tP\tPPL\tUS\t\t\t\t\t\t300\t\t\t\t\n");
  const RunResult r = run_light("synth --out " + q(set) + " --overwrite --gazetteer " + q(set + "/my_gazetteer.txt") + " --count 1 --size 600 -q");
  expect_error(r, "--gazetteer (" + set + "/my_gazetteer.txt): lies inside --out " + set + ", which --overwrite empties");
  EXPECT_TRUE(fs::exists(set + "/my_gazetteer.txt"));
  fs::remove_all(dir);
}

TEST(HostileInput, APageGoesThroughASymbolicLinkAndIntoAFolderNamedWithASlash) {
  const std::string dir = temp_dir();
  const std::string syn = synth_set(dir);
  fs::create_directories(dir + "/real");
  fs::create_symlink(dir + "/real", dir + "/link");
  RunResult r = run_light("view --words " + q(syn + "/annotations.json") + " --images " + q(syn) + " -o " + q(dir + "/link") + " -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir + "/link"));
  EXPECT_TRUE(fs::exists(dir + "/real/index.html"));
  r = run_light("view --words " + q(syn + "/annotations.json") + " --images " + q(syn) + " -o " + q(dir + "/page/") + " -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir + "/page/index.html"));
  fs::remove_all(dir);
}

TEST(HostileInput, DrawingsOfTilesWithOneFileNameAreKeptApart) {
  const std::string dir = temp_dir();
  fs::create_directories(dir + "/imgs/a");
  fs::create_directories(dir + "/imgs/b");
  const std::string syn = synth_set(dir);
  fs::copy_file(syn + "/images/tile_000000.png", dir + "/imgs/a/x.png");
  fs::copy_file(syn + "/images/tile_000001.png", dir + "/imgs/b/x.png");
  one_map(dir + "/w1.json", "a/x.png");
  std::string words = read_text(dir + "/w1.json");
  one_map(dir + "/w2.json", "b/x.png");
  words = words.substr(0, words.size() - 1) + ", " + read_text(dir + "/w2.json").substr(1);
  write_text(dir + "/w.json", words);
  const RunResult r = run_light("draw --words " + q(dir + "/w.json") + " --images " + q(dir + "/imgs") + " --out " + q(dir + "/d"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir + "/d/a_x.png"));
  EXPECT_TRUE(fs::exists(dir + "/d/b_x.png"));
  fs::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

TEST(HostileInput, ImageKeysNeverReachOutsideTheImagesFolder) {
  const std::string dir = temp_dir();
  const std::string syn = synth_set(dir);
  fs::create_directories(dir + "/secret");
  fs::create_directories(dir + "/img");
  fs::copy_file(syn + "/images/tile_000000.png", dir + "/secret/private.png");
  for (const std::string& key : std::vector<std::string>{"../secret/private.png", dir + "/secret/private.png"}) {
    one_map(dir + "/w.json", key);
    const std::string leaves = "image \"" + key + "\": leaves the images folder " + dir + "/img";
    expect_error(run_light("view --words " + q(dir + "/w.json") + " --images " + q(dir + "/img") + " -o " + q(dir + "/page") + " -q"), leaves);
    expect_error(run_light("draw --words " + q(dir + "/w.json") + " --images " + q(dir + "/img") + " --out " + q(dir + "/d")), leaves);
    expect_error(run_light("link --words " + q(dir + "/w.json") + " --images " + q(dir + "/img") + " -o " + q(dir + "/o.json") + " -q"), leaves);
    EXPECT_FALSE(fs::exists(dir + "/page") || fs::exists(dir + "/d") || fs::exists(dir + "/o.json"));
    // Asked for: read.
    const RunResult r = run_light("--version >/dev/null; LIGHT_IMAGES_ANYWHERE=1 '" + std::string(LIGHT_BINARY) + "' draw --words " +
                                  q(dir + "/w.json") + " --images " + q(dir + "/img") + " --out " + q(dir + "/d3"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir + "/d3/private.png"));
    fs::remove_all(dir + "/d3");
  }
  fs::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// Crashes, hangs and answers that cannot be right
// ---------------------------------------------------------------------------------------------

namespace {
std::string box_tile(const std::string& image, double x) {
  return "{\"image\": \"" + image + "\", \"groups\": [[{\"vertices\": [[" + std::to_string(x) + ", 0], [" + std::to_string(x + 10) +
         ", 0], [" + std::to_string(x + 10) + ", 5], [" + std::to_string(x) + ", 5]], \"text\": \"A\"}]]}";
}
}  // namespace

TEST(HostileInput, MergingTilesTakesAnyKeyAndRefusesWhatCannotBeAMap) {
  const std::string dir = temp_dir();
  const std::string longkey(200000, 'M');
  write_text(dir + "/long.json", "[" + box_tile(longkey + "_h0_w1.png", 0) + ", " + box_tile(longkey + "_h0_w0.png", 0) + ", " +
                                     box_tile(std::string(200000, 'X'), 0) + "]");
  RunResult r = run_light("link --method distance --words " + q(dir + "/long.json") + " --merge-tiles 100 -q -o " + q(dir + "/o.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 300);
  const std::string out = read_text(dir + "/o.json");
  EXPECT_NE(out.find("\"" + longkey + "\""), std::string::npos);  // the two tiles, one map
  EXPECT_NE(out.find("\"image\":\"" + std::string(200000, 'X')), std::string::npos);
  write_text(dir + "/row.json", "[" + box_tile("M_h99999999999999999999_w0.png", 0) + "]");
  r = run_light("link --method distance --words " + q(dir + "/row.json") + " --merge-tiles 100 -o " + q(dir + "/o2.json"));
  expect_error(r, "row.json: image \"M_h99999999999999999999_w0.png\": tile row 99999999999999999999 is past 10^9");
  write_text(dir + "/clash.json", "[" + box_tile("M", 0) + ", " + box_tile("M_h0_w0.png", 0) + "]");
  r = run_light("link --method distance --words " + q(dir + "/clash.json") + " --merge-tiles 100 -o " + q(dir + "/o2.json"));
  expect_error(r, "clash.json: image \"M\": its tiles (e.g. \"M_h0_w0.png\") merge into a map of that very name");
  for (const char* stride : {"0", "1e308", "-5", "nan"}) {
    r = run_light("link --method distance --words " + q(dir + "/clash.json") + " --merge-tiles " + stride + " -o " + q(dir + "/o2.json"));
    expect_error(r, "--merge-tiles: expected the tiles' stride in pixels");
  }
  EXPECT_FALSE(fs::exists(dir + "/o2.json"));
  fs::remove_all(dir);
}

TEST(HostileInput, AnOptionThisCommandLineDoesNotUseIsNamedInANote) {
  const std::string words = example_path("example_pred.json"), dir = temp_dir();
  const std::pair<std::string, std::string> probes[] = {
      {"--method distance --tokenizer /nonexistent", "note: --tokenizer is not used with --method distance"},
      {"--method distance --device cuda", "note: --device is not used with --method distance"},
      {"--method mst --no-successor-bias 3", "note: --no-successor-bias is not used with --method mst"},
      {"--method distance --polygon-points keep", "note: --polygon-points is not used"},
      {"--method distance --max-length 5", "note: --max-length is not used"},
      {"--method distance --merge-ioa 0.9", "note: --merge-ioa is not used without --merge-tiles"},
      {"--method distance --weights 5,5,5", "note: --weights is not used here"},
      {"--method distance --georef-transform tps", "note: --georef-transform is not used without --georef"},
      {"--method distance --georef-crs EPSG:4326", "note: --georef-crs is not used without --georef"},
  };
  for (const auto& [args, note] : probes) {
    const RunResult r = run_light("link " + args + " --words " + q(words) + " -q -o " + q(dir + "/o.json"));
    EXPECT_EQ(r.exit_code, 0) << args << ": " << r.err;
    EXPECT_NE(r.err.find(note), std::string::npos) << args << ": " << r.err;
  }
  fs::remove_all(dir);
}

TEST(HostileInput, WebAnnotationsHoldOnlyAbsoluteIrisNumbersAsTheyAreAndNoEmptyTag) {
  const std::string dir = temp_dir();
  write_text(dir + "/w.json", "[" + box_tile("my map #2 {image}.png", 0) + ", " + box_tile("plain.png", 1e35) + "]");
  write_text(dir + "/blank.json", R"([{"image": "b.png", "groups": [[{"vertices": [[0, 0], [9, 0], [9, 4], [0, 4]]}]]}])");
  RunResult r = run_light("link --method distance --words " + q(dir + "/w.json") + " --format webanno --iiif-canvas 'https://ex.org/{image}/c' -q -o " +
                          q(dir + "/a.jsonld"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string a = read_text(dir + "/a.jsonld");
  EXPECT_NE(a.find("\"source\":\"https://ex.org/my%20map%20%232%20%7Bimage%7D.png/c\""), std::string::npos) << a;
  EXPECT_NE(a.find("M1e+35,0 L1e+35,0"), std::string::npos) << "1e35 written as itself, not 35 digits: " << a;
  r = run_light("link --method distance --words " + q(dir + "/blank.json") + " --format webanno -q -o " + q(dir + "/b.jsonld"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string b = read_text(dir + "/b.jsonld");
  EXPECT_NE(b.find("\"id\":\"urn:light:image:b.png#light-phrase-0\""), std::string::npos) << b;
  EXPECT_NE(b.find("\"motivation\":\"highlighting\""), std::string::npos) << b;
  EXPECT_EQ(b.find("TextualBody"), std::string::npos) << b;
  fs::remove_all(dir);
}

TEST(HostileInput, SearchRefusesACraftedIndexAndStaysFastOnLongPhrases) {
  const std::string dir = temp_dir();
  fs::create_directories(dir + "/col");
  write_text(dir + "/col/a.json", "[" + box_tile("m.png", 0) + "]");
  RunResult r = run_light("search --index " + q(dir + "/col"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string index = dir + "/col/light-search.index";
  ASSERT_TRUE(fs::exists(index));
  // The last word's point range set to 2^63 + points/2: times two, it wraps around to the points' count.
  std::string bytes = read_text(index);
  uint64_t off = 0, len = 0;
  std::memcpy(&off, bytes.data() + 16 + 14 * 16, 8);  // section 14: the words' point ranges
  std::memcpy(&len, bytes.data() + 16 + 14 * 16 + 8, 8);
  uint64_t last = 0;
  std::memcpy(&last, bytes.data() + off + len - 8, 8);
  last += uint64_t{1} << 63;
  std::memcpy(bytes.data() + off + len - 8, &last, 8);
  write_text(index, bytes);
  r = run_light("search Lodge --in " + q(index) + " --max-distance 60 --limit 0 --json");
  expect_error(r, "light-search.index: not a light search index, or damaged (point ranges)");
  // A 5,000-word phrase against a 7,500-character query: linear in each (it was cubic).
  std::string words = "[{\"image\": \"m.png\", \"groups\": [[";
  for (int i = 0; i < 5000; ++i)
    words += (i ? ", " : "") + std::string("{\"vertices\": [[0, 0], [5, 0], [5, 5], [0, 5]], \"text\": \"a\"}");
  write_text(dir + "/long.json", words + "]]}]");
  std::string query;
  for (int i = 0; i < 3750; ++i) query += "a ";
  r = run_light("search '" + query + "b' --in " + q(dir + "/long.json") + " --max-distance 3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1 edit (part)"), std::string::npos) << r.out.substr(0, 200);
  // A number past a double's range, a NUL in a text, a negative --limit.
  write_text(dir + "/big.json", R"({"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "MultiPolygon", "coordinates": [[[[1e400, 0], [1, 0], [1, 1], [0, 0]]]]}, "properties": {"image": "m.png", "text": "Elk"}}]})");
  expect_error(run_light("search Elk --in " + q(dir + "/big.json")), "big.json: a number out of range");
  write_text(dir + "/nul.json", R"([{"image": "m.png", "groups": [[{"vertices": [[0, 0], [5, 0], [5, 5], [0, 5]], "text": "Elk\u0000Creek"}]]}])");
  r = run_light("search 'Elk Creek' --in " + q(dir + "/nul.json"));
  EXPECT_NE(r.out.find("\"Elk\\x00Creek\""), std::string::npos) << r.out;
  expect_error(run_light("search Elk --in " + q(dir + "/nul.json") + " --limit -1"), "--limit: expected 0 (all) or a number of matches, got -1");
  fs::remove_all(dir);
}

TEST(HostileInput, WordsAFractionOfAPixelHighAreLinkedAndTrainedOnInSeconds) {
  // The bundled tile with every word squashed to 0.05 px high: windows sized from such words were
  // millions (a hang); at most kMaxInferenceWindows now.
  const std::string dir = temp_dir(), tile = source_path("data/synth-example");
  std::string words = read_text(tile + "/annotations.json");
  light::maptext::ReadOptions ro;
  auto data = light::maptext::parse_maptext(words, "annotations.json", ro);
  for (auto& g : data[0].groups)
    for (auto& w : g) {
      double lo = 1e18, hi = -1e18;
      for (const auto& v : w.vertices) lo = std::min(lo, v.y), hi = std::max(hi, v.y);
      for (auto& v : w.vertices) v.y = (lo + hi) / 2 + (v.y - (lo + hi) / 2) * 0.05 / std::max(1e-9, hi - lo);
    }
  light::maptext::write_maptext(dir + "/thin.json", data);
  RunResult r = run_light("link --words " + q(dir + "/thin.json") + " --images " + q(tile) + " --threads 1 -q -o " + q(dir + "/o.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(light::maptext::read_maptext(dir + "/o.json", {light::maptext::Kind::Predictions}).at(0).word_count(), data[0].word_count());
  r = run_light("train --train " + q(dir + "/thin.json") + " --train-images " + q(tile) + " --val " + q(dir + "/thin.json") + " --val-images " +
                q(tile) + " --tokenizer bytes --config tiny --threads 1 -q --max-epochs 1 --window-word-height 0.02 --out " + q(dir + "/run"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  fs::remove_all(dir);
}

TEST(HostileInput, AnImageWhoseHeaderClaimsBillionsOfPixelsIsRefusedByName) {
  const std::string dir = temp_dir();
  fs::create_directories(dir + "/img");
  // A valid PNG signature and IHDR claiming 100,000 x 100,000 px, then a few bytes of data.
  const auto be32 = [](uint32_t v) { return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)}; };
  const std::string ihdr = be32(100000) + be32(100000) + std::string("\x08\x02\x00\x00\x00", 5);
  write_text(dir + "/img/t.png", std::string("\x89PNG\r\n\x1a\n", 8) + be32(13) + "IHDR" + ihdr + be32(0) + be32(0) + "IEND" + be32(0));
  write_text(dir + "/w.json", "[" + box_tile("t.png", 0) + "]");
  expect_error(run_light("view --words " + q(dir + "/w.json") + " --images " + q(dir + "/img") + " -o " + q(dir + "/page")), "img/t.png: ");
  expect_error(run_light("draw --words " + q(dir + "/w.json") + " --images " + q(dir + "/img") + " --out " + q(dir + "/d")), "img/t.png: ");
  EXPECT_FALSE(fs::exists(dir + "/page"));
  fs::remove_all(dir);
}

TEST(HostileInput, SynthRefusesAGazetteerThatIsNotUtf8NamingTheLine) {
  const std::string dir = temp_dir();
  write_text(dir + "/latin1.txt", "1\tLima\tLima\n2\tS\xe3o Paulo\tSao Paulo\n");
  const RunResult r = run_light("synth --count 1 --size 600 -q --out " + q(dir + "/set") + " --gazetteer " + q(dir + "/latin1.txt"));
  expect_error(r, "latin1.txt: line 2: the name is not UTF-8");
  EXPECT_FALSE(fs::exists(dir + "/set"));
  fs::remove_all(dir);
}

TEST(HostileInput, SynthReadsNumbersWithExponentsAndRefusesSpotterSettingsItWouldIgnore) {
  const std::string dir = temp_dir();
  RunResult r = run_light("synth --count 1 --size 600 --threads 1 -q --out " + q(dir + "/a") + " --density 1e-1 --word-height 5e-3-2e-2");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_light("synth --count 1 --size 600 --threads 1 -q --out " + q(dir + "/b") + " --predictions --spotter miss=0.5,miss=0.0");
  expect_error(r, "--spotter: \"miss\" given twice");
  r = run_light("synth --count 1 --size 600 --threads 1 -q --out " + q(dir + "/b") + " --spotter miss=0.5");
  expect_error(r, "--spotter: shapes the spotter-like predictions, which only --predictions writes");
  EXPECT_FALSE(fs::exists(dir + "/b"));
  fs::remove_all(dir);
}

TEST(HostileInput, TrainingAndLinkingNameWhatTheyDoNotUseAndATokenizerThatDoesNotFit) {
  const std::string dir = temp_dir();
  const std::string syn = synth_set(dir);
  RunResult r = run_light(train_args(syn) + " --out " + q(dir + "/r1") + " --scale-jitter 0.5 --hand-noise 1.5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: --scale-jitter is not used without scale windows"), std::string::npos) << r.err;
  // The noise the run trained with is a setting of the run, kept with it.
  EXPECT_NE(read_text(dir + "/r1/options.json").find("\"hand_noise\": 1.5"), std::string::npos);
  const std::string model = source_path("models/light-small");
  r = run_light(train_args(syn, "tiny") + " --out " + q(dir + "/r2") + " --init " + q(model) + " --head bilinear --window-word-height 0.05");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: --head is not used: --init " + model + " brings its own"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("note: --window-word-height is not used: --init " + model + " brings its own"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("note: --config is not used"), std::string::npos) << r.err;
  // A vocabulary of 5,000 tokens for a model of 260.
  std::string vocab = "{\"<s>\": 0, \"<pad>\": 1, \"</s>\": 2";
  for (int i = 3; i < 5000; ++i) vocab += ", \"t" + std::to_string(i) + "\": " + std::to_string(i);
  fs::create_directories(dir + "/tok");
  write_text(dir + "/tok/vocab.json", vocab + "}");
  write_text(dir + "/tok/merges.txt", "#version: 0.2\n");
  r = run_light("link --words " + q(syn + "/annotations.json") + " --images " + q(syn) + " -q -o " + q(dir + "/o.json") + " --tokenizer " + q(dir + "/tok"));
  expect_error(r, "tok (--tokenizer): ids up to 4999 do not fit the model's vocabulary of 260");
  fs::remove_all(dir);
}

TEST(HostileInput, LightsOwnGeoJsonReadsBackWordForWordAndForeignGeoJsonIsNamed) {
  const std::string dir = temp_dir(), tile = source_path("data/synth-example");
  RunResult r = run_light("link --method distance --words " + q(tile + "/annotations.json") + " --format geojson -q -o " + q(dir + "/own.geojson"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_light("link --method distance --words " + q(dir + "/own.geojson") + " -q -o " + q(dir + "/back.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto vertices = [](const light::maptext::Dataset& d) {
    std::multiset<std::vector<std::pair<double, double>>> out;
    for (const auto& t : d)
      for (const auto& g : t.groups)
        for (const auto& w : g) {
          std::vector<std::pair<double, double>> v;
          for (const auto& p : w.vertices) v.emplace_back(p.x, p.y);
          out.insert(v);
        }
    return out;
  };
  const auto original = light::maptext::read_maptext(tile + "/annotations.json", {light::maptext::Kind::Predictions});
  EXPECT_EQ(vertices(light::maptext::read_maptext(dir + "/back.json", {light::maptext::Kind::Predictions})), vertices(original))
      << "every word back, its vertices in their order";
  // Longitude/latitude without pixel vertices: refused, not read as pixels.
  write_text(dir + "/ll.geojson", R"({"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[-105.2, 39.7], [-105.1, 39.7], [-105.1, 39.8], [-105.2, 39.7]]]}, "properties": {"image": "m.png", "text": "Elk", "coordinates": "lonlat"}}]})");
  expect_error(run_light("link --method distance --words " + q(dir + "/ll.geojson") + " -q -o " + q(dir + "/o.json")),
               "ll.geojson: features[0]: its coordinates are longitude/latitude");
  // An image key that is not a string; a MultiPolygon of two polygons from another tool (noted).
  write_text(dir + "/num.geojson", R"({"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [9, 0], [9, 4], [0, 0]]]}, "properties": {"image": 7}}]})");
  expect_error(run_light("link --method distance --words " + q(dir + "/num.geojson") + " -q -o " + q(dir + "/o.json")),
               "num.geojson: features[0].properties.image: expected the image key (a string), got 7");
  write_text(dir + "/mp.geojson", R"({"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "MultiPolygon", "coordinates": [[[[0, 0], [9, 0], [9, 4], [0, 0]]], [[[20, 0], [29, 0], [29, 4], [20, 0]]]]}, "properties": {"text": "Elk"}}]})");
  r = run_light("link --method distance --words " + q(dir + "/mp.geojson") + " -q -o " + q(dir + "/o.json"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("1 feature(s) with a MultiPolygon of several polygons"), std::string::npos) << r.err;
  // A UTF-8 byte-order mark before MapText.
  write_text(dir + "/bom.json", "\xEF\xBB\xBF" + read_text(tile + "/annotations.json"));
  r = run_light("link --method distance --words " + q(dir + "/bom.json") + " -q -o " + q(dir + "/o2.json"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  fs::remove_all(dir);
}

TEST(HostileInput, SearchPassesOverAForeignGeoJsonAndKeepsAJsonBesideAnEmptyGeoJson) {
  const std::string dir = temp_dir(), col = dir + "/col";
  fs::create_directories(col);
  RunResult r = run_light("link --method distance --words " + q(source_path("data/synth-example/annotations.json")) + " -q -o " + q(col + "/linked.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  write_text(col + "/spotter_raw.geojson", R"({"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [9, 0], [9, 4], [0, 0]]]}, "properties": {"text": "Elk", "score": 0.9}}]})");
  r = run_light("search Henderson --in " + q(col));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Henderson River"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.err.find("spotter_raw.geojson: not linked output"), std::string::npos) << r.err;
  r = run_light("search --index " + q(col));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  fs::remove(col + "/light-search.index");
  fs::remove(col + "/spotter_raw.geojson");
  write_text(col + "/linked.geojson", R"({"type": "FeatureCollection", "features": []})");
  r = run_light("search Henderson --in " + q(col));
  EXPECT_NE(r.out.find("Henderson River"), std::string::npos) << r.out << r.err;
  fs::remove_all(dir);
}

TEST(HostileInput, GeoreferencingThatCannotBeRightIsRefusedNamingTheFileAtFault) {
  const std::string dir = temp_dir(), src = source_path("data/synth-example"), words = q(src + "/annotations.json");
  const auto copy_tile = [&](const std::string& to, bool world) {
    fs::create_directories(to);
    fs::copy_file(src + "/topographic-1500.png", to + "/topographic-1500.png");
    if (world) fs::copy_file(src + "/topographic-1500.pgw", to + "/topographic-1500.pgw");
  };
  const auto link = [&](const std::string& images, const std::string& georef, const std::string& extra = "") {
    return run_light("link --method distance --words " + words + " --images " + q(images) + " --format geojson --georef " + georef + extra +
                     " -q -o " + q(dir + "/out.geojson"));
  };
  // A .prj saying WGS 84 beside a world file in metres.
  copy_tile(dir + "/wrongprj", true);
  write_text(dir + "/wrongprj/topographic-1500.prj",
             R"(GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]])");
  expect_error(link(dir + "/wrongprj", "auto"), "wrongprj/topographic-1500.png: pixel (22.370000, 244.060000) lands at longitude 482044");
  // A world file GDAL reads nothing from.
  copy_tile(dir + "/zero", false);
  write_text(dir + "/zero/topographic-1500.pgw", "0\n0\n0\n0\n0\n0\n");
  expect_error(link(dir + "/zero", "auto"), "zero/topographic-1500.pgw: lies beside topographic-1500.png but GDAL reads no georeferencing from it");
  // --georef-crs against the .prj beside the image.
  copy_tile(dir + "/crs", true);
  fs::copy_file(src + "/topographic-1500.prj", dir + "/crs/topographic-1500.prj");
  expect_error(link(dir + "/crs", "auto", " --georef-crs EPSG:3857"), "--georef-crs EPSG:3857: " + dir + "/crs/topographic-1500.png names its own coordinate system");
  // .points: latitudes past 90; a positive sourceY (above the image).
  write_text(dir + "/lat.points", "#CRS: EPSG:4326\nmapX,mapY,sourceX,sourceY,enable\n10,95,0,0,1\n11,95,1500,0,1\n10,120,0,-1500,1\n11,120,1500,-1500,1\n");
  expect_error(link(dir + "/crs", q(dir + "/lat.points")), "lat.points: pixel (22.370000, 244.060000) lands at longitude 10.01");
  write_text(dir + "/pos.points", "#CRS: EPSG:32613\nmapX,mapY,sourceX,sourceY,enable\n482000,4400000,0,0,1\n483000,4400000,1500,0,1\n"
                                  "482000,4399000,0,1500,1\n483000,4399000,1500,1500,1\n");
  expect_error(link(dir + "/crs", q(dir + "/pos.points")), "pos.points: line 5: sourceX 0.000000, sourceY 1500.000000 is off the 1500 x 1500 image");
  EXPECT_FALSE(fs::exists(dir + "/out.geojson"));
  // The bundled tile's own georeferencing still holds.
  EXPECT_EQ(link(src, "auto").exit_code, 0);
  fs::remove_all(dir);
}

TEST(HostileInput, AGeoJsonWordsIndexIsItsPlaceInTheWordsFileAndASpottersOwnIndexIsKept) {
  const std::string dir = temp_dir();
  write_text(dir + "/w.json", R"([{"image": "m.png", "groups": [)"
                              R"([{"vertices": [[45, 0], [80, 0], [80, 10], [45, 10]], "text": "Pole", "index": 99}],)"
                              R"([{"vertices": [[0, 0], [40, 0], [40, 10], [0, 10]], "text": "Lodge"}],)"
                              R"([{"vertices": [[0, 50], [40, 50], [40, 60], [0, 60]], "text": "Far"}]]}])");
  const RunResult r = run_light("link --method distance --words " + q(dir + "/w.json") + " --format geojson -q -o " + q(dir + "/o.geojson"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("1 word(s) carry their own \"index\", kept as \"spotter_index\""), std::string::npos) << r.err;
  const std::string out = read_text(dir + "/o.geojson");
  EXPECT_NE(out.find(R"({"text":"Lodge","index":1})"), std::string::npos) << out;
  EXPECT_NE(out.find(R"({"text":"Pole","index":0,"spotter_index":99})"), std::string::npos) << out;
  EXPECT_NE(out.find(R"({"text":"Far","index":2})"), std::string::npos) << out;
  fs::remove_all(dir);
}

TEST(HostileInput, AModelSizeAtAConfigsTopLevelIsRefusedNotIgnored) {
  const std::string dir = temp_dir();
  const std::string syn = synth_set(dir);
  write_text(dir + "/heads0.json", R"({"num_attention_heads": 0})");
  expect_error(run_light(train_args(syn, q(dir + "/heads0.json")) + " --out " + q(dir + "/run")),
               "heads0.json: num_attention_heads at the top level does nothing: it belongs under \"layoutlmv3\"");
  EXPECT_FALSE(fs::exists(dir + "/run"));
  fs::remove_all(dir);
}

TEST(HostileInput, ABinaryBuiltOutsideTheSourceTreeFindsTheBundledModel) {
  // A binary in a folder with no models/ beside or above it (cmake -S . -B /elsewhere).
  if (std::getenv("LIGHT_MODEL")) GTEST_SKIP() << "LIGHT_MODEL is set";
  const std::string found = light::link::find_default_model("/nonexistent/elsewhere/bin/");
  EXPECT_EQ(fs::path(found).lexically_normal(), fs::path(source_path("models/light-small")).lexically_normal());
}

TEST(HostileInput, AManifestThatGeoreferencesItsMapsIsLinkedInLonLatWithAHeuristic) {
  const std::string dir = temp_dir(), src = source_path("data/synth-example");
  write_text(dir + "/m.csv", "words,image,georef,name\n" + src + "/annotations.json," + src + "/topographic-1500.png,auto,topo\n");
  const RunResult r = run_light("link --method distance --collection " + q(dir + "/m.csv") + " -o " + q(dir + "/out") + " --format geojson -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_text(dir + "/out/topo.geojson").find("\"coordinates\":\"lonlat\""), std::string::npos);
  fs::remove_all(dir);
}

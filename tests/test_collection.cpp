// `light link --collection`: many maps, one output each, resumable, shared among machines.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "light/error.h"
#include "light/link/collection.h"
#include "light/maptext.h"
#include "test_util.h"

using namespace light;
using light::test::run_light;
using light::test::RunResult;
using light::test::q;

namespace {

// Three maps' words (the bundled example's predictions, under three image keys) in `dir`/words.
void three_maps(const std::string& dir) {
  std::filesystem::create_directories(dir + "/words");
  auto data = maptext::read_maptext(test::example_path("example_pred.json"), {maptext::Kind::Predictions});
  for (const char* name : {"alpha", "beta", "gamma"}) {
    data[0].image = std::string(name) + ".png";
    maptext::write_maptext(dir + "/words/" + name + ".json", data);
  }
}
}  // namespace

TEST(Collection, AFolderGivesAMapPerFileAndAManifestItsRows) {
  const std::string dir = test::temp_dir();
  three_maps(dir);
  const auto jobs = link::read_collection(dir + "/words");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[1].name, "beta");
  test::write_text(dir + "/maps.csv", "name,words,image,georef\nb1,words/beta.json,\"scans/beta, 1870.tif\",auto\n,words/alpha.json,,\n");
  const auto csv = link::read_collection(dir + "/maps.csv");
  ASSERT_EQ(csv.size(), 2u);
  EXPECT_EQ(csv[0].name, "b1");
  EXPECT_EQ(csv[0].words, dir + "/words/beta.json");  // relative to the manifest
  EXPECT_EQ(csv[0].image, dir + "/scans/beta, 1870.tif");
  EXPECT_EQ(csv[0].georef, "auto");
  EXPECT_EQ(csv[1].name, "alpha");
  test::write_text(dir + "/maps.jsonl", "{\"words\": \"words/gamma.json\", \"georef\": \"g.points\"}\n");
  const auto jl = link::read_collection(dir + "/maps.jsonl");
  ASSERT_EQ(jl.size(), 1u);
  EXPECT_EQ(jl[0].georef, dir + "/g.points");
  // Shards: every map in exactly one.
  std::set<std::string> seen;
  for (const char* s : {"1/2", "2/2"})
    for (const auto& j : link::shard(jobs, s)) EXPECT_TRUE(seen.insert(j.name).second);
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_EQ(link::shard(jobs, "2/2").size(), 2u);  // by a hash of the name (FNV-1a): alpha and beta
  EXPECT_EQ(link::shard(jobs, "1/2")[0].name, "gamma");
  for (const char* bad : {"0/2", "3/2", "1", "a/b", "1/2x"}) EXPECT_THROW(link::shard(jobs, bad), Error) << bad;
  // Bad manifests are named by line and column.
  test::write_text(dir + "/bad.csv", "words,colour\nx.json,red\n");
  try {
    link::read_collection(dir + "/bad.csv");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.csv: line 1: unknown column \"colour\""), std::string::npos) << e.what();
  }
  test::write_text(dir + "/twice.csv", "words\na/x.json\nb/x.json\n");
  EXPECT_THROW(link::read_collection(dir + "/twice.csv"), Error);
  std::filesystem::remove_all(dir);
}

TEST(Collection, LinksEachMapOnceResumesAndNamesAFailedMap) {
  const std::string dir = test::temp_dir();
  three_maps(dir);
  RunResult r = run_light("link --method distance --collection " + q(dir + "/words") + " --shard 2/2 -o " + q(dir + "/out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/out/alpha.json"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/out/beta.json"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/out/gamma.json"));  // the other shard's
  const auto before = std::filesystem::last_write_time(dir + "/out/alpha.json");
  // The whole collection: the two done maps are skipped, the third linked.
  r = run_light("link --method distance --collection " + q(dir + "/words") + " -o " + q(dir + "/out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("3 map(s) in this share; 2 already linked"), std::string::npos) << r.err;
  EXPECT_EQ(std::filesystem::last_write_time(dir + "/out/alpha.json"), before);
  const auto linked = maptext::read_maptext(dir + "/out/gamma.json", {maptext::Kind::Predictions});
  EXPECT_EQ(linked[0].image, "gamma.png");
  EXPECT_EQ(linked[0].word_count(), 7u);
  // A broken map is named, the others still linked, and the run fails.
  test::write_text(dir + "/words/delta.json", "[{\"image\": \"d.png\", \"groups\": [[{\"vertices\": [[0, 0]]}]]}]");
  r = run_light("link --method distance --format geojson --collection " + q(dir + "/words") + " -o " + q(dir + "/geo"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("map \"delta\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1 of 4 map(s) failed"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/geo/gamma.geojson"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/geo/delta.geojson"));
  // --words and --collection together: refused.
  r = run_light("link --method distance --words " + q(dir + "/words/alpha.json") + " --collection " + q(dir + "/words") + " -o " + q(dir + "/x"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("give --words FILE|DIR (one output) or --collection"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

TEST(Collection, TheBundledModelLinksAManifestsMapsWithTheirImages) {
  ::unsetenv("LIGHT_MODEL");
  const std::string dir = test::temp_dir();
  const std::string src = test::source_path("data/synth-example");
  auto gt = maptext::read_maptext(src + "/annotations.json", {maptext::Kind::GroundTruth});
  gt[0].image = "some-other-key.png";  // the manifest's image column names the file
  maptext::write_maptext(dir + "/sheet.json", gt);
  test::write_text(dir + "/maps.csv", "words,image\nsheet.json," + src + "/" + "topographic-1500.png\n");
  const RunResult r = run_light("link --collection " + q(dir + "/maps.csv") + " -o " + q(dir + "/out") + " -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = maptext::read_maptext(dir + "/out/sheet.json", {maptext::Kind::Predictions});
  EXPECT_EQ(out[0].word_count(), gt[0].word_count());
  EXPECT_LT(out[0].groups.size(), gt[0].word_count());
  std::filesystem::remove_all(dir);
}

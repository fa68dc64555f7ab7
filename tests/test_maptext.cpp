#include <gtest/gtest.h>

#include <filesystem>

#include "light/maptext.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "test_util.h"

using namespace light::maptext;
using light::test::example_path;

namespace {
const ReadOptions kGt{Kind::GroundTruth, false};
const ReadOptions kPred{Kind::Predictions, false};
const ReadOptions kPredText{Kind::Predictions, true};

// The error message for a bad input, or "" if it parsed.
std::string error_of(const std::string& json, const ReadOptions& opt, const std::string& name = "pred.json") {
  try {
    parse_maptext(json, name, opt);
  } catch (const light::Error& e) {
    return e.what();
  }
  return "";
}

const char* kWord = R"({"vertices": [[0,0],[10,0],[10,5]], "text": "A", "illegible": false, "truncated": false})";
std::string tile(const std::string& image, const std::string& groups) {
  return R"({"image": ")" + image + R"(", "groups": )" + groups + "}";
}
}  // namespace

TEST(MapText, ReadsTheExampleGroundTruth) {
  const Dataset d = read_maptext(example_path("example_gt.json"), kGt);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].image, "sample/D0042-1070015_h1_w0.png");
  ASSERT_EQ(d[0].groups.size(), 5u);
  EXPECT_EQ(d[0].word_count(), 9u);
  EXPECT_EQ(*d[0].groups[0][0].text, "Smith's");
  EXPECT_EQ(*d[0].groups[0][1].text, "Fork");
  ASSERT_EQ(d[0].groups[0][0].vertices.size(), 6u);
  EXPECT_EQ(d[0].groups[0][0].vertices[0].x, 1339.0);
  EXPECT_EQ(d[0].groups[0][0].vertices[0].y, 166.0);
  int ignored = 0;
  for (const auto& g : d[0].groups)
    for (const auto& w : g) ignored += w.ignore();
  EXPECT_EQ(ignored, 1);  // "Cold" is truncated
}

TEST(MapText, PredictionsMayOmitTextAndFlags) {
  const Dataset d = parse_maptext("[" + tile("a.png", R"([[{"vertices": [[0,0],[1,0],[1,1]]}]])") + "]", "p.json", kPred);
  ASSERT_EQ(d[0].groups[0].size(), 1u);
  EXPECT_FALSE(d[0].groups[0][0].text.has_value());
  EXPECT_FALSE(d[0].groups[0][0].ignore());
}

TEST(MapText, RoundTripsAndKeepsExtraKeys) {
  const std::string json = "[" +
      tile("x/t1.png", R"([[{"vertices": [[0.5,0],[10,0],[10,5]], "text": "Lodge", "score": 0.93,
                            "illegible": false, "truncated": true}], []])") +
      "," + tile("t2.png", "[]") + "]";
  const Dataset a = parse_maptext(json, "in.json", kGt);
  const Dataset b = parse_maptext(to_json_text(a), "out.json", kGt);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].image, "x/t1.png");
  ASSERT_EQ(b[0].groups.size(), 2u);
  EXPECT_TRUE(b[0].groups[1].empty());
  const Word& w = b[0].groups[0][0];
  EXPECT_EQ(*w.text, "Lodge");
  EXPECT_TRUE(*w.truncated);
  EXPECT_EQ(w.vertices[0].x, 0.5);
  EXPECT_EQ(w.extra, R"({"score":0.93})");
  EXPECT_EQ(to_json_text(a), to_json_text(b));
}

TEST(MapText, MalformedJsonNamesFileAndPosition) {
  const std::string e = error_of("[{\"image\": \"a.png\", \"groups\": [}]", kPred);
  EXPECT_NE(e.find("pred.json: not valid JSON"), std::string::npos) << e;
  EXPECT_NE(e.find("line 1, column"), std::string::npos) << e;
}

TEST(MapText, ErrorsNameImageGroupWordAndField) {
  // The exact message promised in the README.
  const std::string two_points = "[" +
      tile("sample/a.png", std::string("[[], [], [], [") + kWord + R"(, {"vertices": [[0,0],[1,1]]}]])") + "]";
  EXPECT_EQ(error_of(two_points, kPred),
            "pred.json: image \"sample/a.png\", group 3, word 1: \"vertices\" needs at least 3 [x, y] points, got 2");

  EXPECT_EQ(error_of(R"({"image": "a.png"})", kPred),
            "pred.json: the top level must be a list of image entries ({\"image\", \"groups\"}), got an object");
  EXPECT_EQ(error_of(R"([{"image": 3, "groups": []}])", kPred),
            "pred.json: image entry 0: \"image\" must be a string, got a number 3");
  EXPECT_EQ(error_of(R"([{"image": "a.png"}])", kPred), "pred.json: image \"a.png\": missing \"groups\"");
  EXPECT_EQ(error_of(R"([{"image": "a.png", "groups": [], "width": 2000}])", kPred),
            "pred.json: image \"a.png\": unknown key \"width\" (an image entry has exactly \"image\" and \"groups\")");
  EXPECT_EQ(error_of("[" + tile("a.png", "[]") + "," + tile("b.png", "[]") + "," + tile("a.png", "[]") + "]", kPred),
            "pred.json: image \"a.png\": appears twice (image entries 0 and 2)");
  EXPECT_EQ(error_of("[" + tile("a.png", "[{}]") + "]", kPred),
            "pred.json: image \"a.png\", group 0: a group must be a list of words, got an object");
  EXPECT_EQ(error_of("[" + tile("a.png", R"([["word"]])") + "]", kPred),
            "pred.json: image \"a.png\", group 0, word 0: a word must be an object, got a string \"word\"");
  EXPECT_EQ(error_of("[" + tile("a.png", R"([[{"vertices": [[0,0],[1,"a"],[1,1]]}]])") + "]", kPred),
            "pred.json: image \"a.png\", group 0, word 0: \"vertices\"[1] must be [x, y] with two numbers, got [1,\"a\"]");
  EXPECT_EQ(error_of("[" + tile("a.png", R"([[{"vertices": [[0,0],[1,true],[1,1]]}]])") + "]", kPred),
            "pred.json: image \"a.png\", group 0, word 0: \"vertices\"[1] must be [x, y] with two numbers, got [1,true]");
  EXPECT_EQ(error_of("[" + tile("a.png", R"([[{"text": "A"}]])") + "]", kPred),
            "pred.json: image \"a.png\", group 0, word 0: missing \"vertices\"");
  EXPECT_EQ(error_of("[" + tile("a.png", R"([[{"vertices": [[0,0],[1,0],[1,1]], "text": 5}]])") + "]", kPred),
            "pred.json: image \"a.png\", group 0, word 0: \"text\" must be a string, got a number 5");
}

TEST(MapText, GroundTruthNeedsTextAndFlags) {
  const std::string no_flags = "[" + tile("a.png", R"([[{"vertices": [[0,0],[1,0],[1,1]], "text": "A"}]])") + "]";
  EXPECT_EQ(error_of(no_flags, kGt, "gt.json"),
            "gt.json: image \"a.png\", group 0, word 0: missing \"illegible\" (ground-truth words need \"vertices\", "
            "\"text\", \"illegible\", \"truncated\")");
  EXPECT_EQ(error_of(no_flags, kPred), "");
  const std::string bad_flag =
      "[" + tile("a.png", R"([[{"vertices": [[0,0],[1,0],[1,1]], "text": "A", "illegible": "no", "truncated": false}]])") + "]";
  EXPECT_EQ(error_of(bad_flag, kGt, "gt.json"),
            "gt.json: image \"a.png\", group 0, word 0: \"illegible\" must be true or false, got a string \"no\"");
  const std::string no_text = "[" + tile("a.png", R"([[{"vertices": [[0,0],[1,0],[1,1]]}]])") + "]";
  EXPECT_EQ(error_of(no_text, kPred), "");
  EXPECT_NE(error_of(no_text, kPredText).find("missing \"text\" (recognition tasks"), std::string::npos);
}

TEST(MapText, MissingFileIsAClearError) {
  try {
    read_maptext("/nonexistent/pred.json", kPred);
    FAIL() << "no error";
  } catch (const light::Error& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/pred.json: cannot read: No such file or directory");
  }
}

TEST(MapText, WritesAtomically) {
  const std::string dir = light::test::temp_dir();
  const Dataset d = read_maptext(example_path("example_gt.json"), kGt);
  write_maptext(dir + "/out.json", d);
  EXPECT_EQ(read_maptext(dir + "/out.json", kGt)[0].word_count(), 9u);
  size_t files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);  // no temporary left behind
  EXPECT_THROW(write_maptext(dir + "/missing/out.json", d), light::Error);
  EXPECT_FALSE(std::filesystem::exists(dir + "/missing"));
  std::filesystem::remove_all(dir);
}

TEST(Files, RemoveTreeRemovesFoldersButNotWhatLinksPointTo) {
  namespace fs = std::filesystem;
  const std::string dir = light::test::temp_dir();
  fs::create_directories(dir + "/run/last/sub");
  fs::create_directories(dir + "/keep");
  light::write_file_atomic(dir + "/run/last/sub/a.txt", "a");
  light::write_file_atomic(dir + "/run/b.txt", "b");
  light::write_file_atomic(dir + "/keep/c.txt", "c");
  fs::create_directory_symlink(dir + "/keep", dir + "/run/link");
  light::remove_tree(dir + "/run");
  EXPECT_FALSE(fs::exists(dir + "/run"));
  EXPECT_TRUE(fs::exists(dir + "/keep/c.txt")) << "a link's target must survive";
  light::remove_tree(dir + "/run");  // gone already: nothing to do
  light::write_file_atomic(dir + "/file.txt", "x");
  light::remove_tree(dir + "/file.txt");
  EXPECT_FALSE(fs::exists(dir + "/file.txt"));
  fs::remove_all(dir);
}

// `light view`: tile pyramids, the page's data (verdicts as the evaluator gives them), the page folder
// and its guards. The page itself is driven in a real browser by tests/view_browser.sh.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "light/error.h"
#include "light/eval/evaluator.h"
#include "light/maptext.h"
#include "light/view/pyramid.h"
#include "light/view/view.h"
#include "test_util.h"

using namespace light;
using light::test::run_light;

namespace {

maptext::Word box(double x, const std::string& text) {
  maptext::Word w;
  w.vertices = {{x, 10}, {x + 40, 10}, {x + 40, 30}, {x, 30}};
  w.text = text;
  w.illegible = false, w.truncated = false;
  return w;
}

}  // namespace

TEST(ViewPyramid, LaysTilesOutAsDeepZoomDoes) {
  const std::string dir = test::temp_dir();
  cv::Mat img(300, 600, CV_8UC3, cv::Scalar(200, 180, 160));
  ASSERT_TRUE(cv::imwrite(dir + "/map.png", img));
  const view::Pyramid p = view::write_pyramid(dir + "/map.png", dir + "/tiles");
  EXPECT_EQ(p.width, 600);
  EXPECT_EQ(p.height, 300);
  EXPECT_EQ(p.max_level, 10);  // 2^10 = 1024 >= 600 > 512
  // Level 10: 3 x 2 tiles of 254 px, each with 1 px of its neighbours.
  const cv::Mat t10 = cv::imread(dir + "/tiles/10/1_0.jpg");
  EXPECT_EQ(t10.cols, 256);  // 253 .. 509
  EXPECT_EQ(t10.rows, 255);  // 0 .. 255
  EXPECT_EQ(cv::imread(dir + "/tiles/10/2_1.jpg").cols, 600 - 507);
  EXPECT_EQ(cv::imread(dir + "/tiles/10/2_1.jpg").rows, 300 - 253);
  EXPECT_FALSE(test::file_exists(dir + "/tiles/10/3_0.jpg"));
  // Level 9 halves it (300 x 150: 2 x 1 tiles); level 0 is one pixel.
  EXPECT_EQ(cv::imread(dir + "/tiles/9/1_0.jpg").cols, 300 - 253);
  EXPECT_EQ(cv::imread(dir + "/tiles/9/0_0.jpg").rows, 150);
  const cv::Mat t0 = cv::imread(dir + "/tiles/0/0_0.jpg");
  EXPECT_EQ(t0.cols, 1);
  EXPECT_EQ(t0.rows, 1);
  EXPECT_EQ(p.tiles, view::pyramid_tile_count(600, 300));
  size_t files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir + "/tiles")) files += e.is_regular_file();
  EXPECT_EQ(files, p.tiles);
  EXPECT_THROW(view::write_pyramid(dir + "/missing.png", dir + "/t2"), Error);
}

TEST(ViewData, LinksCarryTheEvaluatorsVerdicts) {
  // Ground truth A B C | D E; prediction A B | C D E: A->B and D->E correct, C->D wrong, B->C missed.
  maptext::Tile gt{"m.png", {{box(0, "A"), box(50, "B"), box(100, "C")}, {box(200, "D"), box(250, "E")}}};
  maptext::Tile pred{"m.png", {{box(0, "A"), box(50, "B")}, {box(100, "C"), box(200, "D"), box(250, "E")}}};
  pred.groups[0][0].extra = R"({"successor_probability": 0.875})";
  eval::Options eo;
  eo.task = eval::Task::DetEdges;
  eo.edge_verdicts = true;
  const eval::Report r = eval::evaluate({gt}, {pred}, eo);
  EXPECT_EQ(r.edges_correct, 2);
  EXPECT_EQ(r.edges_wrong, 1);
  EXPECT_EQ(r.edges_missed, 1);
  ASSERT_EQ(r.edges.size(), 1u);
  EXPECT_EQ(r.edges[0].wrong, (std::vector<std::pair<int, int>>{{2, 3}}));
  EXPECT_EQ(r.edges[0].missed, (std::vector<std::pair<int, int>>{{1, 2}}));

  maptext::Dataset g{gt};
  view::ViewOptions o;
  o.gt = &g;
  view::Pyramid p;
  p.width = 300, p.height = 40, p.max_level = 9;
  const auto j = nlohmann::json::parse(view::view_data_json({pred}, {p}, o));
  EXPECT_EQ(j["scores"]["correct"], 2);
  EXPECT_EQ(j["scores"]["wrong"], 1);
  EXPECT_EQ(j["scores"]["missed"], 1);
  EXPECT_EQ(j["scores"]["edges_fscore"], "66.7");
  const auto& img = j["images"][0];
  EXPECT_EQ(img["next"], nlohmann::json::parse("[1, -1, 3, 4, -1]"));
  EXPECT_EQ(img["verdict"], nlohmann::json::parse(R"(["c", null, "w", "c", null])"));
  EXPECT_EQ(img["prob"][0], 0.875);
  EXPECT_TRUE(img["prob"][1].is_null());
  ASSERT_EQ(img["missed"].size(), 1u);
  EXPECT_EQ(img["missed"][0]["from"], "B");
  EXPECT_EQ(img["missed"][0]["line"], nlohmann::json::parse("[70, 20, 120, 20]"));
  EXPECT_EQ(img["phrases"][1]["text"], "C D E");
  EXPECT_EQ(img["phrases"][1]["n"], "c d east");  // search's normal form ("E" is "east")
}

TEST(ViewData, PhrasesCarryTheirPlaces) {
  maptext::Tile pred{"m.png", {{box(0, "Lodge"), box(50, "Pole"), box(100, "Cr.")}, {box(200, "Bank")}}};
  view::ViewOptions o;
  o.places = [](const std::string& image) {
    std::vector<std::optional<output::PlaceLink>> v(2);
    if (image != "m.png") return v;
    output::PlaceLink p;
    p.uri = "https://sws.geonames.org/5428436/", p.name = "Lodgepole Creek", p.accepted = true;
    v[0] = p;
    return v;
  };
  view::Pyramid p;
  p.width = 300, p.height = 40, p.max_level = 9;
  const auto j = nlohmann::json::parse(view::view_data_json({pred}, {p}, o));
  const auto& phrases = j["images"][0]["phrases"];
  EXPECT_EQ(phrases[0]["place"]["uri"], "https://sws.geonames.org/5428436/");
  EXPECT_EQ(phrases[0]["place"]["name"], "Lodgepole Creek");
  EXPECT_EQ(phrases[0]["place"]["accepted"], true);
  EXPECT_FALSE(phrases[1].contains("place"));
}

TEST(ViewCli, WritesAWholePageOrNothing) {
  const std::string dir = test::temp_dir();
  const std::string ex = test::source_path("data/synth-example");
  auto r = run_light("view --words '" + ex + "/annotations.json' --images '" + ex + "' -o '" + dir + "/page' -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"index.html", "light-view.js", "light-view.css", "data.js", "openseadragon/openseadragon.min.js",
                        "openseadragon/LICENSE.txt", "tiles/0/11/0_0.jpg"})
    EXPECT_TRUE(test::file_exists(dir + "/page/" + f)) << f;
  // Never over an existing page.
  const std::string before = test::read_text(dir + "/page/data.js");
  r = run_light("view --words '" + ex + "/annotations.json' --images '" + ex + "' -o '" + dir + "/page' -q");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("exists and is not an empty folder"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_text(dir + "/page/data.js"), before);
  // A missing image is named, and no folder is left behind.
  auto data = maptext::read_maptext(ex + "/annotations.json", {maptext::Kind::GroundTruth});
  data[0].image = "nowhere.png";
  maptext::write_maptext(dir + "/words.json", data);
  r = run_light("view --words '" + dir + "/words.json' --images '" + ex + "' -o '" + dir + "/page2' -q");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("nowhere.png"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/page2"));
  for (const auto& e : std::filesystem::directory_iterator(dir)) EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
  // --task is checked.
  r = run_light("view --words '" + ex + "/annotations.json' --images '" + ex + "' --gt '" + ex + "/annotations.json' --task det -o '" + dir +
                "/page3' -q");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--task"), std::string::npos) << r.err;
}

TEST(ViewPyramid, ReadsThroughGdalWhatOpenCvCannot) {
  // The same map as ENVI raw (a format GDAL reads and OpenCV does not): the same tiles, byte for byte.
  const std::string dir = test::temp_dir();
  const std::string png = test::source_path("data/synth-example/topographic-1500.png");
  ASSERT_EQ(std::system(("gdal_translate -q -of ENVI '" + png + "' '" + dir + "/map.img'").c_str()), 0) << "gdal-bin is needed";
  const view::Pyramid a = view::write_pyramid(png, dir + "/a");
  const view::Pyramid b = view::write_pyramid(dir + "/map.img", dir + "/b");
  EXPECT_EQ(b.width, 1500);
  EXPECT_EQ(a.tiles, b.tiles);
  for (const char* t : {"/11/0_0.jpg", "/11/5_5.jpg", "/8/0_0.jpg"}) EXPECT_EQ(test::read_text(dir + "/a" + t), test::read_text(dir + "/b" + t)) << t;
}

// Reading with the gazetteer (text/ctc_likelihood.h, geo/word_rereading.h, `light link --georef names
// --reread`): a text's CTC likelihood against every path enumerated, a georeferenced map's unsure words
// read again as the names of the places near them only when their pixels bear the name out, and the
// correction written beside what was read.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "dengie_map.h"
#include "light/geo/gazetteer_index.h"
#include "light/geo/names_georeference.h"
#include "light/geo/word_rereading.h"
#include "light/text/ctc_likelihood.h"
#include "test_util.h"

using namespace light;

TEST(CtcLikelihood, EqualsTheSumOverEveryPathThatCollapsesToTheText) {
  // Three steps over the blank and two letters: every one of the 27 paths collapsed, its probability
  // added to its text's.
  const int T = 3, K = 3;
  const std::vector<double> p = {0.5, 0.3, 0.2, 0.1, 0.6, 0.3, 0.4, 0.4, 0.2};
  std::map<std::vector<int>, double> by_text;
  for (int a = 0; a < K; ++a)
    for (int b = 0; b < K; ++b)
      for (int c = 0; c < K; ++c) {
        const int path[3] = {a, b, c};
        std::vector<int> text;
        int prev = 0;
        for (int s : path) {
          if (s != 0 && s != prev) text.push_back(s);
          prev = s;
        }
        by_text[text] += p[a] * p[K + b] * p[2 * K + c];
      }
  std::vector<float> logs;
  for (double v : p) logs.push_back(static_cast<float>(std::log(v)));
  double total = 0;
  for (const auto& [text, prob] : by_text) {
    EXPECT_NEAR(std::exp(text::ctc_log_likelihood(logs, T, K, text)), prob, 1e-6);
    total += std::exp(text::ctc_log_likelihood(logs, T, K, text));
  }
  EXPECT_NEAR(total, 1.0, 1e-6);
  EXPECT_EQ(by_text.size(), 9u);  // "", a, b, aa, bb, ab, ba, aba, bab
  // Texts no path writes: four letters in three steps, a letter twice in two (a blank must part them).
  EXPECT_EQ(text::ctc_log_likelihood(logs, T, K, {1, 2, 1, 2}), -INFINITY);
  const std::vector<float> two(logs.begin(), logs.begin() + 2 * K);
  EXPECT_EQ(text::ctc_log_likelihood(two, 2, K, {1, 1}), -INFINITY);
  EXPECT_NEAR(std::exp(text::ctc_log_likelihood(two, 2, K, {1, 2})), 0.3 * 0.3, 1e-6);
  EXPECT_THROW(text::ctc_log_likelihood(logs, T, K, {0}), std::invalid_argument);
}

namespace {

// The Dengie towns as a gazetteer, and each one's label right of its dot as a phrase of one word read
// as `texts` says (the town's name otherwise) with `scores` (-1: none).
struct DengieMap {
  geo::Gazetteer gazetteer;
  std::vector<search::Phrase> phrases;
};

DengieMap dengie_map(const std::map<std::string, std::string>& texts, const std::map<std::string, double>& scores) {
  std::vector<geo::Place> places;
  for (const test::Town& t : test::kTowns) {
    geo::Place p;
    p.id = static_cast<int64_t>(places.size()) + 1, p.name = t.name, p.lon = t.lon, p.lat = t.lat, p.feature_class = "P";
    places.push_back(p);
  }
  DengieMap m{geo::Gazetteer(places, std::vector<std::vector<geo::AlternateName>>(places.size())), {}};
  for (const test::Town& t : test::kTowns) {
    const geo::PlanePoint d = test::essex_pixel(t.lon, t.lat);
    const double x0 = d.x + 8, x1 = d.x + 8 + 12.0 * std::strlen(t.name);
    search::Phrase p;
    p.image = "essex.png";
    p.group = static_cast<uint32_t>(m.phrases.size());
    const auto text = texts.find(t.name);
    const auto score = scores.find(t.name);
    p.words.push_back({text == texts.end() ? t.name : text->second,
                       {{x0, d.y + 10}, {x1, d.y + 10}, {x1, d.y - 10}, {x0, d.y - 10}},
                       score == scores.end() ? -1.0 : score->second});
    m.phrases.push_back(p);
  }
  return m;
}

std::vector<std::vector<double>> word_scores(const std::vector<search::Phrase>& phrases) {
  std::vector<std::vector<double>> out;
  for (const auto& p : phrases) out.push_back({p.words[0].score});
  return out;
}

}  // namespace

TEST(WordRereading, ASpottedWordTakesTheNameOfAPlaceNearItOnlyWhenItsPixelsBearItOut) {
  // Spotted: Tollesbury misread, Maldon misread in capitals, Canewdon read right; the other words given
  // without a score.
  const DengieMap d =
      dengie_map({{"Tollesbury", "Tollesbvry"}, {"Maldon", "MALDOM"}}, {{"Tollesbury", 0.6}, {"Maldon", 0.7}, {"Canewdon", 0.5}});
  const geo::MapNames m = geo::match_map_names("essex.png", d.phrases, 2000, 2000, d.gazetteer, true);
  ASSERT_TRUE(m.result.ok) << m.result.reason;
  // The recogniser, as this test has it: each text's log-likelihood on its word's pixels.
  const std::map<std::string, double> ll = {{"Tollesbvry", -5}, {"Tollesbury", -3}, {"MALDOM", -2}, {"MALDON", -2.5}};
  std::vector<std::string> asked;
  const geo::WordLikelihoods likelihoods = [&](const std::vector<maptext::Point>& polygon, const std::vector<std::string>& texts) {
    EXPECT_EQ(polygon.size(), 4u);
    asked.push_back(texts[0]);
    std::vector<double> out;
    for (const auto& t : texts) out.push_back(ll.count(t) ? ll.at(t) : -30.0);
    return out;
  };
  // Strict: a name must be likelier than the reading.
  geo::RereadOptions strict;
  strict.min_gain = 0;
  const auto rereads = geo::reread_words(m, d.gazetteer, word_scores(d.phrases), likelihoods, strict);
  ASSERT_EQ(rereads.size(), 1u);
  EXPECT_EQ(rereads[0].phrase, 0u);
  EXPECT_EQ(rereads[0].read, "Tollesbvry");
  EXPECT_EQ(rereads[0].text, "Tollesbury");
  EXPECT_EQ(d.gazetteer.place(rereads[0].place).name, "Tollesbury");
  EXPECT_DOUBLE_EQ(rereads[0].gain, 2.0);
  // Canewdon is already a name near it and Burnham has no score (a word given, not spotted): neither
  // weighed.
  EXPECT_EQ(asked, (std::vector<std::string>{"Tollesbvry", "MALDOM"}));
  // By default a name somewhat less likely than the reading replaces it (a name near a word is far
  // likelier a priori than a string read), in the reading's capitals; one far less likely does not.
  const auto more = geo::reread_words(m, d.gazetteer, word_scores(d.phrases), likelihoods);
  ASSERT_EQ(more.size(), 2u);
  EXPECT_EQ(more[1].read, "MALDOM");
  EXPECT_EQ(more[1].text, "MALDON");
  EXPECT_DOUBLE_EQ(more[1].gain, -0.5);
  geo::RereadOptions unsure_only;
  unsure_only.max_score = 0.65;  // only words scored 0.65 or less
  EXPECT_EQ(geo::reread_words(m, d.gazetteer, word_scores(d.phrases), likelihoods, unsure_only).size(), 1u);
  // A reading the recogniser cannot write (a character outside its alphabet): left as read.
  const geo::WordLikelihoods unwritable = [&](const std::vector<maptext::Point>&, const std::vector<std::string>& texts) {
    std::vector<double> out(texts.size(), -3.0);
    out[0] = -INFINITY;
    return out;
  };
  EXPECT_TRUE(geo::reread_words(m, d.gazetteer, word_scores(d.phrases), unwritable).empty());
  // A map not georeferenced: nothing is near anything.
  const geo::MapNames unplaced = geo::match_map_names("essex.png", d.phrases, 2000, 2000, d.gazetteer, false);
  EXPECT_TRUE(geo::reread_words(unplaced, d.gazetteer, word_scores(d.phrases), likelihoods).empty());
}

TEST(WordRereading, NamesTakeTheReadingsCapitals) {
  EXPECT_EQ(geo::in_case_of("Valdosta", "VALDOSTE"), "VALDOSTA");
  EXPECT_EQ(geo::in_case_of("N\xC3\xAEmes", "NIMES"), "N\xC3\x8EMES");
  EXPECT_EQ(geo::in_case_of("Valdosta", "Valdoste"), "Valdosta");
  EXPECT_EQ(geo::in_case_of("Valdosta", "valdoste"), "Valdosta");
  EXPECT_EQ(geo::in_case_of("Ch\xC5\xABru", "CHiRU"),
            "CH\xC5\xAARU");                        // mostly capitals
  EXPECT_EQ(geo::in_case_of("Ames", "A"), "Ames");  // one capital tells no case
}

TEST(Gazetteer, FindsThePlacesInsideALongitudeLatitudeBoxAcrossTheAntimeridianToo) {
  std::vector<geo::Place> places(4);
  const double at[4][2] = {{0.8, 51.7}, {2.3, 48.9}, {179.5, -17.0}, {-179.8, -16.5}};
  for (size_t k = 0; k < 4; ++k) places[k].name = "P" + std::to_string(k), places[k].lon = at[k][0], places[k].lat = at[k][1];
  const geo::Gazetteer g(places, std::vector<std::vector<geo::AlternateName>>(4));
  EXPECT_EQ(g.places_within(0, 50, 1, 52), (std::vector<uint32_t>{0}));
  EXPECT_EQ(g.places_within(-5, 45, 5, 55), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(g.places_within(179, -18, -179, -16), (std::vector<uint32_t>{2, 3}));  // west > east: across
  EXPECT_TRUE(g.places_within(10, 0, 20, 10).empty());
}

TEST(LinkReread, AWordTheSpotterMisreadIsReadAgainAsTheTownBesideItAndKeepsItsReading) {
  // The Dengie map drawn: each town's name right of its dot; the words file has Tollesbury misread
  // ("Tollesbvry", unsure), the rest read right and sure.
  const std::string dir = test::temp_dir();
  std::string csv = "name,lon,lat,type\n";
  for (const test::Town& t : test::kTowns)
    csv += std::string(t.name) + "," + std::to_string(t.lon) + "," + std::to_string(t.lat) + ",town\n";
  test::write_text(dir + "/essex.csv", csv);
  auto r = test::run_light("gazetteer build -q --places " + test::q(dir + "/essex.csv") + " --out " + test::q(dir + "/essex.gaz"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  cv::Mat image(2000, 2000, CV_8UC3, cv::Scalar(235, 242, 246));
  nlohmann::json groups = nlohmann::json::array();
  for (const test::Town& t : test::kTowns) {
    const geo::PlanePoint d = test::essex_pixel(t.lon, t.lat);
    int base = 0;
    const cv::Size size = cv::getTextSize(t.name, cv::FONT_HERSHEY_DUPLEX, 0.9, 2, &base);
    const cv::Point at(static_cast<int>(d.x) + 12, static_cast<int>(d.y) + size.height / 2);
    cv::circle(image, cv::Point(static_cast<int>(d.x), static_cast<int>(d.y)), 5, cv::Scalar(40, 40, 40), cv::FILLED);
    cv::putText(image, t.name, at, cv::FONT_HERSHEY_DUPLEX, 0.9, cv::Scalar(30, 30, 30), 2, cv::LINE_AA);
    const double x0 = at.x - 4, x1 = at.x + size.width + 4, y0 = at.y - size.height - 5, y1 = at.y + base + 3;
    const bool misread = std::string(t.name) == "Tollesbury";
    groups.push_back({{{"vertices", {{x0, y1}, {x1, y1}, {x1, y0}, {x0, y0}}},
                       {"text", misread ? "Tollesbvry" : t.name},
                       {"score", misread ? 0.62 : 0.99}}});
  }
  std::filesystem::create_directories(dir + "/images");
  cv::imwrite(dir + "/images/essex.png", image);
  test::write_text(dir + "/linked.json", nlohmann::json::array({{{"image", "essex.png"}, {"groups", groups}}}).dump());
  const std::string common = "link --method distance --words " + test::q(dir + "/linked.json") + " --images " + test::q(dir + "/images") +
                             " --gazetteer " + test::q(dir + "/essex.gaz") + " --georef names --format geojson";
  r = test::run_light(common + " -o " + test::q(dir + "/out.geojson"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("reread: essex.png: 1 word(s) read again as the names "
                       "of places near them (Tollesbvry -> Tollesbury)"),
            std::string::npos)
      << r.err;
  const nlohmann::json fc = nlohmann::json::parse(test::read_text(dir + "/out.geojson"));
  bool seen = false;
  for (const auto& f : fc["features"]) {
    const auto& word = f["properties"]["words"][0];
    if (word.contains("read_as")) {
      seen = true;
      EXPECT_EQ(word["read_as"], "Tollesbvry");
      EXPECT_EQ(word["text"], "Tollesbury");
      EXPECT_EQ(f["properties"]["text"], "Tollesbury");
      EXPECT_EQ(word["read_by"], f["properties"]["place"]["uri"]);
      EXPECT_EQ(f["properties"]["place"]["name"], "Tollesbury");
    } else {
      EXPECT_EQ(word["text"], f["properties"]["place"]["name"]);
    }
  }
  EXPECT_TRUE(seen);
  // --reread none: the reading stands.
  r = test::run_light(common + " --reread none -o " + test::q(dir + "/as-read.geojson"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("reread:"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_text(dir + "/as-read.geojson").find("read_as"), std::string::npos);
  EXPECT_NE(test::read_text(dir + "/as-read.geojson").find("Tollesbvry"), std::string::npos);
  // A value --reread does not know: refused by name, nothing written.
  r = test::run_light(common + " --reread always -o " + test::q(dir + "/bad.geojson"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--reread"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/bad.geojson"));
  std::filesystem::remove_all(dir);
}

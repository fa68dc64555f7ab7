// `light search`: normalised place names, edit distances, the trigram index, saved indexes, the CLI.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/eval/edit_distance.h"
#include "light/maptext.h"
#include "light/search/normalize.h"
#include "light/search/phrase_index.h"
#include "light/util/utf8.h"
#include "test_util.h"

using namespace light;
using light::test::run_light;

namespace {

search::Phrase phrase(const std::string& file, const std::string& image, uint32_t group, const std::vector<std::string>& words) {
  search::Phrase p;
  p.file = file, p.image = image, p.group = group;
  double x = 0;
  for (const auto& w : words) {
    p.words.push_back({w, {{x, 0}, {x + 10, 0}, {x + 10, 5}, {x, 5}}});
    x += 12;
  }
  return p;
}

// `text` with the characters at positions a and b (code points, not spaces) replaced by a letter
// that is not there: two misread characters.
std::string two_errors(const std::string& text, size_t a, size_t b) {
  std::u32string s = utf8_decode(text);
  for (size_t at : {a, b}) s[at] = s[at] == U'q' ? U'z' : U'q';
  return utf8_encode(s);
}

// A synthetic collection: `light synth` tiles, one linked file per tile, in dir/linked.
void synthetic_collection(const std::string& dir) {
  const auto r = run_light("synth --out '" + dir + "/synth' --count 4 --seed 41 --size 900 --density 1.5 -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto data = maptext::read_maptext(dir + "/synth/annotations.json", {maptext::Kind::GroundTruth});
  std::filesystem::create_directories(dir + "/linked/part");
  for (size_t k = 0; k < data.size(); ++k)
    maptext::write_maptext(dir + "/linked/" + (k % 2 ? "part/" : "") + "map" + std::to_string(k) + ".json", {data[k]});
}

}  // namespace

TEST(SearchNormalize, FoldsCaseAndAccentsAndExpandsMapAbbreviations) {
  EXPECT_EQ(search::normalize("Lodge Pole Cr."), "lodge pole creek");
  EXPECT_EQ(search::normalize("LODGE POLE CREEK"), "lodge pole creek");
  EXPECT_EQ(search::normalize("MT. ELBERT"), "mount elbert");
  EXPECT_EQ(search::normalize("Mt Elbert"), "mount elbert");
  EXPECT_EQ(search::normalize("Bogotá"), "bogota");
  EXPECT_EQ(search::normalize("Straße"), "strasse");
  EXPECT_EQ(search::normalize("Denver & Rio-Grande R.R."), "denver and rio grande railroad");
  EXPECT_EQ(search::normalize("St.Louis"), "saint louis");
  EXPECT_EQ(search::normalize("O'Neill's Fork"), "oneills fork");
  EXPECT_EQ(search::normalize("  N.  Platte  R. "), "north platte river");
  EXPECT_EQ(search::normalize("…"), "");
  EXPECT_THROW(search::normalize(std::string("Bad \xff byte")), Error);
  // The table is sorted (it is searched by bisection) and every short form is its own normal form.
  const auto& t = search::abbreviations();
  for (size_t i = 1; i < t.size(); ++i) EXPECT_LT(std::string(t[i - 1].short_form), std::string(t[i].short_form));
  for (const auto& a : t) EXPECT_EQ(search::normalize(std::string(a.short_form) + "."), a.word);
}

TEST(SearchIndex, RanksByEditsThenWholePhrasesBeforeParts) {
  const search::PhraseIndex index({phrase("a.json", "m1.png", 0, {"Lodge", "Pole", "Cr."}),
                                   phrase("a.json", "m1.png", 1, {"Lodge", "Pole"}),
                                   phrase("b.json", "m2.png", 4, {"LODGE", "POIE", "CREEK"}),
                                   phrase("b.json", "m2.png", 5, {"Denver", "and", "Rio", "Grande"})});
  auto m = index.find("Lodge Pole Creek");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].phrase, 0u);
  EXPECT_EQ(m[0].edits, 0u);
  EXPECT_EQ(m[1].phrase, 2u);  // "poie": one misread letter
  EXPECT_EQ(m[1].edits, 1u);
  m = index.find("lodge pole");
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].phrase, 1u);  // the whole phrase first
  EXPECT_TRUE(m[0].whole);
  EXPECT_EQ(m[1].phrase, 0u);  // then the part of "Lodge Pole Cr."
  EXPECT_FALSE(m[1].whole);
  EXPECT_EQ(m[1].first_word, 0u);
  EXPECT_EQ(m[1].last_word, 1u);
  EXPECT_EQ(m[2].phrase, 2u);
  EXPECT_EQ(index.find("lodge pole", {.max_edits = -1, .parts = false, .limit = 20}).size(), 1u);
  m = index.find("Rio Grande");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].first_word, 2u);
  EXPECT_EQ(m[0].last_word, 3u);
  EXPECT_TRUE(index.find("Rio Grandy", {.max_edits = 0}).empty());
  EXPECT_EQ(index.find("Rio Grandy", {.max_edits = 1}).size(), 1u);
  EXPECT_TRUE(index.find("...").empty());
  const search::Phrase p = index.phrase(3);
  EXPECT_EQ(p.text(), "Denver and Rio Grande");
  EXPECT_EQ(p.file, "b.json");
  EXPECT_EQ(p.image, "m2.png");
  EXPECT_EQ(p.group, 5u);
  ASSERT_EQ(p.words.size(), 4u);
  EXPECT_DOUBLE_EQ(p.words[1].vertices[1].x, 22.0);
}

TEST(SearchIndex, TheTrigramFilterNarrowsCandidatesWithoutLosingMatches) {
  std::vector<search::Phrase> many;
  for (int i = 0; i < 2000; ++i) many.push_back(phrase("f.json", "m.png", static_cast<uint32_t>(i), {"Name" + std::to_string(i), "Creek"}));
  many.push_back(phrase("f.json", "m.png", 2000, {"Lodge", "Pole", "Creek"}));
  const search::PhraseIndex index(many);
  const auto m = index.find("Lodgr Pole Creek", {.max_edits = 2});
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].phrase, 2000u);
  EXPECT_LT(index.last_candidates(), 50u);  // not the 2,001 phrases
  // A query that repeats its trigrams is counted by each occurrence: "Ploy7" shares one trigram of
  // "Puloypuloy", held twice, of the 10 - 3 x 2 = 4 needed (counted once, 1 of the 7 distinct would do).
  std::vector<search::Phrase> plays;
  for (int i = 0; i < 2000; ++i) plays.push_back(phrase("f.json", "m.png", static_cast<uint32_t>(i), {"Ploy" + std::to_string(i)}));
  plays.push_back(phrase("f.json", "m.png", 2000, {"Puloypuloi"}));
  const search::PhraseIndex repeated(plays);
  const auto r = repeated.find("Puloypuloy", {.max_edits = 2});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].phrase, 2000u);
  EXPECT_LT(repeated.last_candidates(), 50u);
  EXPECT_EQ(search::auto_max_edits(3), 0);
  EXPECT_EQ(search::auto_max_edits(10), 2);
  EXPECT_EQ(search::auto_max_edits(40), 3);
}

TEST(SearchIndex, ASavedIndexIsMappedAndAnswersAsBuilt) {
  const std::string dir = test::temp_dir();
  const search::PhraseIndex built({phrase("a.json", "m1.png", 0, {"Mt.", "Elbert"}), phrase("a.json", "m1.png", 1, {"Bogotá"})},
                                  {{"a.json", 123, 456}});
  built.save(dir + "/x.index");
  const search::PhraseIndex opened = search::PhraseIndex::open(dir + "/x.index");
  EXPECT_EQ(opened.size(), 2u);
  EXPECT_EQ(opened.bytes(), built.bytes());
  ASSERT_EQ(opened.sources().size(), 1u);
  EXPECT_EQ(opened.sources()[0].size, 123u);
  EXPECT_EQ(opened.sources()[0].mtime_ns, 456);
  ASSERT_EQ(opened.find("mount elbert").size(), 1u);
  EXPECT_EQ(opened.phrase(1).text(), "Bogotá");
  EXPECT_EQ(opened.find("BOGOTA")[0].phrase, 1u);
  // A file that is not an index, or one cut short, is refused by name.
  test::write_text(dir + "/not.index", "hello");
  try {
    search::PhraseIndex::open(dir + "/not.index");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(dir + "/not.index: not a light search index"), std::string::npos) << e.what();
  }
  const std::string whole = test::read_text(dir + "/x.index");
  test::write_text(dir + "/cut.index", whole.substr(0, whole.size() - 9));
  EXPECT_THROW(search::PhraseIndex::open(dir + "/cut.index"), Error);
}

TEST(SearchIndex, ReadsLightsGeoJsonWithCoordinates) {
  const std::string dir = test::temp_dir();
  test::write_text(dir + "/m.geojson", R"({"type":"FeatureCollection","features":[
{"type":"Feature","id":"m.png#7","geometry":{"type":"MultiPolygon","coordinates":[[[[-105,40],[-104,40],[-104,41],[-105,41],[-105,40]]]]},
 "properties":{"image":"m.png","text":"Denver","coordinates":"lonlat","words":[{"text":"Denver","index":3,"pixel_vertices":[[1,2],[3,2],[3,4],[1,4]]}]}}]})");
  const auto phrases = search::read_linked_phrases(dir + "/m.geojson");
  ASSERT_TRUE(phrases.has_value());
  ASSERT_EQ(phrases->size(), 1u);
  const auto& p = (*phrases)[0];
  EXPECT_EQ(p.group, 7u);
  ASSERT_TRUE(p.lonlat.has_value());
  EXPECT_DOUBLE_EQ(p.lonlat->x, -104.5);
  EXPECT_DOUBLE_EQ(p.lonlat->y, 40.5);
  ASSERT_EQ(p.words[0].vertices.size(), 4u);
  EXPECT_DOUBLE_EQ(p.words[0].vertices[2].y, 4.0);
  // A bad field is named.
  test::write_text(dir + "/bad.geojson", R"({"type":"FeatureCollection","features":[{"type":"Feature","properties":{"image":3,"words":[]}}]})");
  try {
    search::read_linked_phrases(dir + "/bad.geojson");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.geojson: features[0].properties.image"), std::string::npos) << e.what();
  }
  test::write_text(dir + "/options.json", R"({"lr": 0.1})");
  EXPECT_FALSE(search::read_linked_phrases(dir + "/options.json").has_value());
}

TEST(SearchCollection, FindsEveryPhraseByItsTextAndWithTwoMisreadCharacters) {
  const std::string dir = test::temp_dir();
  synthetic_collection(dir);
  std::vector<std::string> notes;
  const search::PhraseIndex index = search::build_folder_index(dir + "/linked", &notes);
  EXPECT_EQ(index.sources().size(), 4u);
  ASSERT_GT(index.size(), 40u);
  size_t checked = 0;
  for (uint32_t k = 0; k < index.size(); ++k) {
    const search::Phrase p = index.phrase(k);
    const std::string norm = index.normalized(k);
    if (norm.empty()) continue;
    auto has = [&](const std::vector<search::Match>& m, uint32_t edits) {
      for (const auto& x : m)
        if (x.phrase == k) return x.edits <= edits && x.whole;
      return false;
    };
    EXPECT_TRUE(has(index.find(p.text(), {.max_edits = 0, .parts = true, .limit = 0}), 0)) << p.text();
    // Two characters misread, away from each other (not spaces).
    const std::u32string u = utf8_decode(norm);
    std::vector<size_t> at;
    for (size_t i = 0; i < u.size(); ++i)
      if (u[i] != U' ') at.push_back(i);
    if (at.size() < 2) continue;
    const std::string wrong = two_errors(norm, at.front(), at[at.size() / 2]);
    EXPECT_TRUE(has(index.find(wrong, {.max_edits = 2, .parts = true, .limit = 0}), 2)) << p.text() << " as " << wrong;
    ++checked;
  }
  EXPECT_GT(checked, 40u);
}

TEST(SearchCli, IndexesAFolderOnceAndTellsAStaleIndex) {
  const std::string dir = test::temp_dir();
  synthetic_collection(dir);
  const auto data = maptext::read_maptext(dir + "/linked/map0.json", {maptext::Kind::GroundTruth});
  std::string name;
  for (const auto& w : data[0].groups[0]) name += (name.empty() ? "" : " ") + w.text.value_or("");
  // Without an index: the files are read.
  auto r = run_light("search '" + name + "' --in '" + dir + "/linked' --json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_GE(j.size(), 1u);
  EXPECT_EQ(j[0]["text"], name);
  EXPECT_EQ(j[0]["edits"], 0);
  EXPECT_EQ(j[0]["image"], data[0].image);
  EXPECT_EQ(j[0]["group"], 0);
  EXPECT_EQ(j[0]["words"].size(), data[0].groups[0].size());
  // Built once, then used (and a changed file makes it stale, said on stderr).
  r = run_light("search --index '" + dir + "/linked'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(test::file_exists(dir + "/linked/light-search.index"));
  r = run_light("search '" + name + "' --in '" + dir + "/linked'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"" + name + "\""), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("out of date"), std::string::npos) << r.err;
  maptext::write_maptext(dir + "/linked/map9.json", data);
  r = run_light("search '" + name + "' --in '" + dir + "/linked'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("out of date"), std::string::npos) << r.err;
  // The index file itself can be searched.
  r = run_light("search '" + name + "' --in '" + dir + "/linked/light-search.index' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)[0]["text"], name);
  // A damaged index is named, and the files are searched instead.
  test::write_text(dir + "/linked/light-search.index", "LIGHTSIX garbage");
  r = run_light("search '" + name + "' --in '" + dir + "/linked' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("light-search.index: not a light search index"), std::string::npos) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)[0]["text"], name);
  // Bad input: named, non-zero.
  r = run_light("search Denver --in '" + dir + "/nothing.json'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("nothing.json"), std::string::npos) << r.err;
  r = run_light("search --in '" + dir + "/linked'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("QUERY"), std::string::npos) << r.err;
}

TEST(SearchIndex, EditCountsEqualPlainLevenshteinOnRandomNames) {
  // Many near-identical names from a small alphabet (and a letter beyond ASCII): the bit-parallel
  // distance against the evaluator's dynamic programme, for every phrase within the bound.
  std::mt19937_64 rng(5);
  const std::u32string letters = U"abcé";
  auto random_word = [&](size_t n) {
    std::u32string w;
    for (size_t i = 0; i < n; ++i) w.push_back(letters[rng() % letters.size()]);
    return utf8_encode(w);
  };
  std::vector<search::Phrase> many;
  for (uint32_t i = 0; i < 400; ++i) many.push_back(phrase("r.json", "r.png", i, {random_word(3 + rng() % 10)}));
  const search::PhraseIndex index(many);
  for (int t = 0; t < 40; ++t) {
    const std::string q = random_word(4 + rng() % 8);
    const auto m = index.find(q, {.max_edits = 3, .parts = false, .limit = 0});
    std::map<uint32_t, uint32_t> got;
    for (const auto& x : m) got[x.phrase] = x.edits;
    for (uint32_t i = 0; i < many.size(); ++i) {
      const size_t d = eval::levenshtein(utf8_decode(search::normalize(q)), utf8_decode(index.normalized(i)));
      if (d <= 3) {
        ASSERT_TRUE(got.count(i)) << q << " vs " << index.normalized(i);
        EXPECT_EQ(got[i], d) << q << " vs " << index.normalized(i);
      } else {
        EXPECT_FALSE(got.count(i)) << q << " vs " << index.normalized(i);
      }
    }
  }
}

TEST(SearchCli, ReportsLongitudeAndLatitudeFromGeoreferencedGeoJson) {
  // The bundled tile is georeferenced (UTM 13N world file): `light link --format geojson --georef
  // auto` writes phrases in longitude/latitude, which search reports with the pixel polygons.
  const std::string dir = test::temp_dir();
  const std::string ex = test::source_path("data/synth-example");
  auto r = run_light("link --method distance --words '" + ex + "/annotations.json' --images '" + ex +
                     "' --format geojson --georef auto -o '" + dir + "/phrases.geojson' -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_light("search 'Henderson River' --in '" + dir + "/phrases.geojson' --json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_GE(j.size(), 1u);
  EXPECT_EQ(j[0]["text"], "Henderson River");
  ASSERT_TRUE(j[0].contains("lonlat"));
  const double lon = j[0]["lonlat"][0], lat = j[0]["lonlat"][1];
  EXPECT_GT(lon, -108.0);  // UTM zone 13N spans 102-108 degrees west
  EXPECT_LT(lon, -102.0);
  EXPECT_GT(lat, 0.0);
  EXPECT_LT(lat, 84.0);
  // Pixel polygons, as in the words file.
  const double x = j[0]["words"][0]["vertices"][0][0];
  EXPECT_NEAR(x, 22.37, 0.01);
  r = run_light("search 'Henderson River' --in '" + dir + "/phrases.geojson' -q");
  EXPECT_NE(r.out.find("lon -10"), std::string::npos) << r.out;
}

// Gazetteers (geo/gazetteer.h, geo/gazetteer_index.h, `light gazetteer`): GeoNames rows, alternate
// names and a user's table read with their errors named by file, line and column; names found exactly
// and within a few edits; an index saved, mapped and refused when damaged.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/eval/edit_distance.h"
#include "light/search/normalize.h"
#include "light/util/utf8.h"
#include "light/geo/gazetteer.h"
#include "light/geo/gazetteer_index.h"
#include "light/geo/place_matching.h"
#include "test_util.h"

using namespace light;

namespace {
std::string data(const std::string& name) { return test::source_path("tests/data/gazetteer/" + name); }

geo::Gazetteer sample() {
  geo::GazetteerSources s;
  s.geonames = {data("cities-sample.txt")};
  s.alternate_names = {data("alternate-names-sample.txt")};
  s.tables = {data("places-sample.csv")};
  return geo::Gazetteer::build(s);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Gazetteer, ReadsGeoNamesRowsWithTheirAlternateNames) {
  std::vector<geo::Place> places;
  std::vector<std::vector<std::string>> names;
  geo::read_geonames(data("cities-sample.txt"), [&](geo::Place&& p, std::vector<std::string>&& n) {
    places.push_back(std::move(p));
    names.push_back(std::move(n));
  });
  ASSERT_EQ(places.size(), 10u);
  EXPECT_EQ(places[1].id, 3688689);
  EXPECT_EQ(places[1].name, "Bogotá");
  EXPECT_DOUBLE_EQ(places[1].lat, 4.60971);
  EXPECT_DOUBLE_EQ(places[1].lon, -74.08175);
  EXPECT_EQ(places[1].feature_class, "P");
  EXPECT_EQ(places[1].feature_code, "PPLC");
  EXPECT_EQ(places[1].country, "CO");
  EXPECT_EQ(places[1].population, 7674366);
  EXPECT_EQ(names[1][0], "Bogota");  // the ASCII name first, then the alternatenames column
  EXPECT_NE(std::find(names[1].begin(), names[1].end(), "Santafe de Bogota"), names[1].end());
}

TEST(Gazetteer, NamesTheFileLineAndColumnOfABadRow) {
  const std::string dir = test::temp_dir();
  const std::string good = test::read_text(data("cities-sample.txt"));
  const std::string first = good.substr(0, good.find('\n') + 1);
  auto row = [&](const std::string& from, const std::string& to) {
    std::string r = first;
    r.replace(r.find(from), from.size(), to);
    return r;
  };
  const auto read = [](const std::string& path) { return [path] { geo::read_geonames(path, [](geo::Place&&, std::vector<std::string>&&) {}); }; };
  test::write_text(dir + "/cols.txt", first + "1\tA\tA\t\t10\t20\tP\n");
  EXPECT_NE(error_of(read(dir + "/cols.txt")).find(dir + "/cols.txt:2: 7 tab-separated columns, a GeoNames row has 19"), std::string::npos);
  test::write_text(dir + "/lat.txt", row("42.46372", "142.5"));
  EXPECT_NE(error_of(read(dir + "/lat.txt")).find(dir + "/lat.txt:1: column 5 (latitude): 142.5 lies outside [-90, 90]"), std::string::npos);
  test::write_text(dir + "/id.txt", row("3039163", "30391x"));
  EXPECT_NE(error_of(read(dir + "/id.txt")).find(dir + "/id.txt:1: column 1 (geonameid): \"30391x\" is not a whole number"),
            std::string::npos);
  test::write_text(dir + "/alt.txt", "1\t2635720\ten\tTollesbury\t2\t\t\t\t\t\n");
  EXPECT_NE(error_of([&] { geo::read_alternate_names(dir + "/alt.txt", [](int64_t, geo::AlternateName&&) {}); })
                .find(dir + "/alt.txt:1: column 5 (isPreferredName): \"2\" is neither 1 nor empty"),
            std::string::npos);
  test::write_text(dir + "/places.csv", "name,x\nA,1\n");
  EXPECT_NE(error_of([&] { geo::read_places_table(dir + "/places.csv"); }).find(dir + "/places.csv:1: header: a places table needs columns name, lon and lat"),
            std::string::npos);
  test::write_text(dir + "/places2.csv", "name,lon,lat\nA,1,2\nB,200,2\n");
  EXPECT_NE(error_of([&] { geo::read_places_table(dir + "/places2.csv"); }).find(dir + "/places2.csv:3: column 2 (lon): 200 lies outside [-180, 180]"),
            std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(Gazetteer, ReadsAUsersTableWithQuotedFieldsAndTypesAsFeatureClasses) {
  const auto places = geo::read_places_table(data("places-sample.csv"));
  ASSERT_EQ(places.size(), 3u);
  EXPECT_EQ(places[0].name, "Lodge Pole Creek");
  EXPECT_EQ(places[0].feature_class, "H");  // a stream
  EXPECT_EQ(places[1].name, "Hazel Shaw, the wood");
  EXPECT_EQ(places[1].feature_class, "V");
  EXPECT_EQ(places[2].feature_class, "S");  // GeoNames' FRM, a farm
  EXPECT_EQ(places[2].id, 1003);
  EXPECT_DOUBLE_EQ(places[0].lon, -104.9);
}

TEST(Gazetteer, FindsNamesExactlyOnceNormalisedAndWithinAFewEdits) {
  const geo::Gazetteer g = sample();
  EXPECT_EQ(g.size(), 13u);
  EXPECT_EQ(g.data_date(), "2022-03-09");  // the latest row of the sample
  // A map's abbreviation and case: "MT. VERNON" is Mount Vernon; the larger place first.
  auto hits = g.find("MT. VERNON");
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(g.place(hits[0].place).id, 5127835);
  EXPECT_EQ(g.place(hits[1].place).id, 5804127);
  EXPECT_EQ(hits[0].edits, 0u);
  // Accents, a long s, letters misread.
  EXPECT_EQ(g.place(g.find("BOGOTA")[0].place).id, 3688689);
  EXPECT_EQ(g.place(g.find("Tolleſbury")[0].place).id, 2635720);
  hits = g.find("Tolesbury");
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(g.place(hits[0].place).id, 2635720);
  EXPECT_EQ(hits[0].edits, 1u);
  EXPECT_TRUE(g.find("Tolesbury", 0).empty());
  // An abbreviated generic word: "Lodge Pole Cr." is the user's Lodge Pole Creek.
  hits = g.find("Lodge Pole Cr.");
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(g.place(hits[0].place).name, "Lodge Pole Creek");
  // Historic names carry their period and language; a name of another place or a link row is not read.
  hits = g.find("Tolesberia", 0);
  ASSERT_EQ(hits.size(), 1u);
  const geo::PlaceName n = g.name(hits[0].name);
  EXPECT_TRUE(n.about.historic);
  EXPECT_EQ(n.about.from, "1086");
  EXPECT_EQ(n.about.to, "1300");
  EXPECT_FALSE(n.primary);
  EXPECT_EQ(g.name(g.find("Santafe de Bogota", 0)[0].name).about.language, "es");
  EXPECT_TRUE(g.find("Nowhere", 0).empty());
  EXPECT_TRUE(g.find("https://en.wikipedia.org/wiki/Bogota", 0).empty());
  // Names in other scripts are left out by default.
  EXPECT_TRUE(g.find("Богота", 0).empty());
}

TEST(Gazetteer, FindsEveryPlaceWithinTheEditsAsComparingEveryNameWould) {
  // Names from a small alphabet (repeated trigrams, many near misses, a letter beyond ASCII), half of
  // them streams (" creek": common trigrams beside rare ones), some with a second name: each place
  // find() returns is within the edits by its closest name, and every such place is returned, as a
  // comparison with every name finds them.
  std::mt19937_64 rng(11);
  const std::u32string letters = U"abré ";
  auto random_name = [&](size_t n) {
    std::u32string w;
    for (size_t i = 0; i < n; ++i) w.push_back(letters[rng() % (i == 0 || i + 1 == n ? 3 : letters.size())]);
    return utf8_encode(w);
  };
  std::vector<geo::Place> places;
  std::vector<std::vector<geo::AlternateName>> alternates;
  for (int i = 0; i < 1500; ++i) {
    geo::Place p;
    p.id = i + 1, p.name = random_name(3 + rng() % 13) + (i % 2 ? " creek" : ""), p.lon = 0, p.lat = 0;
    places.push_back(p);
    alternates.emplace_back();
    if (i % 5 == 0) alternates.back().push_back({random_name(4 + rng() % 8), "en"});
  }
  const geo::Gazetteer g(places, alternates);
  for (int t = 0; t < 300; ++t) {
    const std::string q = t % 3 == 0 ? random_name(4 + rng() % 13) + (t % 2 ? " creek" : "")
                                     : g.name(static_cast<uint32_t>(rng() % g.name_count())).text;
    const std::u32string nq = utf8_decode(search::normalize(q));
    const int k = t % 4;  // 0 to 3 edits
    std::map<uint32_t, size_t> want;  // place -> edits of its closest name
    for (uint32_t i = 0; i < g.name_count(); ++i) {
      const geo::PlaceName n = g.name(i);
      const size_t d = eval::levenshtein(nq, utf8_decode(n.normalized));
      if (d <= static_cast<size_t>(k) && (!want.count(n.place) || d < want[n.place])) want[n.place] = d;
    }
    std::map<uint32_t, size_t> got;
    for (const geo::NameMatch& m : g.find(q, k, 0)) got[m.place] = m.edits;
    EXPECT_EQ(got, want) << "\"" << q << "\" within " << k;
  }
}

TEST(Gazetteer, ASavedIndexMapsBackTheSameAndADamagedOneIsRefusedByName) {
  const std::string dir = test::temp_dir();
  const geo::Gazetteer g = sample();
  g.save(dir + "/g.gaz");
  const geo::Gazetteer m = geo::Gazetteer::open(dir + "/g.gaz");
  EXPECT_EQ(m.size(), g.size());
  EXPECT_EQ(m.name_count(), g.name_count());
  EXPECT_EQ(m.sources(), g.sources());
  const auto a = g.find("Quitman"), b = m.find("Quitman");
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(m.place(b[0].place).id, 4217712);  // the larger of the two Quitmans first
  EXPECT_EQ(m.place(b[1].place).id, 4442692);
  EXPECT_DOUBLE_EQ(m.place(b[1].place).lat, 32.04015);
  std::string bytes = test::read_text(dir + "/g.gaz");
  test::write_text(dir + "/cut.gaz", bytes.substr(0, bytes.size() / 2));
  EXPECT_NE(error_of([&] { geo::Gazetteer::open(dir + "/cut.gaz"); }).find(dir + "/cut.gaz: not a light gazetteer, or damaged"),
            std::string::npos);
  test::write_text(dir + "/other.gaz", "name,lon,lat\n");
  EXPECT_NE(error_of([&] { geo::Gazetteer::open(dir + "/other.gaz"); }).find("not a light gazetteer"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(GazetteerCommand, BuildsAnIndexLooksNamesUpAndNeverWritesOverAnInput) {
  const std::string dir = test::temp_dir();
  const std::string out = dir + "/g.gaz";
  auto r = test::run_light("gazetteer build -q --geonames " + test::q(data("cities-sample.txt")) + " --places " +
                           test::q(data("places-sample.csv")) + " --out " + test::q(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run_light("gazetteer find " + test::q(out) + " 'Valdosta' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"id\": 4228147"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"feature_code\": \"PPLA2\""), std::string::npos) << r.out;
  // Existing output: refused without --overwrite, the file unchanged.
  const std::string before = test::read_text(out);
  r = test::run_light("gazetteer build -q --places " + test::q(data("places-sample.csv")) + " --out " + test::q(out));
  test::expect_error(r, out + " (--out): exists; give --overwrite to replace it");
  EXPECT_EQ(test::read_text(out), before);
  // An input as the output: refused even with --overwrite.
  const std::string copy = dir + "/places.csv";
  std::filesystem::copy_file(data("places-sample.csv"), copy);
  r = test::run_light("gazetteer build -q --overwrite --places " + test::q(copy) + " --out " + test::q(copy));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--places"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_text(copy), test::read_text(data("places-sample.csv")));
  // A bad row: named, nothing written.
  test::write_text(dir + "/bad.csv", "name,lon,lat\nA,1,95\n");
  r = test::run_light("gazetteer build -q --places " + test::q(dir + "/bad.csv") + " --out " + test::q(dir + "/new.gaz"));
  test::expect_error(r, dir + "/bad.csv:2: column 3 (lat): 95 lies outside [-90, 90]");
  EXPECT_FALSE(std::filesystem::exists(dir + "/new.gaz"));
  std::filesystem::remove_all(dir);
}

TEST(PlaceMatching, ScoresCandidatesByNameClassAndTheMapsOtherNamesAndAcceptsOnlyClearOnes) {
  const geo::Gazetteer g = sample();
  EXPECT_EQ(geo::implied_feature_class("Lodge Pole Cr."), "H");
  EXPECT_EQ(geo::implied_feature_class("Elk Mtn."), "T");
  EXPECT_EQ(geo::implied_feature_class("Mount Vernon"), "");  // a leading generic word implies nothing
  EXPECT_EQ(geo::without_letter_spacing("C A N E W D O N Marsh"), "CANEWDON Marsh");
  EXPECT_EQ(geo::street_or_saint("Main St."), "Main Street");
  EXPECT_EQ(geo::street_or_saint("St. Louis"), "St. Louis");
  EXPECT_EQ(geo::street_or_saint("ST"), "ST");
  EXPECT_EQ(geo::without_letter_spacing("R. R. Station"), "R. R. Station");
  EXPECT_FALSE(geo::names_a_place("Creek"));
  EXPECT_FALSE(geo::names_a_place("Bank"));
  EXPECT_FALSE(geo::names_a_place("1906"));
  EXPECT_TRUE(geo::names_a_place("Lodge Pole Cr."));
  // A sheet of Essex: three towns read right, one misread, one letter-spaced; an American name and a
  // generic word on it too.
  const auto m = geo::match_places(g, {"Tollesbury", "SOUTHMINSTER", "Canewdon", "Tolesbury", "C A N E W D O N", "Quitman", "Station"});
  ASSERT_EQ(m.size(), 7u);
  for (size_t k : {0, 1, 2}) {
    ASSERT_FALSE(m[k].candidates.empty()) << k;
    EXPECT_TRUE(m[k].accepted) << k;
    EXPECT_DOUBLE_EQ(m[k].candidates[0].score, 1.0) << k;
  }
  EXPECT_EQ(m[3].candidates[0].place.id, 2635720);  // Tollesbury, one letter misread: 0.9
  EXPECT_NEAR(m[3].candidates[0].score, 0.9, 1e-9);
  EXPECT_EQ(m[4].query, "CANEWDON");
  EXPECT_EQ(m[4].candidates[0].place.id, 2653896);
  // The two Quitmans lie an ocean away from the sheet's other names: scored down, kept (the other
  // names might be the wrong ones), neither accepted.
  ASSERT_EQ(m[5].candidates.size(), 2u);
  EXPECT_LT(m[5].candidates[0].score, 0.5);
  EXPECT_FALSE(m[5].accepted);
  EXPECT_TRUE(m[6].candidates.empty());
  // Without the other names: both Quitmans, the larger first, neither accepted (they tie).
  const auto q = geo::match_places(g, {"Quitman"});
  ASSERT_EQ(q[0].candidates.size(), 2u);
  EXPECT_EQ(q[0].candidates[0].place.id, 4217712);
  EXPECT_FALSE(q[0].accepted);
  // A generic word's class: the user's stream, not a town of a like name.
  const auto c = geo::match_places(g, {"Lodge Pole Cr."});
  ASSERT_FALSE(c[0].candidates.empty());
  EXPECT_EQ(c[0].implied_class, "H");
  EXPECT_EQ(c[0].candidates[0].place.name, "Lodge Pole Creek");
  EXPECT_TRUE(c[0].accepted);
}

TEST(PlaceCommand, WritesEachPhrasesCandidatesAndRefusesToWriteOverAnInput) {
  const std::string dir = test::temp_dir();
  const std::string gaz = dir + "/g.gaz";
  auto r = test::run_light("gazetteer build -q --geonames " + test::q(data("cities-sample.txt")) + " --places " +
                           test::q(data("places-sample.csv")) + " --out " + test::q(gaz));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // A linked map: "Lodge Pole / Cr." on two lines, a town, a generic word alone.
  const auto word = [](const std::string& text, int x) {
    return "{\"vertices\": [[" + std::to_string(x) + ", 10], [" + std::to_string(x + 40) + ", 10], [" + std::to_string(x + 40) + ", 30], [" +
           std::to_string(x) + ", 30]], \"text\": \"" + text + "\"}";
  };
  const std::string linked = dir + "/linked.json";
  test::write_text(linked, "[{\"image\": \"sheet.png\", \"groups\": [[" + word("Lodge", 0) + ", " + word("Pole", 50) + ", " + word("Cr.", 100) +
                               "], [" + word("Valdosta", 200) + "], [" + word("Station", 300) + "]]}]");
  const std::string out = dir + "/places.json";
  r = test::run_light("place " + test::q(linked) + " --gazetteer " + test::q(gaz) + " -o " + test::q(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("place: 3 phrases, 2 with candidates, 2 accepted"), std::string::npos) << r.err;
  const nlohmann::json j = nlohmann::json::parse(test::read_text(out));
  ASSERT_EQ(j.size(), 2u);  // "Station" names no place: left out without --all
  EXPECT_EQ(j[0]["text"], "Lodge Pole Cr.");
  EXPECT_EQ(j[0]["implied_class"], "H");
  EXPECT_EQ(j[0]["candidates"][0]["name"], "Lodge Pole Creek");
  EXPECT_EQ(j[0]["candidates"][0]["id"], 1001);
  EXPECT_EQ(j[1]["group"], 1);
  EXPECT_EQ(j[1]["candidates"][0]["id"], 4228147);
  EXPECT_EQ(j[1]["candidates"][0]["uri"], "https://sws.geonames.org/4228147/");
  EXPECT_EQ(j[0]["candidates"][0]["uri"], "urn:light:place:1001");  // a place of the user's table
  EXPECT_EQ(j[1]["candidates"][0]["feature_code"], "PPLA2");
  EXPECT_EQ(j[1]["accepted"], true);
  // The output over the linked file: refused, the file unchanged.
  const std::string before = test::read_text(linked);
  r = test::run_light("place " + test::q(linked) + " --gazetteer " + test::q(gaz) + " -o " + test::q(linked));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("LINKED"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_text(linked), before);
  // Not a gazetteer: named.
  r = test::run_light("place " + test::q(linked) + " --gazetteer " + test::q(linked));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(linked), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

TEST(ReadConfusions, ASpottersUsualMisreadingCostsLessThanALetterWrongAtRandom) {
  const std::string dir = test::temp_dir();
  test::write_text(dir + "/c.tsv", "# printed\tread\tcost\tcount\nn\tm\t0.5\t10\nc\te\t0.75\t3\n");
  const geo::ReadConfusions c = geo::ReadConfusions::read(dir + "/c.tsv");
  EXPECT_EQ(c.size(), 2u);
  EXPECT_DOUBLE_EQ(c.substitution(U'n', U'm'), 0.5);
  EXPECT_DOUBLE_EQ(c.substitution(U'm', U'n'), 1.0);  // one way only: what is printed, what is read
  EXPECT_DOUBLE_EQ(c.distance(U"canewdon", U"canewdom"), 0.5);
  EXPECT_DOUBLE_EQ(c.distance(U"canewdon", U"canewdox"), 1.0);
  EXPECT_DOUBLE_EQ(c.distance(U"canewdon", U"canewd"), 2.0);
  // Matching: "Canewdom" (n read as m) scores above "Canewdox" (x at random).
  const geo::Gazetteer g = sample();
  geo::MatchOptions o;
  o.confusions = &c;
  const auto m = geo::match_places(g, {"Canewdom", "Canewdox"}, o);
  ASSERT_FALSE(m[0].candidates.empty());
  ASSERT_FALSE(m[1].candidates.empty());
  EXPECT_NEAR(m[0].candidates[0].score, 1 - 0.5 / 8, 1e-9);
  EXPECT_NEAR(m[1].candidates[0].score, 1 - 1.0 / 8, 1e-9);
  // A bad row: named by file, line and column.
  test::write_text(dir + "/bad.tsv", "n\tm\t0.5\nrn\tm\t0.5\n");
  EXPECT_EQ(error_of([&] { geo::ReadConfusions::read(dir + "/bad.tsv"); }),
            dir + "/bad.tsv:2: column 1 (printed): expected one character, got \"rn\"");
  test::write_text(dir + "/bad2.tsv", "n\tm\t1.5\n");
  EXPECT_EQ(error_of([&] { geo::ReadConfusions::read(dir + "/bad2.tsv"); }), dir + "/bad2.tsv:1: column 3 (cost): expected a number in (0, 1], got \"1.5\"");
  std::filesystem::remove_all(dir);
}

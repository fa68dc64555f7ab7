// A map georeferenced from its names (geo/point_transforms.h, geo/names_georeference.h, `light georef
// --from-names`): transforms recovered from exact points, the right placement found among namesakes,
// a map with too few agreeing names refused with its reason, and the control points written as GDAL
// reads them (gdaltransform gives the same coordinates).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "light/data/synth/synth.h"
#include "light/error.h"
#include "light/geo/names_georeference.h"
#include "light/geo/point_transforms.h"
#include "dengie_map.h"
#include "test_util.h"

using namespace light;

using test::essex_pixel;
using test::kTowns;
using test::Town;

TEST(PointTransforms, RecoverHelmertAffineAndPolynomialMapsFromExactPoints) {
  std::vector<geo::PlanePoint> from, to_h, to_a, to_p;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const double x = 100.0 * i + 7 * j, y = 80.0 * j - 3 * i;
      from.push_back({x, y});
      const double a = 0.3, s = 2.5;  // turned 0.3 rad, scaled 2.5, shifted
      to_h.push_back({s * (std::cos(a) * x - std::sin(a) * y) + 10, s * (std::sin(a) * x + std::cos(a) * y) - 4});
      to_a.push_back({1.2 * x + 0.4 * y + 3, -0.2 * x + 0.9 * y + 8});
      to_p.push_back({x + 1e-3 * x * y, y + 2e-3 * x * x});
    }
  const auto h = geo::PointTransform::fit(geo::TransformKind::Helmert, from, to_h);
  ASSERT_TRUE(h);
  EXPECT_NEAR(h->helmert_scale(), 2.5, 1e-9);
  EXPECT_NEAR(h->helmert_rotation(), 0.3, 1e-9);
  const auto a = geo::PointTransform::fit(geo::TransformKind::Affine, from, to_a);
  const auto p = geo::PointTransform::fit(geo::TransformKind::Polynomial2, from, to_p);
  ASSERT_TRUE(a && p);
  const geo::PlanePoint q{55, 21};
  EXPECT_NEAR(a->apply(q).x, 1.2 * 55 + 0.4 * 21 + 3, 1e-9);
  EXPECT_NEAR(p->apply(q).y, 21 + 2e-3 * 55 * 55, 1e-9);
  // An affine map is not a Helmert one: leave-one-out tells them apart.
  EXPECT_GT(*geo::leave_one_out_rms(geo::TransformKind::Helmert, from, to_a), 1.0);
  EXPECT_LT(*geo::leave_one_out_rms(geo::TransformKind::Affine, from, to_a), 1e-6);
  // Too few points, or all on a line: no fit.
  EXPECT_FALSE(geo::PointTransform::fit(geo::TransformKind::Affine, {{0, 0}, {1, 1}}, {{0, 0}, {1, 1}}));
  EXPECT_FALSE(geo::PointTransform::fit(geo::TransformKind::Affine, {{0, 0}, {1, 1}, {2, 2}, {3, 3}}, {{0, 0}, {1, 1}, {2, 2}, {3, 3}}));
  // The projection and its inverse.
  double lon = 0, lat = 0;
  geo::inverse_azimuthal_equidistant(0.8, 51.7, geo::azimuthal_equidistant(0.8, 51.7, 1.9, 52.4), lon, lat);
  EXPECT_NEAR(lon, 1.9, 1e-9);
  EXPECT_NEAR(lat, 52.4, 1e-9);
  EXPECT_NEAR(geo::great_circle_metres(0, 0, 0, 1), 111195, 1);
}

TEST(NamesGeoreference, FindsTheMapAmongNamesakesAndRefusesWhenTooFewNamesAgree) {
  // Each town's label to the right of its dot; each with a namesake far away as a second candidate,
  // and two false friends that match only places elsewhere.
  std::vector<geo::LabelCandidates> labels;
  for (const Town& t : kTowns) {
    const geo::PlanePoint d = essex_pixel(t.lon, t.lat);
    geo::LabelCandidates l;
    l.x0 = d.x + 8, l.x1 = d.x + 8 + 12.0 * std::strlen(t.name), l.y0 = d.y - 10, l.y1 = d.y + 10, l.letter_px = 16;
    l.candidates = {{t.lon - 75.0, t.lat - 10.0, 1.0}, {t.lon, t.lat, 1.0}};  // the namesake first, as popular
    labels.push_back(l);
  }
  for (double x : {300.0, 1500.0}) {
    geo::LabelCandidates l;
    l.x0 = x, l.x1 = x + 60, l.y0 = 1200, l.y1 = 1220, l.letter_px = 16;
    l.candidates = {{-3.1, 55.2, 0.9}};
    labels.push_back(l);
  }
  const geo::NamesGeoreference g = geo::georeference_from_names(labels, 2000, 2000);
  ASSERT_TRUE(g.ok) << g.reason;
  EXPECT_EQ(g.gcps.size(), 7u);
  for (const auto& c : g.gcps) EXPECT_EQ(c.candidate, 1u);
  // Where the map puts a place it never saw (Latchingdon): within a few pixels.
  double x = 0, y = 0;
  g.pixel(0.73, 51.67, x, y);
  const geo::PlanePoint truth = essex_pixel(0.73, 51.67);
  EXPECT_LT(std::hypot(x - truth.x, y - truth.y), 3.0);
  double lon = 0, lat = 0;
  g.lonlat(x, y, lon, lat);
  EXPECT_NEAR(lon, 0.73, 1e-6);
  EXPECT_NEAR(lat, 51.67, 1e-6);
  const auto placed = g.placed(labels, 2000, 2000, {});
  EXPECT_EQ(placed[0], 1);
  EXPECT_EQ(placed[7], -1);
  // Four towns only: refused, with why.
  const std::vector<geo::LabelCandidates> few(labels.begin(), labels.begin() + 4);
  const geo::NamesGeoreference none = geo::georeference_from_names(few, 2000, 2000);
  EXPECT_FALSE(none.ok);
  EXPECT_EQ(none.reason, "4 of the map's phrases match a gazetteer place; 5 needed");
}

// The Dengie map's folder: a gazetteer of its towns, a linked file of their labels (right of each
// dot), a blank image of the map's size.
void write_dengie(const std::string& dir) {
  std::string csv = "name,lon,lat,type\n";
  for (const Town& t : kTowns) csv += std::string(t.name) + "," + std::to_string(t.lon) + "," + std::to_string(t.lat) + ",town\n";
  test::write_text(dir + "/essex.csv", csv);
  const auto r = test::run_light("gazetteer build -q --places " + test::q(dir + "/essex.csv") + " --out " + test::q(dir + "/essex.gaz"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json groups = nlohmann::json::array();
  for (const Town& t : kTowns) {
    const geo::PlanePoint d = essex_pixel(t.lon, t.lat);
    const double x0 = d.x + 8, x1 = d.x + 8 + 12.0 * std::strlen(t.name);
    groups.push_back({{{"vertices", {{x0, d.y + 10}, {x1, d.y + 10}, {x1, d.y - 10}, {x0, d.y - 10}}}, {"text", t.name}}});
  }
  test::write_text(dir + "/linked.json", nlohmann::json::array({{{"image", "essex.png"}, {"groups", groups}}}).dump());
  std::filesystem::create_directories(dir + "/images");
  cv::imwrite(dir + "/images/essex.png", cv::Mat(2000, 2000, CV_8UC3, cv::Scalar(230, 240, 245)));
}

TEST(GeorefCommand, WritesControlPointsThatGdalReadsAndAnIiifAnnotation) {
  const std::string dir = test::temp_dir();
  write_dengie(dir);
  test::RunResult r;
  r = test::run_light("georef --from-names " + test::q(dir + "/linked.json") + " --images " + test::q(dir + "/images") + " --gazetteer " +
                      test::q(dir + "/essex.gaz") + " -o " + test::q(dir + "/out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("essex.png: 7 names agree"), std::string::npos) << r.err;
  const nlohmann::json report = nlohmann::json::parse(test::read_text(dir + "/out/georeferences.json"));
  ASSERT_EQ(report[0]["georeferenced"], true);
  EXPECT_EQ(report[0]["gcps"].size(), 7u);
  EXPECT_EQ(report[0]["places"].size(), 7u);
  const nlohmann::json iiif = nlohmann::json::parse(test::read_text(dir + "/out/essex.iiif.json"));
  EXPECT_EQ(iiif["@context"][0], "http://iiif.io/api/extension/georef/1/context.json");
  EXPECT_EQ(iiif["motivation"], "georeferencing");
  EXPECT_EQ(iiif["body"]["features"].size(), 7u);
  EXPECT_EQ(iiif["target"]["source"]["width"], 2000);
  // Allmaps' own parser reads it (@allmaps/annotation, pinned: scripts/fetch-allmaps.sh, which
  // scripts/install-deps.sh runs).
  {
    const std::string check = "bash " + test::q(test::source_path("scripts/check-iiif-annotation.sh")) + " " + test::q(dir + "/out/essex.iiif.json") + " 2>&1";
    FILE* pipe = popen(check.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string said;
    char buf[512];
    while (fgets(buf, sizeof buf, pipe)) said += buf;
    EXPECT_EQ(pclose(pipe), 0) << said;
    EXPECT_NE(said.find("essex.iiif.json: parsed: Canvas"), std::string::npos) << said;
    EXPECT_NE(said.find("(2000 x 2000)"), std::string::npos) << said;
    EXPECT_NE(said.find(", 7 GCPs,"), std::string::npos) << said;
  }
  const std::string points = test::read_text(dir + "/out/essex.points");
  EXPECT_EQ(points.rfind("#CRS: GEOGCRS[\"WGS 84\"", 0), 0u);
  EXPECT_NE(points.find("\nmapX,mapY,sourceX,sourceY,enable,dX,dY,residual\n"), std::string::npos);
  // GDAL's own GCP transform over the VRT: Maldon's dot (a first-order polynomial, as gdaltransform
  // picks for 7 points) lies where the map was drawn, within a few pixels.
  const geo::PlanePoint maldon = essex_pixel(0.6770, 51.7316);
  const std::string cmd = "echo " + std::to_string(maldon.x) + " " + std::to_string(maldon.y) + " | gdaltransform -order 1 -t_srs EPSG:4326 " +
                          test::q(dir + "/out/essex.vrt") + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char line[256] = {};
  ASSERT_NE(fgets(line, sizeof line, pipe), nullptr);
  pclose(pipe);
  double lon = 0, lat = 0;
  ASSERT_EQ(std::sscanf(line, "%lf %lf", &lon, &lat), 2) << line;
  EXPECT_NEAR(lon, 0.6770, 0.0005) << line;  // a pixel is 10 m: 0.00015 degrees of longitude here
  EXPECT_NEAR(lat, 51.7316, 0.0003) << line;
  // Too few names for the default: refused by reason, the report written, no points.
  r = test::run_light("georef --from-names " + test::q(dir + "/linked.json") + " --images " + test::q(dir + "/images") + " --gazetteer " +
                      test::q(dir + "/essex.gaz") + " -o " + test::q(dir + "/out2") + " --min-names 8");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("not georeferenced: 7 of the map's phrases match a gazetteer place; 8 needed"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out2/essex.points"));
  // The output folder over an existing one: refused without --overwrite.
  r = test::run_light("georef --from-names " + test::q(dir + "/linked.json") + " --images " + test::q(dir + "/images") + " --gazetteer " +
                      test::q(dir + "/essex.gaz") + " -o " + test::q(dir + "/out"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("-o/--out"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

TEST(SynthPlaces, DrawsEachPlaceWhereItsGeoreferencePutsItWithItsNameBeside) {
  const synth::Gazetteer names(test::source_path("tests/data/gazetteer/cities-sample.txt"));
  ASSERT_EQ(names.located().size(), 10u);
  synth::SynthOptions o;
  o.width = o.height = 1200;
  o.font_scale = 0.5;
  o.places = true;
  size_t drawn = 0;
  for (uint64_t k = 0; k < 6; ++k) {
    synth::TilePlaces places;
    const maptext::Tile tile = synth::generate_tile(names, o, k, "t.png", nullptr, &places);
    for (const synth::DrawnPlace& p : places.places) {
      ++drawn;
      double x = 0, y = 0;
      places.georef.pixel(p.place.lon, p.place.lat, x, y);
      EXPECT_NEAR(x, p.x, 1e-6);
      EXPECT_NEAR(y, p.y, 1e-6);
      double lon = 0, lat = 0;
      places.georef.lonlat(p.x, p.y, lon, lat);
      EXPECT_NEAR(lon, p.place.lon, 1e-9);
      EXPECT_NEAR(lat, p.place.lat, 1e-9);
      EXPECT_TRUE(p.x > 0 && p.x < 1200 && p.y > 0 && p.y < 1200);
      // Its label: the group named, the place's words, within a few letter heights of the dot.
      ASSERT_LT(p.group, tile.groups.size());
      std::string text;
      double nearest = 1e9;
      for (const auto& w : tile.groups[p.group]) {
        text += (text.empty() ? "" : " ") + w.text.value_or("");
        for (const auto& v : w.vertices) nearest = std::min(nearest, std::hypot(v.x - p.x, v.y - p.y));
      }
      EXPECT_EQ(synth::to_upper_ascii(text), synth::to_upper_ascii(p.place.name));
      EXPECT_LT(nearest, 60.0);
    }
  }
  EXPECT_GE(drawn, 6u);  // the centre place at least, on every tile
  // The built-in names have no coordinates: refused by name.
  const synth::Gazetteer builtin("");
  EXPECT_THROW(synth::generate_tile(builtin, o, 0, "t.png", nullptr), Error);
  auto r = test::run_light("synth --out " + test::q(test::temp_dir() + "/s") + " --places --turn 90");
  test::expect_error(r, "--places: the places' dots are not turned with the tile; leave out --turn");
}

TEST(LinkPlaces, WritesEachPhrasesPlaceAndTheMapPlacedByItsNamesInGeoJsonAndWebAnnotations) {
  const std::string dir = test::temp_dir();
  write_dengie(dir);
  const std::string common = "link --method distance --words " + test::q(dir + "/linked.json") + " --images " + test::q(dir + "/images") +
                             " --gazetteer " + test::q(dir + "/essex.gaz");
  auto r = test::run_light(common + " --format geojson --georef names -o " + test::q(dir + "/out.geojson"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("georef: essex.png: from its names, 7 agree"), std::string::npos) << r.err;
  const nlohmann::json fc = nlohmann::json::parse(test::read_text(dir + "/out.geojson"));
  ASSERT_EQ(fc["features"].size(), 7u);
  for (const auto& f : fc["features"]) {
    EXPECT_EQ(f["properties"]["coordinates"], "lonlat");
    const auto& place = f["properties"]["place"];
    EXPECT_EQ(place["name"], f["properties"]["text"]);
    EXPECT_EQ(place["placed"], true);
    EXPECT_EQ(place["uri"].get<std::string>().rfind("urn:light:place:", 0), 0u);  // a user's table: no GeoNames URI
    EXPECT_EQ(f["links"][0]["type"], "closeMatch");
    EXPECT_EQ(f["links"][0]["identifier"], place["uri"]);
    // The label lies east of its town, within a label's length.
    const double lon = f["geometry"]["coordinates"][0][0][0][0];
    EXPECT_GT(lon, place["lon"].get<double>());
    EXPECT_LT(lon - place["lon"].get<double>(), 0.03);
  }
  // Web Annotations: each accepted place an identifying body.
  r = test::run_light(common + " --format webanno -o " + test::q(dir + "/out.webanno.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json page = nlohmann::json::parse(test::read_text(dir + "/out.webanno.json"));
  ASSERT_EQ(page["items"].size(), 7u);
  const auto& body = page["items"][0]["body"];
  ASSERT_EQ(body.size(), 2u);
  EXPECT_EQ(body[1]["purpose"], "identifying");
  EXPECT_EQ(body[1]["source"]["label"], body[0]["value"]);
  // MapText has no place for places: refused by name, nothing written.
  r = test::run_light(common + " -o " + test::q(dir + "/out.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--gazetteer: places are written in GeoJSON or Web Annotations"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.json"));
  std::filesystem::remove_all(dir);
}

TEST(PointTransforms, TheThinPlateSplinePassesThroughItsPointsAndBendsBetweenThem) {
  std::vector<geo::PlanePoint> from, to;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) {
      const double x = 50.0 * i, y = 40.0 * j;
      from.push_back({x, y});
      to.push_back({x + 5 * std::sin(y / 40.0), y + 3 * std::cos(x / 50.0)});  // a bend no polynomial of order 1-3 is
    }
  const auto t = geo::PointTransform::fit(geo::TransformKind::ThinPlateSpline, from, to);
  ASSERT_TRUE(t);
  for (size_t k = 0; k < from.size(); ++k) {
    EXPECT_NEAR(t->apply(from[k]).x, to[k].x, 1e-6);
    EXPECT_NEAR(t->apply(from[k]).y, to[k].y, 1e-6);
  }
  // An affine map it reproduces everywhere, not only at the points.
  std::vector<geo::PlanePoint> affine;
  for (const auto& p : from) affine.push_back({2 * p.x + p.y + 1, -p.x + 3 * p.y});
  const auto a = geo::PointTransform::fit(geo::TransformKind::ThinPlateSpline, from, affine);
  ASSERT_TRUE(a);
  EXPECT_NEAR(a->apply({77, 33}).x, 2 * 77 + 33 + 1, 1e-6);
  EXPECT_NEAR(a->apply({77, 33}).y, -77 + 3 * 33, 1e-6);
  EXPECT_STREQ(geo::transform_name(geo::TransformKind::ThinPlateSpline), "thin_plate_spline");
}

// Linked phrases out as GeoJSON (pixel and georeferenced) and W3C Web Annotations (issue 22, outputs):
// the georeferenced coordinates against GDAL's own gdaltransform, the files against ogrinfo and the
// Web Annotation model's required keys.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "light/export/phrases.h"
#include "light/geo/georef.h"
#include "light/geo/raster.h"
#include "light/image/resize.h"
#include "light/error.h"
#include "light/maptext.h"
#include "test_util.h"

using namespace light;
using light::test::run_light;
using light::test::RunResult;
using light::test::q;
using Json = nlohmann::json;

namespace {

std::string sh(const std::string& cmd) {  // stdout of a shell command
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  std::array<char, 4096> buf;
  for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
  ::pclose(p);
  return out;
}

// Two phrases of one 1000 x 800 image: "Lodge Pole Cr." (boxes given clockwise on screen) and "DENVER".
maptext::Dataset two_phrases(const std::string& image) {
  auto word = [](double x0, double y0, double x1, double y1, const std::string& text) {
    maptext::Word w;
    w.vertices = {{x0, y1}, {x1, y1}, {x1, y0}, {x0, y0}};  // lower edge first (MapText order)
    w.text = text;
    return w;
  };
  maptext::Tile t;
  t.image = image;
  t.groups = {{word(100, 100, 180, 130, "Lodge"), word(190, 100, 250, 130, "Pole"), word(260, 100, 300, 130, "Cr.")},
              {word(500, 600, 700, 650, "DENVER")}};
  return {t};
}

double ring_area(const Json& ring) {
  double a = 0;
  for (size_t i = 0; i + 1 < ring.size(); ++i)
    a += ring[i][0].get<double>() * ring[i + 1][1].get<double>() - ring[i + 1][0].get<double>() * ring[i][1].get<double>();
  return a / 2;
}

// gdaltransform's longitude/latitude for pixels, read from its output ("lon lat" per line).
std::vector<std::array<double, 2>> gdaltransform(const std::string& args, const std::vector<std::array<double, 2>>& px) {
  std::ostringstream in;
  in.precision(17);
  for (const auto& p : px) in << p[0] << " " << p[1] << "\n";
  const std::string out = sh("printf '%s' " + q(in.str()) + " | gdaltransform -output_xy -t_srs EPSG:4326 " + args);
  std::vector<std::array<double, 2>> ll;
  std::istringstream s(out);
  for (double x, y; s >> x >> y;) ll.push_back({x, y});
  return ll;
}

// Every vertex of every word of a georeferenced GeoJSON against gdaltransform, to 1e-9 degrees. Rings
// are counterclockwise: a word's ring is its pixel polygon, closed, in the same or the reverse order.
void expect_gdaltransform(const Json& fc, const std::string& args) {
  size_t checked = 0;
  for (const Json& f : fc["features"]) {
    ASSERT_EQ(f["properties"]["coordinates"], "lonlat");
    const Json& polys = f["geometry"]["coordinates"];
    const Json& words = f["properties"]["words"];
    ASSERT_EQ(polys.size(), words.size());
    for (size_t w = 0; w < words.size(); ++w) {
      std::vector<std::array<double, 2>> px;
      for (const Json& p : words[w]["pixel_vertices"]) px.push_back({p[0].get<double>(), p[1].get<double>()});
      const auto want = gdaltransform(args, px);
      ASSERT_EQ(want.size(), px.size()) << "gdaltransform " << args;
      const Json& ring = polys[w][0];
      ASSERT_EQ(ring.size(), px.size() + 1);
      EXPECT_EQ(ring.front(), ring.back());  // closed
      EXPECT_GT(ring_area(ring), 0);         // counterclockwise (x east, y north)
      const bool same = std::fabs(ring[0][0].get<double>() - want[0][0]) < 1e-9 && std::fabs(ring[0][1].get<double>() - want[0][1]) < 1e-9;
      for (size_t k = 0; k < px.size(); ++k) {
        const auto& g = want[same ? k : (px.size() - k) % px.size()];
        EXPECT_NEAR(ring[k][0].get<double>(), g[0], 1e-9);
        EXPECT_NEAR(ring[k][1].get<double>(), g[1], 1e-9);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 16u);  // four words of four points
}
}  // namespace

TEST(GeoJson, APhraseIsAFeatureOfItsWordsPolygonsInPixels) {
  maptext::Dataset data = two_phrases("sheet.png");
  data[0].groups[0][1].extra = R"({"score":0.9,"successor_probability":0.75})";  // a spotter's key, the model's
  const Json fc = Json::parse(output::geojson_text(data));
  EXPECT_EQ(fc["features"][0]["properties"]["words"][1]["score"], 0.9);
  EXPECT_EQ(fc["features"][0]["properties"]["words"][1]["successor_probability"], 0.75);
  EXPECT_EQ(fc["type"], "FeatureCollection");
  ASSERT_EQ(fc["features"].size(), 2u);
  const Json& f = fc["features"][0];
  EXPECT_EQ(f["type"], "Feature");
  EXPECT_EQ(f["id"], "sheet.png#0");
  EXPECT_EQ(f["geometry"]["type"], "MultiPolygon");
  EXPECT_EQ(f["properties"]["text"], "Lodge Pole Cr.");
  EXPECT_EQ(f["properties"]["coordinates"], "pixel");
  EXPECT_EQ(f["properties"]["words"][2]["text"], "Cr.");
  EXPECT_EQ(f["properties"]["words"][2]["index"], 2);
  EXPECT_EQ(fc["features"][1]["properties"]["words"][0]["index"], 3);  // the image's words in file order
  const Json& ring = f["geometry"]["coordinates"][0][0];
  ASSERT_EQ(ring.size(), 5u);
  EXPECT_EQ(ring.front(), ring.back());
  EXPECT_GT(ring_area(ring), 0);
  EXPECT_DOUBLE_EQ(ring_area(ring), 80.0 * 30.0);
}

TEST(GeoJson, OgrinfoReadsTheFileWithAFeaturePerPhrase) {
  const std::string dir = test::temp_dir();
  test::write_text(dir + "/p.geojson", output::geojson_text(two_phrases("sheet.png")));
  const std::string info = sh("ogrinfo -ro -al -so " + q(dir + "/p.geojson") + " 2>&1");
  EXPECT_NE(info.find("Feature Count: 2"), std::string::npos) << info;
  EXPECT_NE(info.find("Geometry: Multi Polygon"), std::string::npos) << info;
  std::filesystem::remove_all(dir);
}

TEST(Georef, AGeoTiffsTransformGivesGdaltransformsCoordinates) {
  const std::string dir = test::temp_dir();
  // A blank 1000 x 800 image placed on UTM 13N (Colorado) with gdal_translate -a_ullr.
  ASSERT_EQ(std::system(("gdal_create -q -of GTiff -outsize 1000 800 -bands 1 " + q(dir + "/blank.tif") + " && gdal_translate -q -a_srs EPSG:32613 "
                         "-a_ullr 480000 4420000 481000 4419200 " + q(dir + "/blank.tif") + " " + q(dir + "/sheet.tif")).c_str()),
            0);
  const auto g = geo::Georeference::of_image(dir + "/sheet.tif", {});
  ASSERT_NE(g, nullptr);
  EXPECT_NE(g->description().find("UTM zone 13N"), std::string::npos) << g->description();
  const Json fc = Json::parse(output::geojson_text(two_phrases("sheet.tif"), {[&](const std::string&) {
                                                      return output::ToLonLat([&](const auto& px) { return g->to_lonlat(px); });
                                                    }}));
  expect_gdaltransform(fc, q(dir + "/sheet.tif"));
  // No georeferencing: none found.
  EXPECT_EQ(geo::Georeference::of_image(dir + "/blank.tif", {}), nullptr);
  std::filesystem::remove_all(dir);
}

TEST(Georef, GroundControlPointsAndAQgisPointsFileGiveGdaltransformsCoordinates) {
  const std::string dir = test::temp_dir();
  // Fourteen GCPs (pixel, line -> easting, northing; enough for a cubic), a little off affine, in a GeoTIFF
  // and in a .points file.
  std::vector<std::array<double, 4>> gcps;
  for (double px : {0.0, 330.0, 670.0, 1000.0})
    for (double py : {0.0, 400.0, 800.0})
      gcps.push_back({px, py, 480000 + px + 0.00002 * px * py, 4420000 - py + 0.01 * px - 0.00001 * py * py});
  gcps.push_back({250, 200, 480251, 4419801});
  gcps.push_back({750, 600, 480760, 4419403});
  std::string args, points = "#CRS: EPSG:32613\nmapX,mapY,sourceX,sourceY,enable,dX,dY,residual\n";
  for (const auto& p : gcps) {
    std::ostringstream a, r;
    a << " -gcp " << p[0] << " " << p[1] << " " << p[2] << " " << p[3];
    r << p[2] << "," << p[3] << "," << p[0] << "," << -p[1] << ",1,0,0,0\n";  // QGIS: sourceY is minus the row
    args += a.str();
    points += r.str();
  }
  points += "490000,4400000,10,-10,0,0,0,0\n";  // disabled: left out
  ASSERT_EQ(std::system(("gdal_create -q -of GTiff -outsize 1000 800 -bands 1 " + q(dir + "/blank.tif") + " && gdal_translate -q -a_srs EPSG:32613" +
                         args + " " + q(dir + "/blank.tif") + " " + q(dir + "/gcps.tif")).c_str()),
            0);
  test::write_text(dir + "/sheet.points", points);
  const geo::PointsFile pf = geo::read_qgis_points(dir + "/sheet.points");
  ASSERT_EQ(pf.points.size(), 14u);
  EXPECT_DOUBLE_EQ(pf.points[2].pixel_y, 800);
  for (const auto& [name, flag, transform] : std::vector<std::tuple<std::string, std::string, geo::Transform>>{
           {"poly1", "-order 1", geo::Transform::Poly1}, {"poly2", "-order 2", geo::Transform::Poly2},
           {"poly3", "-order 3", geo::Transform::Poly3}, {"tps", "-tps", geo::Transform::Tps}}) {
    SCOPED_TRACE(name);
    geo::GeorefOptions opt;
    opt.transform = transform;
    for (const auto& g : {geo::Georeference::of_image(dir + "/gcps.tif", opt), geo::Georeference::of_points(dir + "/sheet.points", 1000, 800, opt)}) {
      ASSERT_NE(g, nullptr);
      const Json fc = Json::parse(output::geojson_text(two_phrases("x"), {[&](const std::string&) {
                                                          return output::ToLonLat([&](const auto& px) { return g->to_lonlat(px); });
                                                        }}));
      expect_gdaltransform(fc, flag + " " + q(dir + "/gcps.tif"));
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(Georef, BadGeoreferencingIsNamed) {
  const std::string dir = test::temp_dir();
  test::write_text(dir + "/a.points", "mapX,mapY,sourceX,sourceY,enable\n1,2,3,x,1\n");
  try {
    geo::read_qgis_points(dir + "/a.points");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a.points: line 2: \"x\" is not a number"), std::string::npos) << e.what();
  }
  test::write_text(dir + "/b.points", "mapX,mapY,sourceX,sourceY,enable\n1,2,3,-4,1\n5,6,7,-8,1\n9,9,1,-1,1\n");
  try {
    geo::Georeference::of_points(dir + "/b.points", 10, 10, {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("b.points: no \"#CRS:\" line; give --georef-crs"), std::string::npos) << e.what();
  }
  // A world file without a CRS: the image is georeferenced, in no named system.
  ASSERT_EQ(std::system(("gdal_create -q -of PNG -outsize 20 10 -bands 1 " + q(dir + "/w.png")).c_str()), 0);
  test::write_text(dir + "/w.pgw", "10\n0\n0\n-10\n480005\n4420005\n");
  try {
    geo::Georeference::of_image(dir + "/w.png", {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("w.png: georeferenced (a geotransform) but in no named coordinate system (no .prj beside it); give --georef-crs"),
              std::string::npos)
        << e.what();
  }
  geo::GeorefOptions opt;
  opt.crs = "EPSG:32613";
  const auto g = geo::Georeference::of_image(dir + "/w.png", opt);
  ASSERT_NE(g, nullptr);
  const auto ll = g->to_lonlat({{0, 0}});
  EXPECT_NEAR(ll[0].x, -105.2, 0.1);
  EXPECT_NEAR(ll[0].y, 39.9, 0.1);
  // The same CRS from a .prj beside the image: the same coordinates.
  test::write_text(dir + "/w.prj", sh("gdalsrsinfo -o wkt1 EPSG:32613"));
  const auto from_prj = geo::Georeference::of_image(dir + "/w.png", {});
  ASSERT_NE(from_prj, nullptr);
  EXPECT_DOUBLE_EQ(from_prj->to_lonlat({{0, 0}})[0].x, ll[0].x);
  std::filesystem::remove_all(dir);
}

TEST(WebAnnotation, EachPhraseIsAnAnnotationOnItsCanvasAsTheW3CModelAsks) {
  output::WebAnnotationOptions opt;
  opt.canvas = "https://iiif.example.org/maps/5797073/canvas/1";
  const Json page = Json::parse(output::web_annotation_text(two_phrases("sheet.png"), opt));
  EXPECT_EQ(page["@context"], "http://www.w3.org/ns/anno.jsonld");
  EXPECT_EQ(page["type"], "AnnotationPage");
  ASSERT_TRUE(page["id"].is_string());
  ASSERT_EQ(page["items"].size(), 2u);
  std::set<std::string> ids;
  for (const Json& a : page["items"]) {
    // The model's musts: an id (an IRI), type Annotation, a target; bodies with type and value.
    ASSERT_TRUE(a["id"].is_string());
    EXPECT_EQ(a["id"].get<std::string>().rfind("https://", 0), 0u);
    ids.insert(a["id"].get<std::string>());
    EXPECT_EQ(a["type"], "Annotation");
    EXPECT_EQ(a["motivation"], "tagging");
    ASSERT_EQ(a["body"].size(), 1u);
    EXPECT_EQ(a["body"][0]["type"], "TextualBody");
    EXPECT_EQ(a["body"][0]["format"], "text/plain");
    EXPECT_EQ(a["target"]["source"], opt.canvas);
    EXPECT_EQ(a["target"]["selector"]["type"], "SvgSelector");
    const std::string svg = a["target"]["selector"]["value"];
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\">", 0), 0u) << svg;
  }
  EXPECT_EQ(ids.size(), 2u);
  EXPECT_EQ(page["items"][0]["body"][0]["value"], "Lodge Pole Cr.");
  EXPECT_EQ(page["items"][1]["target"]["selector"]["value"],
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><path d=\"M500,650 L700,650 L700,600 L500,600 Z\"/></svg>");
  // Several images need a canvas per image.
  maptext::Dataset two = two_phrases("a.png");
  two.push_back(two_phrases("b.png")[0]);
  EXPECT_THROW(output::web_annotation_text(two, opt), Error);
  opt.canvas = "https://iiif.example.org/{image}/canvas";
  const Json both = Json::parse(output::web_annotation_text(two, opt));
  EXPECT_EQ(both["items"][3]["target"]["source"], "https://iiif.example.org/b.png/canvas");
}

TEST(Cli, LinkWritesGeoJsonInLonLatFromAGeoTiffAndWebAnnotations) {
  const std::string dir = test::temp_dir();
  ASSERT_EQ(std::system(("gdal_create -q -of GTiff -outsize 1000 800 -bands 1 " + q(dir + "/blank.tif") + " && gdal_translate -q -a_srs EPSG:32613 "
                         "-a_ullr 480000 4420000 481000 4419200 " + q(dir + "/blank.tif") + " " + q(dir + "/sheet.tif")).c_str()),
            0);
  maptext::Dataset words = two_phrases("sheet.tif");
  for (auto& g : words[0].groups)  // as a spotter gives them: each word alone
    for (auto& w : g) w.illegible.reset();
  maptext::write_maptext(dir + "/words.json", words);
  RunResult r = run_light("link --method distance --words " + q(dir + "/words.json") + " --images " + q(dir) +
                          " --format geojson --georef auto -o " + q(dir + "/out.geojson"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("georef: sheet.tif: geotransform (WGS 84 / UTM zone 13N), affine"), std::string::npos) << r.err;
  const Json fc = Json::parse(test::read_text(dir + "/out.geojson"));
  ASSERT_EQ(fc["features"].size(), 2u);
  EXPECT_EQ(fc["features"][0]["properties"]["text"], "Lodge Pole Cr.");
  expect_gdaltransform(fc, q(dir + "/sheet.tif"));
  r = run_light("link --method distance --words " + q(dir + "/words.json") + " --format webanno --iiif-canvas https://x.org/c1 -o " +
                q(dir + "/out.jsonld"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Json::parse(test::read_text(dir + "/out.jsonld"))["items"].size(), 2u);
  // Georeferencing asked of a MapText output: named, nothing written.
  r = run_light("link --method distance --words " + q(dir + "/words.json") + " --images " + q(dir) + " --georef auto -o " + q(dir + "/no.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--georef: map coordinates are written in GeoJSON only"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/no.json"));
  std::filesystem::remove_all(dir);
}

TEST(Raster, AMapReadInStripsByGdalResizesToTheSameBytesAsWhole) {
  const std::string png = test::source_path("data/synth-example/topographic-1500.png");
  const auto size = geo::raster_size(png);
  ASSERT_TRUE(size.has_value());
  EXPECT_EQ(*size, (std::pair<int, int>{1500, 1500}));
  const image::RgbImage whole = image::read_rgb(png);
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{336, 336}, {1500, 700}, {701, 1500}, {2000, 1900}}) {
    const auto strips = geo::read_rgb_resized(png, w, h);
    ASSERT_TRUE(strips.has_value());
    const image::RgbImage want = image::pil_resize_bilinear(whole, w, h);
    EXPECT_EQ(strips->width, want.width);
    EXPECT_TRUE(strips->rgb == want.rgb) << w << " x " << h;
  }
  // A gray image: three equal channels, as OpenCV reads it.
  const std::string dir = test::temp_dir();
  ASSERT_EQ(std::system(("gdal_translate -q -of PNG -b 2 '" + png + "' '" + dir + "/gray.png'").c_str()), 0);
  const auto gray = geo::read_rgb_resized(dir + "/gray.png", 400, 300);
  ASSERT_TRUE(gray.has_value());
  EXPECT_TRUE(gray->rgb == image::pil_resize_bilinear(image::read_rgb(dir + "/gray.png"), 400, 300).rgb);
  // A tiled, compressed TIFF (what libraries scan to) read by blocks: the same bytes.
  ASSERT_EQ(std::system(("gdal_translate -q -of GTiff -co TILED=YES -co COMPRESS=DEFLATE '" + png + "' '" + dir + "/tiled.tif'").c_str()), 0);
  const auto tiled = geo::read_rgb_resized(dir + "/tiled.tif", 336, 336);
  ASSERT_TRUE(tiled.has_value());
  EXPECT_TRUE(tiled->rgb == image::pil_resize_bilinear(whole, 336, 336).rgb);
  EXPECT_FALSE(geo::raster_size(dir + "/missing.png").has_value());
  std::filesystem::remove_all(dir);
}

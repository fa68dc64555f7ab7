#include "light/maptext/spotter_formats.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/json.h"
#include "light/util/utf8.h"

namespace light::maptext {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// An object's string member, "" when it is absent or not a string (a "type" of 55 is no type light reads).
std::string string_field(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Word word_of(std::vector<Point> pts, const json* text, const std::string& where) {
  if (pts.size() >= 2 && pts.front().x == pts.back().x && pts.front().y == pts.back().y) pts.pop_back();  // a closed ring
  if (pts.size() < 3) throw Error(where + ": needs at least 3 [x, y] points, got " + std::to_string(pts.size()));
  Word w;
  w.vertices = std::move(pts);
  if (text && !text->is_null()) {
    if (!text->is_string()) throw Error(where + ": \"text\" must be a string");
    w.text = text->get<std::string>();
  } else {
    w.text = "";
  }
  return w;
}

std::vector<Point> points_of(const json& a, const std::string& where) {
  if (!a.is_array()) throw Error(where + ": expected [[x, y], ...]");
  std::vector<Point> pts;
  for (size_t k = 0; k < a.size(); ++k) {
    if (!a[k].is_array() || a[k].size() < 2) throw Error(where + "[" + std::to_string(k) + "]: expected [x, y]");
    pts.push_back({json_number(a[k][0], where + "[" + std::to_string(k) + "]", "x"), json_number(a[k][1], where + "[" + std::to_string(k) + "]", "y")});
  }
  return pts;
}

Tile annotations_tile(const json& j, const std::string& path) {
  Tile t;
  t.image = fs::path(path).stem().string();
  const json& anns = j.at("annotations");
  if (!anns.is_array()) throw Error(path + ": \"annotations\" must be a list");
  for (size_t a = 0; a < anns.size(); ++a) {
    const std::string where = path + ": annotations[" + std::to_string(a) + "]";
    if (!anns[a].is_object() || !anns[a].contains("pts")) throw Error(where + ": missing \"pts\" (expected [[x, y], ...])");
    const auto text = anns[a].find("text");
    t.groups.push_back({word_of(points_of(anns[a]["pts"], where + ".pts"), text != anns[a].end() ? &*text : nullptr, where + ".pts")});
  }
  return t;
}

// One tile per image of a FeatureCollection (the features' "image" property, else the file's stem).
std::vector<Tile> geojson_tiles(const json& j, const std::string& path, std::vector<std::string>& notes) {
  const auto features = j.find("features");
  if (features == j.end() || !features->is_array()) throw Error(path + ": a FeatureCollection needs a \"features\" list");
  std::map<std::string, Tile> by_image;
  std::vector<std::string> order;
  std::vector<std::pair<std::string, Word>> words;
  bool all_y_nonpositive = true, any_negative = false;
  size_t multi_dropped = 0;
  for (size_t f = 0; f < features->size(); ++f) {
    const json& ft = (*features)[f];
    const std::string where = path + ": features[" + std::to_string(f) + "]";
    if (!ft.is_object() || !ft.contains("geometry") || !ft["geometry"].is_object()) throw Error(where + ": missing \"geometry\"");
    const json& g = ft["geometry"];
    const std::string type = string_field(g, "type");
    if (!g.contains("coordinates")) throw Error(where + ".geometry: missing \"coordinates\"");
    // Its polygons: a Polygon's outer ring, or each of a MultiPolygon's (light's own GeoJSON: one
    // polygon per word of the phrase, its words' texts in properties.words).
    std::vector<const json*> rings;
    const json& c = g["coordinates"];
    if (type == "Polygon" && c.is_array() && !c.empty()) rings.push_back(&c[0]);
    else if (type == "MultiPolygon" && c.is_array() && !c.empty()) {
      for (size_t k = 0; k < c.size(); ++k) {
        if (!c[k].is_array() || c[k].empty())
          throw Error(where + ".geometry.coordinates[" + std::to_string(k) + "]: expected a polygon [[[x, y], ...]]");
        rings.push_back(&c[k][0]);
      }
    } else {
      throw Error(where + ".geometry: expected a Polygon or MultiPolygon, got " + (g.contains("type") ? g["type"].dump() : "no \"type\""));
    }
    const json empty = json::object();
    const json& props = ft.contains("properties") && ft["properties"].is_object() ? ft["properties"] : empty;
    const auto image = props.find("image");
    if (image != props.end() && !image->is_string()) throw Error(where + ".properties.image: expected the image key (a string), got " + image->dump());
    const std::string key = image != props.end() ? image->get<std::string>() : fs::path(path).stem().string();
    const auto per_word = props.find("words");
    const bool words_listed = per_word != props.end() && per_word->is_array() && per_word->size() == rings.size();
    const auto coords = props.find("coordinates");
    const bool lonlat = coords != props.end() && *coords == "lonlat";
    if (lonlat && !words_listed)
      throw Error(where + ": its coordinates are longitude/latitude (properties.coordinates \"lonlat\") and it holds no pixel_vertices; "
                          "light reads words in pixels: give the pixel GeoJSON or MapText");
    if (!words_listed && rings.size() > 1) ++multi_dropped;
    for (size_t k = 0; k < (words_listed ? rings.size() : 1); ++k) {
      const std::string at = where + (rings.size() > 1 ? ".geometry.coordinates[" + std::to_string(k) + "]" : "");
      const json* text = nullptr;
      const json* pixels = nullptr;
      if (words_listed) {
        const json& pw = (*per_word)[k];
        if (pw.is_object() && pw.contains("text")) text = &pw["text"];
        if (pw.is_object() && pw.contains("pixel_vertices")) pixels = &pw["pixel_vertices"];
        if (lonlat && !pixels)
          throw Error(where + ".properties.words[" + std::to_string(k) + "]: longitude/latitude coordinates without \"pixel_vertices\"");
      } else if (const auto t = props.find("text"); t != props.end()) {
        text = &*t;
      }
      Word w = pixels ? word_of(points_of(*pixels, where + ".properties.words[" + std::to_string(k) + "].pixel_vertices"), text, at)
                      : word_of(points_of(*rings[k], at + ".geometry.coordinates"), text, at);
      if (words_listed && !pixels) {
        // light's own GeoJSON writes rings counterclockwise (x east, y north), which reverses a MapText
        // word's vertices (lower edge first, in reading order: clockwise so): put back.
        double area = 0;
        for (size_t i = 0; i < w.vertices.size(); ++i) {
          const Point &u = w.vertices[i], &v = w.vertices[(i + 1) % w.vertices.size()];
          area += u.x * v.y - v.x * u.y;
        }
        if (area > 0) std::reverse(w.vertices.begin(), w.vertices.end());
      }
      if (!pixels)
        for (const Point& p : w.vertices) all_y_nonpositive = all_y_nonpositive && p.y <= 0, any_negative = any_negative || p.y < 0;
      words.emplace_back(key, std::move(w));
    }
  }
  if (multi_dropped > 0)
    notes.push_back(path + ": " + std::to_string(multi_dropped) + " feature(s) with a MultiPolygon of several polygons and no per-word "
                    "\"words\" list: each read as one word, its first polygon");
  const bool negate = all_y_nonpositive && any_negative;
  if (negate) notes.push_back(path + ": every y is at most 0 (y negated, as mapKurator writes for QGIS): read as -y");
  for (auto& [key, w] : words) {
    if (negate)
      for (Point& p : w.vertices) p.y = -p.y;
    if (!by_image.count(key)) order.push_back(key), by_image[key].image = key;
    by_image[key].groups.push_back({std::move(w)});
  }
  std::vector<Tile> out;
  for (const auto& k : order) out.push_back(std::move(by_image[k]));
  if (out.empty()) out.push_back(Tile{fs::path(path).stem().string(), {}});
  return out;
}

// A per-image or GeoJSON file's text ("annotations" or "geojson"), its tiles appended to `data`.
std::string parse_one(const std::string& text, const std::string& path, Dataset& data, std::vector<std::string>& notes) {
  const json j = parse_json(without_bom(text), path);
  if (j.is_object() && j.contains("annotations")) {
    data.push_back(annotations_tile(j, path));
    return "annotations";
  }
  if (j.is_object() && string_field(j, "type") == "FeatureCollection") {
    for (auto& t : geojson_tiles(j, path, notes)) data.push_back(std::move(t));
    return "geojson";
  }
  throw Error(path + ": not a word file light reads (MapText JSON: a list of image entries; {\"annotations\": [...]}; a GeoJSON FeatureCollection)");
}

// Two tiles of one image would be linked as one twice: refused.
void check_unique_images(const Dataset& data, const std::string& path) {
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < data.size(); ++i)
    if (!seen.emplace(data[i].image, i).second)
      throw Error(path + ": image \"" + data[i].image + "\" appears twice (in " + std::to_string(seen[data[i].image]) + " and " +
                  std::to_string(i) + ")");
}

}  // namespace

SpotterWords read_spotter_words(const std::string& path) {
  SpotterWords out;
  if (fs::is_directory(path)) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(path))
      if (e.is_regular_file() && (e.path().extension() == ".json" || e.path().extension() == ".geojson")) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    if (files.empty()) throw Error(path + ": no .json or .geojson file in this folder (--words)");
    for (const auto& f : files) {
      const std::string kind = parse_one(read_file(f), f, out.data, out.notes);
      out.format = out.format.empty() || out.format == kind ? kind : "mixed";
    }
  } else {
    SpotterWords one = parse_spotter_words(read_file(path), path);
    out.data = std::move(one.data), out.format = one.format, out.notes = std::move(one.notes);
  }
  check_unique_images(out.data, path);
  return out;
}

SpotterWords parse_spotter_words(const std::string& raw, const std::string& path) {
  SpotterWords out;
  const std::string text(without_bom(raw));
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '[') {
    out.data = parse_maptext(text, path, {Kind::Predictions, false});
    out.format = "maptext";
  } else {
    out.format = parse_one(text, path, out.data, out.notes);
  }
  check_unique_images(out.data, path);
  return out;
}

}  // namespace light::maptext

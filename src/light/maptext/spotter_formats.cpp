#include "light/maptext/spotter_formats.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/json.h"

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
  for (size_t f = 0; f < features->size(); ++f) {
    const json& ft = (*features)[f];
    const std::string where = path + ": features[" + std::to_string(f) + "]";
    if (!ft.is_object() || !ft.contains("geometry") || !ft["geometry"].is_object()) throw Error(where + ": missing \"geometry\"");
    const json& g = ft["geometry"];
    const std::string type = string_field(g, "type");
    if (!g.contains("coordinates")) throw Error(where + ".geometry: missing \"coordinates\"");
    const json* ring = nullptr;
    if (type == "Polygon" && g["coordinates"].is_array() && !g["coordinates"].empty()) ring = &g["coordinates"][0];
    else if (type == "MultiPolygon" && g["coordinates"].is_array() && !g["coordinates"].empty() && g["coordinates"][0].is_array() &&
             !g["coordinates"][0].empty())
      ring = &g["coordinates"][0][0];
    else throw Error(where + ".geometry: expected a Polygon or MultiPolygon, got " + (g.contains("type") ? g["type"].dump() : "no \"type\""));
    const json empty = json::object();
    const json& props = ft.contains("properties") && ft["properties"].is_object() ? ft["properties"] : empty;
    const auto text = props.find("text");
    Word w = word_of(points_of(*ring, where + ".geometry.coordinates"), text != props.end() ? &*text : nullptr, where);
    for (const Point& p : w.vertices) all_y_nonpositive = all_y_nonpositive && p.y <= 0, any_negative = any_negative || p.y < 0;
    const auto image = props.find("image");
    const std::string key = image != props.end() && image->is_string() ? image->get<std::string>() : fs::path(path).stem().string();
    words.emplace_back(key, std::move(w));
  }
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
  const json j = parse_json(text, path);
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

SpotterWords parse_spotter_words(const std::string& text, const std::string& path) {
  SpotterWords out;
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

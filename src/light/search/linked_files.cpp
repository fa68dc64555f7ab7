// The linked files `light search` reads (src/light/search/phrase_index.h): light's MapText and
// GeoJSON outputs, the folders that hold them, and the choice between a folder's saved index and its
// files. Split from phrase_index.cpp, which holds the index itself.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "light/error.h"
#include "light/maptext.h"
#include "light/search/phrase_index.h"
#include "light/util/fs.h"
#include "light/util/json.h"

namespace light::search {

// ---------------------------------------------------------------------------------------------
// Linked files
// ---------------------------------------------------------------------------------------------
namespace {

using Json = nlohmann::json;

[[noreturn]] void bad(const std::string& path, const std::string& field, const std::string& expected) {
  throw Error(path + ": " + field + ": " + expected);
}

std::vector<maptext::Point> ring_points(const Json& ring, const std::string& path, const std::string& field) {
  if (!ring.is_array() || ring.size() < 3) bad(path, field, "expected a ring of at least 3 [x, y] positions");
  std::vector<maptext::Point> out;
  for (size_t i = 0; i < ring.size(); ++i) {
    const Json& p = ring[i];
    if (!p.is_array() || p.size() < 2 || !p[0].is_number() || !p[1].is_number())
      bad(path, field + "[" + std::to_string(i) + "]", "expected an [x, y] position of numbers");
    out.push_back({p[0].get<double>(), p[1].get<double>()});
  }
  if (out.size() > 3 && out.front().x == out.back().x && out.front().y == out.back().y) out.pop_back();  // closed ring
  return out;
}

std::vector<Phrase> geojson_phrases(const Json& fc, const std::string& path) {
  const Json* features = fc.contains("features") ? &fc["features"] : nullptr;
  if (!features || !features->is_array()) bad(path, "features", "expected an array of Features");
  std::vector<Phrase> out;
  std::map<std::string, uint32_t> seen;  // phrases so far per image
  for (size_t f = 0; f < features->size(); ++f) {
    const Json& feat = (*features)[f];
    const std::string at = "features[" + std::to_string(f) + "]";
    if (!feat.is_object()) bad(path, at, "expected a Feature object");
    const Json* props = feat.contains("properties") ? &feat["properties"] : nullptr;
    if (!props || !props->is_object()) bad(path, at + ".properties", "expected an object");
    if (!props->contains("image") || !(*props)["image"].is_string()) bad(path, at + ".properties.image", "expected the map's image key (a string)");
    if (!props->contains("words") || !(*props)["words"].is_array()) bad(path, at + ".properties.words", "expected an array of words");
    Phrase p;
    p.file = path;
    p.image = (*props)["image"].get<std::string>();
    p.group = seen[p.image]++;
    if (feat.contains("id") && feat["id"].is_string()) {
      const std::string id = feat["id"].get<std::string>();
      const size_t hash = id.rfind('#');
      if (hash != std::string::npos && hash + 1 < id.size() && id.find_first_not_of("0123456789", hash + 1) == std::string::npos &&
          id.size() - hash - 1 < 10)
        p.group = static_cast<uint32_t>(std::stoul(id.substr(hash + 1)));
    }
    const bool lonlat = props->contains("coordinates") && (*props)["coordinates"] == "lonlat";
    const Json* geom = feat.contains("geometry") ? &feat["geometry"] : nullptr;
    const Json* polys = geom && geom->is_object() && geom->contains("coordinates") ? &(*geom)["coordinates"] : nullptr;
    const Json& words = (*props)["words"];
    if (!polys || !polys->is_array() || polys->size() != words.size())
      bad(path, at + ".geometry.coordinates", "expected a MultiPolygon with one polygon a word");
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (size_t w = 0; w < words.size(); ++w) {
      const std::string wat = at + ".properties.words[" + std::to_string(w) + "]";
      if (!words[w].is_object()) bad(path, wat, "expected a word object");
      PhraseWord word;
      if (words[w].contains("text")) {
        if (!words[w]["text"].is_string()) bad(path, wat + ".text", "expected a string");
        word.text = words[w]["text"].get<std::string>();
      }
      const Json& poly = (*polys)[w];
      const std::string pat = at + ".geometry.coordinates[" + std::to_string(w) + "]";
      if (!poly.is_array() || poly.empty()) bad(path, pat, "expected a polygon (an array of rings)");
      const std::vector<maptext::Point> ring = ring_points(poly[0], path, pat + "[0]");
      if (lonlat) {
        for (const auto& v : ring) x0 = std::min(x0, v.x), y0 = std::min(y0, v.y), x1 = std::max(x1, v.x), y1 = std::max(y1, v.y);
        if (words[w].contains("pixel_vertices")) word.vertices = ring_points(words[w]["pixel_vertices"], path, wat + ".pixel_vertices");
      } else {
        word.vertices = ring;
      }
      p.words.push_back(std::move(word));
    }
    if (lonlat && std::isfinite(x0)) p.lonlat = maptext::Point{(x0 + x1) / 2, (y0 + y1) / 2};
    out.push_back(std::move(p));
  }
  return out;
}

int64_t mtime_ns(const std::string& path, uint64_t* size) {
  struct stat st{};
  if (stat(path.c_str(), &st) != 0) throw Error(path + ": cannot read: " + std::strerror(errno));
  if (size) *size = static_cast<uint64_t>(st.st_size);
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

}  // namespace

std::optional<std::vector<Phrase>> read_linked_phrases(const std::string& path) {
  const std::string text = read_file(path);
  const Json j = parse_json(text, path);  // a number past a double's range (1e400) is refused there, naming the file
  if (j.is_object() && j.contains("type") && j["type"] == "FeatureCollection") {
    // Not light's output (a spotter's words, another tool's features: no feature with an image key and
    // a words list): passed over, as a foreign .json is.
    const auto& features = j.contains("features") ? j["features"] : Json();
    if (features.is_array() && !features.empty() &&
        std::none_of(features.begin(), features.end(), [](const Json& f) {
          return f.is_object() && f.contains("properties") && f["properties"].is_object() && f["properties"].contains("words") &&
                 f["properties"].contains("image");
        }))
      return std::nullopt;
    return geojson_phrases(j, path);
  }
  if (!j.is_array()) return std::nullopt;
  maptext::ReadOptions ro;
  ro.kind = maptext::Kind::Predictions;
  return dataset_phrases(maptext::parse_maptext(text, path, ro), path);
}

double spotter_score(const maptext::Word& w) {
  // Most words carry no score (ground truth, other linkers): their keys are not parsed.
  if (w.extra.find("\"score\"") == std::string::npos) return -1;
  const nlohmann::json e = nlohmann::json::parse(w.extra, nullptr, false);
  if (!e.is_object() || !e.contains("score") || !e["score"].is_number()) return -1;
  const double s = e["score"].get<double>();
  return s >= 0 && s <= 1 ? s : -1;
}

std::vector<Phrase> dataset_phrases(const maptext::Dataset& linked, const std::string& file) {
  std::vector<Phrase> out;
  for (const maptext::Tile& tile : linked)
    for (size_t g = 0; g < tile.groups.size(); ++g) {
      Phrase p;
      p.file = file;
      p.image = tile.image;
      p.group = static_cast<uint32_t>(g);
      for (const maptext::Word& w : tile.groups[g]) p.words.push_back({w.text.value_or(""), w.vertices, spotter_score(w)});
      if (!p.words.empty()) out.push_back(std::move(p));
    }
  return out;
}

std::vector<std::string> linked_files(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error(dir + ": not a folder");
  std::set<std::string> found;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string ext = it->path().extension().string();
    if (ext == ".json" || ext == ".geojson") found.insert(it->path().string());
  }
  if (ec) throw Error(dir + ": cannot list: " + ec.message());
  std::vector<std::string> out;
  for (const std::string& f : found) {
    const fs::path p(f);
    // x.json beside x.geojson: one linked output in two formats, searched once (the GeoJSON, which
    // may hold longitude/latitude), unless the GeoJSON holds no phrase of light's.
    const std::string twin = (p.parent_path() / p.stem()).string() + ".geojson";
    if (p.extension() == ".json" && found.count(twin)) {
      std::optional<std::vector<Phrase>> g;
      try {
        g = read_linked_phrases(twin);
      } catch (const Error&) {
      }
      if (g && !g->empty()) continue;
    }
    out.push_back(f);
  }
  return out;
}

PhraseIndex build_folder_index(const std::string& dir, std::vector<std::string>* notes) {
  std::vector<Phrase> phrases;
  std::vector<PhraseIndex::Source> sources;
  for (const std::string& f : linked_files(dir)) {
    PhraseIndex::Source s;
    s.path = f;
    s.mtime_ns = mtime_ns(f, &s.size);
    auto got = read_linked_phrases(f);
    if (!got) {
      if (notes) notes->push_back(f + ": not linked output (neither a MapText list nor a GeoJSON FeatureCollection); passed over");
      continue;
    }
    sources.push_back(s);
    for (Phrase& p : *got) phrases.push_back(std::move(p));
  }
  if (sources.empty()) throw Error(dir + ": no linked file (*.json, *.geojson) in it");
  return PhraseIndex(phrases, sources);
}

PhraseIndex open_for_search(const std::string& in, std::vector<std::string>* notes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(in, ec)) {
    const std::string saved = (fs::path(in) / kIndexFileName).string();
    std::optional<PhraseIndex> opened;
    if (fs::exists(saved, ec)) {
      try {
        opened.emplace(PhraseIndex::open(saved));
      } catch (const Error& e) {
        if (notes) notes->push_back(std::string(e.what()) + "; searching the files themselves");
      }
    }
    if (opened) {
      PhraseIndex index = std::move(*opened);
      std::vector<std::string> now = linked_files(in);
      const auto sources = index.sources();
      std::set<std::string> indexed;
      bool fresh = true;
      for (const auto& s : sources) {
        indexed.insert(s.path);
        uint64_t size = 0;
        std::error_code e2;
        if (!fs::exists(s.path, e2) || mtime_ns(s.path, &size) != s.mtime_ns || size != s.size) fresh = false;
      }
      for (const std::string& f : now)
        if (!indexed.count(f)) {
          // a file passed over when the index was built is no change
          try {
            if (read_linked_phrases(f)) fresh = false;
          } catch (const Error&) {
            fresh = false;
          }
        }
      if (fresh) return index;
      if (notes) notes->push_back(saved + ": out of date (files added, removed or changed since it was built); searching the files themselves; `light search --index " + in + "` brings it up to date");
    }
    return build_folder_index(in, notes);
  }
  if (!fs::exists(in, ec)) throw Error(in + " (--in): no such file or folder");
  if (PhraseIndex::is_index_file(in)) return PhraseIndex::open(in);
  auto got = read_linked_phrases(in);
  if (!got) throw Error(in + " (--in): not linked output: expected a MapText list, a GeoJSON FeatureCollection or a light search index");
  uint64_t size = 0;
  const int64_t t = mtime_ns(in, &size);
  return PhraseIndex(*got, {{in, size, t}});
}

}  // namespace light::search

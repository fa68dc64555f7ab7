#include "light/export/phrases.h"

#include <cctype>
#include <cmath>
#include <deque>
#include <map>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/geometry/polygon.h"

namespace light::output {

using maptext::Point;
using Json = nlohmann::ordered_json;

Format parse_format(const std::string& name) {
  if (name == "maptext") return Format::MapText;
  if (name == "geojson") return Format::GeoJson;
  if (name == "webanno") return Format::WebAnnotation;
  throw Error("--format: expected maptext, geojson or webanno, got \"" + name + "\"");
}

namespace {

// A closed ring, counterclockwise in its own coordinates (positive area: x east, y north).
Json ring(std::vector<Point> pts) {
  if (geometry::signed_area(pts) < 0) std::reverse(pts.begin(), pts.end());
  Json r = Json::array();
  for (const Point& p : pts) r.push_back(Json::array({p.x, p.y}));
  if (!pts.empty()) r.push_back(Json::array({pts.front().x, pts.front().y}));
  return r;
}

Json vertices_json(const std::vector<Point>& pts) {
  Json r = Json::array();
  for (const Point& p : pts) r.push_back(Json::array({p.x, p.y}));
  return r;
}

std::string phrase_text(const maptext::Group& g) {
  std::string s;
  for (const auto& w : g) {
    const std::string t = w.text.value_or("");
    if (t.empty()) continue;
    if (!s.empty()) s += ' ';
    s += t;
  }
  return s;
}

std::string number(double v) {
  char buf[40];
  if (!(std::abs(v) < 1e15)) {  // past what %.2f prints in a sensible number of digits
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

// The object compact, with each element of its array `key` (the last key) on a line of its own: small
// files for maps of thousands of phrases that line tools (grep, head) still read.
std::string one_per_line(const Json& j, const std::string& key) {
  std::string out = "{";
  bool first = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == key) continue;
    out += (first ? "" : ",") + Json(it.key()).dump() + ":" + it.value().dump();
    first = false;
  }
  out += (first ? "" : ",") + Json(key).dump() + ":[";
  const Json& items = j.at(key);
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ",\n" : "\n") + items[i].dump();
  out += items.empty() ? "]}\n" : "\n]}\n";
  return out;
}

}  // namespace

std::string geojson_text(const maptext::Dataset& linked, const GeoJsonOptions& opt) {
  Json fc = {{"type", "FeatureCollection"}, {"features", Json::array()}};
  // Each input word's place among its image's words, by its text as read (a word read again keeps it
  // as "read_as") and vertices (words alike take their places in order).
  const auto word_key = [](const maptext::Word& w) {
    std::string text = w.text.value_or("");
    if (w.extra.find("\"read_as\"") != std::string::npos) {
      const Json extra = Json::parse(w.extra, nullptr, false);
      if (extra.is_object() && extra.contains("read_as") && extra["read_as"].is_string()) text = extra["read_as"].get<std::string>();
    }
    std::string k = text + '\0';
    k.append(reinterpret_cast<const char*>(w.vertices.data()), w.vertices.size() * sizeof(maptext::Point));
    return k;
  };
  std::map<std::string, std::map<std::string, std::deque<size_t>>> places;
  if (opt.input)
    for (const maptext::Tile& t : *opt.input) {
      size_t k = 0;
      for (const auto& g : t.groups)
        for (const auto& w : g) places[t.image][word_key(w)].push_back(k++);
    }
  for (const maptext::Tile& tile : linked) {
    const ToLonLat to_lonlat = opt.georeference ? opt.georeference(tile.image) : ToLonLat{};
    const std::vector<std::optional<PlaceLink>> tile_places = opt.places ? opt.places(tile.image) : std::vector<std::optional<PlaceLink>>{};
    auto& place = places[tile.image];
    size_t index = 0;
    for (size_t g = 0; g < tile.groups.size(); ++g) {
      Json polygons = Json::array(), words = Json::array();
      for (const maptext::Word& w : tile.groups[g]) {
        size_t at = index++;
        if (opt.input) {  // a word that is not there has no place to give: refused rather than guessed
          auto found = place.find(word_key(w));
          if (found == place.end() || found->second.empty())
            throw Error("words: the linked word \"" + w.text.value_or("") + "\" of image \"" + tile.image +
                        "\" is not among the words given (each word's \"index\" is its place there); give the words that were linked");
          at = found->second.front(), found->second.pop_front();
        }
        Json word = {{"text", w.text.value_or("")}, {"index", at}};
        if (!w.extra.empty()) {  // the word's other keys: a spotter's score, the link's successor_probability
          const Json extra = Json::parse(w.extra);
          for (auto it = extra.begin(); it != extra.end(); ++it) {
            if (it.key() == "index" || it.key() == "text") {  // the spotter's own: kept beside light's
              word["spotter_" + it.key()] = it.value();
              if (it.key() == "index" && opt.own_index_renamed) ++*opt.own_index_renamed;
            } else if (!word.contains(it.key())) {
              word[it.key()] = it.value();
            }
          }
        }
        if (to_lonlat) {
          polygons.push_back(Json::array({ring(to_lonlat(w.vertices))}));
          word["pixel_vertices"] = vertices_json(w.vertices);
        } else {
          polygons.push_back(Json::array({ring(w.vertices)}));
        }
        words.push_back(std::move(word));
      }
      if (words.empty()) continue;
      Json f = {{"type", "Feature"},
                {"id", tile.image + "#" + std::to_string(g)},
                {"geometry", {{"type", "MultiPolygon"}, {"coordinates", std::move(polygons)}}},
                {"properties",
                 {{"image", tile.image}, {"text", phrase_text(tile.groups[g])}, {"words", std::move(words)},
                  {"coordinates", to_lonlat ? "lonlat" : "pixel"}}}};
      if (g < tile_places.size() && tile_places[g]) {
        const PlaceLink& p = *tile_places[g];
        f["properties"]["place"] = {{"uri", p.uri},         {"name", p.name}, {"feature_class", p.feature_class}, {"feature_code", p.feature_code},
                                    {"country", p.country}, {"lon", p.lon},   {"lat", p.lat},                     {"score", p.score},
                                    {"accepted", p.accepted}, {"placed", p.placed}};
        f["links"] = Json::array({{{"type", "closeMatch"}, {"identifier", p.uri}}});
      }
      fc["features"].push_back(std::move(f));
    }
  }
  return one_per_line(fc, "features");
}

namespace {
// An image key made fit for an IRI: spaces, "#", "%", "?", quotes, angle brackets and the other
// characters RFC 3987 does not allow, percent-encoded (UTF-8 letters stay: IRIs hold them).
std::string iri_escape(const std::string& key) {
  static const std::string kEscaped = " #%?\"<>\\^`{|}";
  std::string out;
  for (const unsigned char c : key) {
    if (c < 0x21 || c == 0x7f || kEscaped.find(static_cast<char>(c)) != std::string::npos) {
      char b[4];
      std::snprintf(b, sizeof b, "%%%02X", c);
      out += b;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// The canvas of an image: --iiif-canvas with {image} replaced by the escaped key (in one pass: a key
// holding "{image}" is put in once), or, without a canvas, an IRI of the key itself
// (urn:light:image:KEY), so that every id and target is an absolute IRI.
std::string canvas_of(const std::string& canvas, const std::string& key) {
  if (canvas.empty()) return "urn:light:image:" + iri_escape(key);
  std::string out;
  size_t from = 0;
  for (size_t p; (p = canvas.find("{image}", from)) != std::string::npos; from = p + 7) out += canvas.substr(from, p - from) + iri_escape(key);
  return out + canvas.substr(from);
}
}  // namespace

std::string web_annotation_text(const maptext::Dataset& linked, const WebAnnotationOptions& opt) {
  Json page = {{"@context", "http://www.w3.org/ns/anno.jsonld"}, {"type", "AnnotationPage"}, {"items", Json::array()}};
  // A target is an absolute IRI (a scheme, then ':'): a relative one means nothing to a IIIF viewer.
  const size_t colon = opt.canvas.find(':');
  const bool scheme = colon != std::string::npos && colon > 0 && std::isalpha(static_cast<unsigned char>(opt.canvas[0])) &&
                      opt.canvas.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-") == colon;
  if (!opt.canvas.empty() && !scheme)
    throw Error("--iiif-canvas: expected an absolute IRI (https://..., urn:...), got \"" + opt.canvas + "\"");
  if (linked.size() > 1 && !opt.canvas.empty() && opt.canvas.find("{image}") == std::string::npos)
    throw Error("--iiif-canvas: " + std::to_string(linked.size()) +
                " images share one canvas; give a canvas per image with {image} in it (replaced by the image key)");
  for (const maptext::Tile& tile : linked) {
    const std::string source = canvas_of(opt.canvas, tile.image);
    const std::vector<std::optional<PlaceLink>> tile_places = opt.places ? opt.places(tile.image) : std::vector<std::optional<PlaceLink>>{};
    if (page.find("id") == page.end()) page["id"] = source + (source.find('#') == std::string::npos ? "#" : "-") + "light-phrases";
    for (size_t g = 0; g < tile.groups.size(); ++g) {
      if (tile.groups[g].empty()) continue;
      std::string path;
      for (const maptext::Word& w : tile.groups[g]) {
        for (size_t k = 0; k < w.vertices.size(); ++k)
          path += (k == 0 ? (path.empty() ? "M" : " M") : " L") + number(w.vertices[k].x) + "," + number(w.vertices[k].y);
        path += " Z";
      }
      const std::string text = phrase_text(tile.groups[g]);
      // A phrase without text (a spotter's detection it could not read) outlines where it is: a
      // "highlighting" annotation without a body, never a tag that is empty.
      Json a = {{"id", source + (source.find('#') == std::string::npos ? "#" : "-") + "light-phrase-" + std::to_string(g)},
                {"type", "Annotation"},
                {"motivation", text.empty() ? "highlighting" : "tagging"},
                {"target",
                 {{"source", source},
                  {"selector",
                   {{"type", "SvgSelector"},
                    {"value", "<svg xmlns=\"http://www.w3.org/2000/svg\"><path d=\"" + path + "\"/></svg>"}}}}}};
      if (!text.empty())
        a["body"] = Json::array({{{"type", "TextualBody"}, {"value", text}, {"format", "text/plain"}, {"purpose", "tagging"}}});
      if (!text.empty() && g < tile_places.size() && tile_places[g] && tile_places[g]->accepted) {
        a["body"].push_back({{"type", "SpecificResource"}, {"purpose", "identifying"}, {"source", {{"id", tile_places[g]->uri}, {"label", tile_places[g]->name}}}});
      }
      page["items"].push_back(std::move(a));
    }
  }
  if (page.find("id") == page.end()) page["id"] = "urn:light:empty";
  // "id" after "@context" and "type" is fine for JSON-LD; keep a stable key order for people.
  Json ordered = {{"@context", page["@context"]}, {"id", page["id"]}, {"type", "AnnotationPage"}, {"items", page["items"]}};
  return one_per_line(ordered, "items");
}

}  // namespace light::output

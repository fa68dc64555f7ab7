// `light link --gazetteer`, `--georef names`: the phrases of each linked map matched to places, and
// the map georeferenced from them (docs/georeference-from-names.md).
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "light/cli/commands.h"
#include "light/cli/link_args.h"
#include "light/data/tile_image.h"
#include "light/geo/map_names.h"
#include "light/geo/word_rereading.h"
#include "light/image/resize.h"
#include "light/search/phrase_index.h"

namespace light::cli {

namespace {

output::PlaceLink place_link(const geo::MapNames& m, size_t phrase, int k) {
  const geo::PlaceCandidate& c = m.matches[phrase].candidates[static_cast<size_t>(k)];
  output::PlaceLink p;
  p.uri = geo::place_uri(c.place);
  p.name = c.place.name, p.feature_class = c.place.feature_class, p.feature_code = c.place.feature_code, p.country = c.place.country;
  p.lon = c.place.lon, p.lat = c.place.lat, p.score = std::round(c.score * 1000) / 1000;
  p.placed = phrase < m.placed.size() && m.placed[phrase] == k;
  p.accepted = m.accepted(phrase);
  return p;
}

// Each georeferenced map's spotted words read again against the places near them (--reread): the
// linked words with them in place, or null when none was.
std::shared_ptr<const maptext::Dataset> reread_words(const LinkArgs& a, const geo::Gazetteer& g, const std::vector<geo::MapNames>& maps,
                                                     const maptext::Dataset& linked) {
  std::map<std::string, size_t> tile_of;
  for (size_t t = 0; t < linked.size(); ++t) tile_of.emplace(linked[t].image, t);
  WordLikelihoodsFor likelihoods_for;
  auto out = std::make_shared<maptext::Dataset>(linked);
  size_t changed = 0;
  for (const geo::MapNames& m : maps) {
    std::vector<std::vector<double>> scores;
    bool spotted = false;
    for (const search::Phrase& p : m.phrases) {
      scores.emplace_back();
      for (const search::PhraseWord& w : p.words) scores.back().push_back(w.score), spotted = spotted || w.score >= 0;
    }
    if (!m.result.ok || !spotted || !tile_of.count(m.image)) continue;
    if (!likelihoods_for) likelihoods_for = reread_likelihoods(a);
    const geo::WordLikelihoods likelihoods = likelihoods_for(m.image);
    if (!likelihoods) {
      std::fprintf(stderr, "note: %s: its words are not read again against the places near them (no image under --images)\n", m.image.c_str());
      continue;
    }
    const std::vector<geo::WordReread> rereads = geo::reread_words(m, g, scores, likelihoods);
    maptext::Tile& tile = (*out)[tile_of.at(m.image)];
    std::string shown;
    for (const geo::WordReread& r : rereads) {
      maptext::Word& w = tile.groups.at(m.phrases[r.phrase].group).at(r.word);
      nlohmann::json extra = w.extra.empty() ? nlohmann::json::object() : nlohmann::json::parse(w.extra);
      extra["read_as"] = r.read;
      extra["read_by"] = geo::place_uri(g.place(r.place));
      w.extra = extra.dump();
      w.text = r.text;
      if (shown.size() < 200) shown += (shown.empty() ? "" : ", ") + r.read + " -> " + r.text;
    }
    changed += rereads.size();
    if (!a.quiet && !rereads.empty())
      std::fprintf(stderr, "reread: %s: %zu word(s) read again as the names of places near them (%s)\n", m.image.c_str(), rereads.size(), shown.c_str());
  }
  return changed > 0 ? out : nullptr;
}

}  // namespace

LinkPlaces link_places(const LinkArgs& a, const maptext::Dataset& linked) {
  const bool georeference = a.georef == "names";
  const std::string path = a.gazetteer.empty() ? default_gazetteer() : a.gazetteer;
  const geo::Gazetteer g = geo::Gazetteer::open(path);
  auto maps = std::make_shared<std::map<std::string, geo::MapNames>>();
  const auto confusions = read_confusions("");  // the bundled spotter's
  const auto size_of = [&](const std::string& image) { return image::image_size(data::find_tile_image(a.images, image)); };
  LinkPlaces out;
  std::vector<geo::MapNames> found = geo::match_maps(search::dataset_phrases(linked), g, georeference, size_of, {}, confusions.get());
  if (georeference && a.reread != "none") {
    if (auto reread = reread_words(a, g, found, linked)) {
      found = geo::match_maps(search::dataset_phrases(*reread), g, georeference, size_of, {}, confusions.get());
      out.reread = std::move(reread);
    }
  }
  for (geo::MapNames& m : found) {
    if (georeference && !a.quiet) {
      if (m.result.ok)
        std::fprintf(stderr, "georef: %s: from its names, %zu agree, %s\n", m.image.c_str(), m.result.gcps.size(), geo::transform_name(m.result.kind));
      else
        std::fprintf(stderr, "georef: %s: not placed by its names (%s): written in pixel coordinates\n", m.image.c_str(), m.result.reason.c_str());
    }
    const std::string image = m.image;
    maps->emplace(image, std::move(m));
  }
  out.places = [maps](const std::string& image) {
    std::vector<std::optional<output::PlaceLink>> v;
    const auto it = maps->find(image);
    if (it == maps->end()) return v;
    const geo::MapNames& m = it->second;
    for (size_t i = 0; i < m.phrases.size(); ++i) {
      const size_t group = m.phrases[i].group;
      if (v.size() <= group) v.resize(group + 1);
      const int k = m.chosen(i);
      if (k >= 0) v[group] = place_link(m, i, k);
    }
    return v;
  };
  if (georeference)
    out.georeference = [maps](const std::string& image) -> output::ToLonLat {
      const auto it = maps->find(image);
      if (it == maps->end() || !it->second.result.ok) return {};
      const geo::MapNames* m = &it->second;
      return [maps, m](const std::vector<maptext::Point>& pixels) {
        std::vector<maptext::Point> out;
        for (const auto& p : pixels) {
          double lon = 0, lat = 0;
          m->result.lonlat(p.x, p.y, lon, lat);
          out.push_back({lon, lat});
        }
        return out;
      };
    };
  return out;
}

}  // namespace light::cli

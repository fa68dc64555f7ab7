// `light link --gazetteer`, `--georef names`: the phrases of each linked map matched to places, and
// the map georeferenced from them (docs/georeference-from-names.md).
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

#include "light/cli/commands.h"
#include "light/cli/link_args.h"
#include "light/data/tile_image.h"
#include "light/geo/map_names.h"
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

}  // namespace

LinkPlaces link_places(const LinkArgs& a, const maptext::Dataset& linked) {
  const bool georeference = a.georef == "names";
  const std::string path = a.gazetteer.empty() ? default_gazetteer() : a.gazetteer;
  const geo::Gazetteer g = geo::Gazetteer::open(path);
  auto maps = std::make_shared<std::map<std::string, geo::MapNames>>();
  const auto confusions = read_confusions("");  // the bundled spotter's
  const auto size_of = [&](const std::string& image) { return image::image_size(data::find_tile_image(a.images, image)); };
  for (geo::MapNames& m : geo::match_maps(search::dataset_phrases(linked), g, georeference, size_of, {}, confusions.get())) {
    if (georeference && !a.quiet) {
      if (m.result.ok)
        std::fprintf(stderr, "georef: %s: from its names, %zu agree, %s\n", m.image.c_str(), m.result.gcps.size(), geo::transform_name(m.result.kind));
      else
        std::fprintf(stderr, "georef: %s: not placed by its names (%s): written in pixel coordinates\n", m.image.c_str(), m.result.reason.c_str());
    }
    const std::string image = m.image;
    maps->emplace(image, std::move(m));
  }
  LinkPlaces out;
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

// `light synth --places`: tiles of real places where they lie, so that matching a map's names to a
// gazetteer and georeferencing it from them can be measured against a known georeference.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "light/data/synth/builder.h"
#include "light/error.h"

namespace light::synth {

namespace {
constexpr double kEarthRadius = 6371008.8;  // metres: the mean radius PROJ's +R_A would not change here
constexpr double kDeg = kPi / 180.0;
}  // namespace

void MapGeoreference::pixel(double lon, double lat, double& x, double& y) const {
  double dlon = lon - lon0;
  if (dlon > 180) dlon -= 360;
  if (dlon < -180) dlon += 360;
  const double e = kEarthRadius * dlon * kDeg * std::cos(lat * kDeg), n = kEarthRadius * (lat - lat0) * kDeg;
  // Map east/north turned by `rotation` counter-clockwise, then to pixels (y down).
  const double u = std::cos(rotation) * e - std::sin(rotation) * n, v = std::sin(rotation) * e + std::cos(rotation) * n;
  x = cx + u / metres_per_px, y = cy - v / metres_per_px;
}

void MapGeoreference::lonlat(double x, double y, double& lon, double& lat) const {
  const double u = (x - cx) * metres_per_px, v = (cy - y) * metres_per_px;
  const double e = std::cos(rotation) * u + std::sin(rotation) * v, n = -std::sin(rotation) * u + std::cos(rotation) * v;
  lat = lat0 + n / kEarthRadius / kDeg;
  const double c = std::cos(lat * kDeg);
  lon = lon0 + (c > 1e-9 ? e / (kEarthRadius * c) / kDeg : 0.0);
}

void Builder::real_places() {
  const std::vector<LocatedPlace>& all = names.located();
  if (all.empty()) throw Error("--places: the gazetteer holds no coordinates (give GeoNames rows with --gazetteer)");
  MapGeoreference& g = drawn_places->georef;
  const LocatedPlace& centre = r.pick(all);
  const double km_across = std::exp(r.uni(std::log(25.0), std::log(500.0)));
  g.lon0 = centre.lon, g.lat0 = centre.lat;
  g.metres_per_px = km_across * 1000.0 / W;
  g.rotation = r.chance(0.7) ? 0.0 : r.uni(-8.0, 8.0) * kDeg;  // most sheets north up; some askew
  g.cx = r.uni(0.3, 0.7) * W, g.cy = r.uni(0.3, 0.7) * H;
  // The places on the tile, a margin inside its edge, largest first.
  const double dlat = 1.5 * std::hypot(W, H) * g.metres_per_px / kEarthRadius / kDeg;
  std::vector<std::pair<const LocatedPlace*, Point>> on;
  for (const LocatedPlace& p : all) {
    if (std::abs(p.lat - g.lat0) > dlat) continue;
    double x = 0, y = 0;
    g.pixel(p.lon, p.lat, x, y);
    if (x > 0.03 * W && x < 0.97 * W && y > 0.03 * H && y < 0.97 * H) on.push_back({&p, {x, y}});
  }
  std::stable_sort(on.begin(), on.end(), [](const auto& a, const auto& b) { return a.first->population > b.first->population; });
  const int most = std::max(4, phrase_budget() / 2);
  int drawn = 0;
  for (const auto& [place, at] : on) {
    if (drawn >= most) break;
    FontStyle f = font(NameKind::Settlement);
    // Larger towns in larger letters, the largest often in capitals.
    const double pop = static_cast<double>(std::max<long long>(place->population, 500));
    f.size_px *= std::clamp(0.8 + 0.15 * std::log10(pop / 1000.0), 0.75, 1.5);
    std::vector<std::string> words = split_words(place->name);
    if (words.empty()) continue;
    if (pop > 100000 && r.chance(0.5))
      for (auto& w : words) w = to_upper_ascii(w);
    const auto shapes = shape_all(words, f);
    std::vector<double> gaps(words.size(), f.size_px * r.uni(0.25, 0.4));
    const double len = total(shapes, gaps), s = f.size_px;
    const double dot = 0.18 * s;
    const BBox dot_box{at.x - dot - 1, at.y - dot - 1, at.x + dot + 1, at.y + dot + 1};
    if (!occ.free(dot_box)) continue;
    // Where a label stands beside its dot, in the cartographer's order of preference (right first).
    const Point starts[] = {{at.x + 0.6 * s, at.y + 0.35 * s}, {at.x + 0.4 * s, at.y - 0.3 * s}, {at.x + 0.4 * s, at.y + 1.0 * s},
                            {at.x - 0.6 * s - len, at.y + 0.35 * s}, {at.x - 0.5 * len, at.y - 0.45 * s}, {at.x - 0.5 * len, at.y + 1.15 * s}};
    const int first = r.chance(0.6) ? 0 : r.integer(0, 5);
    for (int k = 0; k < 6; ++k) {
      const Point start = starts[(first + k) % 6];
      const Path path = Path::line(start, 0.0, len + 10);
      auto placed = along(words, shapes, path, 0.0, gaps, word_margin(s, false));
      if (!commit(placed, false)) continue;
      occ.add(dot_box);
      cairo_set_source_rgb(cr, 0.1, 0.08, 0.06);
      cairo_new_path(cr);  // no stroke from wherever the last path ended
      cairo_arc(cr, at.x, at.y, dot, 0, 2 * kPi);
      if (pop > 20000 && r.chance(0.5)) cairo_set_line_width(cr, 1.5), cairo_stroke(cr);
      else cairo_fill(cr);
      drawn_places->places.push_back({tile.groups.size() - 1, *place, at.x, at.y});
      ++drawn;
      break;
    }
  }
}

std::string tile_places_json(const std::vector<std::string>& images, const std::vector<std::pair<int, int>>& sizes,
                             const std::vector<TilePlaces>& places) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (size_t k = 0; k < places.size(); ++k) {
    const MapGeoreference& g = places[k].georef;
    char proj[160];
    std::snprintf(proj, sizeof proj, "+proj=sinu +lon_0=%.7f +R=%.1f +units=m +no_defs", g.lon0, kEarthRadius);
    nlohmann::ordered_json t = {{"image", images[k]},
                                {"width", sizes[k].first},
                                {"height", sizes[k].second},
                                {"georeference",
                                 {{"projection", proj},
                                  {"lon_0", g.lon0},
                                  {"lat_0", g.lat0},
                                  {"metres_per_pixel", g.metres_per_px},
                                  {"rotation_degrees", g.rotation / kDeg},
                                  {"centre_pixel", {g.cx, g.cy}}}},
                                {"places", nlohmann::ordered_json::array()}};
    for (const DrawnPlace& p : places[k].places)
      t["places"].push_back({{"group", p.group},
                             {"id", p.place.id},
                             {"name", p.place.name},
                             {"lon", p.place.lon},
                             {"lat", p.place.lat},
                             {"population", p.place.population},
                             {"x", std::round(p.x * 100) / 100},
                             {"y", std::round(p.y * 100) / 100}});
    out.push_back(std::move(t));
  }
  return out.dump(1) + "\n";
}

}  // namespace light::synth

// `light link --georef`: each map image's pixels to longitude/latitude with GDAL (light-full only).
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

#include "light/cli/link_args.h"
#include "light/data/tile_image.h"
#include "light/error.h"
#include "light/geo/georef.h"
#include "light/image/resize.h"

namespace light::cli {

output::GeoreferenceFor georeference_for(const LinkArgs& a, const maptext::Dataset& linked) {
  geo::GeorefOptions opt;
  opt.transform = geo::parse_transform(a.georef_transform);
  opt.crs = a.georef_crs;
  auto refs = std::make_shared<std::map<std::string, std::shared_ptr<geo::Georeference>>>();
  size_t without = 0;
  std::string first_without;
  if (a.georef != "auto" && linked.size() != 1)
    throw Error("--georef " + a.georef + ": one .points file for " + std::to_string(linked.size()) +
                " images; use --georef auto (each image's own, or IMAGE.points beside it)");
  for (const maptext::Tile& t : linked) {
    const std::string image = data::find_tile_image(a.images, t.image);
    std::shared_ptr<geo::Georeference> g;
    const std::string points = a.georef != "auto" ? a.georef : image + ".points";
    if (a.georef == "auto") g = geo::Georeference::of_image(image, opt);
    if (!g && std::filesystem::is_regular_file(points)) {
      const auto [w, h] = image::image_size(image);
      g = geo::Georeference::of_points(points, w, h, opt);
    }
    if (!g) {
      if (without++ == 0) first_without = t.image;
      continue;
    }
    if (!a.quiet) std::fprintf(stderr, "georef: %s: %s\n", t.image.c_str(), g->description().c_str());
    (*refs)[t.image] = std::move(g);
  }
  if (without > 0)
    std::fprintf(stderr, "note: %zu image(s) without georeferencing (no geotransform, GCPs or .points file), first \"%s\": written in pixel coordinates\n",
                 without, first_without.c_str());
  return [refs](const std::string& image) -> output::ToLonLat {
    const auto it = refs->find(image);
    if (it == refs->end()) return {};
    const std::shared_ptr<geo::Georeference> g = it->second;
    return [g](const std::vector<maptext::Point>& px) { return g->to_lonlat(px); };
  };
}

}  // namespace light::cli

#include "light/geo/image_georeferences.h"

#include <filesystem>
#include <map>
#include <memory>

#include "light/data/tile_image.h"
#include "light/error.h"
#include "light/image/resize.h"

namespace light::geo {

ImageGeoreferences georeference_images(const maptext::Dataset& linked, const std::string& images_dir, const std::string& points,
                                       const GeorefOptions& options, const std::string& option) {
  if (points != "auto" && linked.size() != 1)
    throw Error(option + " " + points + ": one .points file for " + std::to_string(linked.size()) +
                " images; use " + option + " auto (each image's own, or IMAGE.points beside it)");
  ImageGeoreferences out;
  auto refs = std::make_shared<std::map<std::string, std::shared_ptr<Georeference>>>();
  for (const maptext::Tile& t : linked) {
    const std::string image = data::find_tile_image(images_dir, t.image);
    std::shared_ptr<Georeference> g;
    const std::string file = points != "auto" ? points : image + ".points";
    if (points == "auto") g = Georeference::of_image(image, options);
    if (!g && std::filesystem::is_regular_file(file)) {
      const auto [w, h] = image::image_size(image);
      g = Georeference::of_points(file, w, h, options);
    }
    if (!g) {
      if (out.without++ == 0) out.first_without = t.image;
      continue;
    }
    out.found.emplace_back(t.image, g->description());
    (*refs)[t.image] = std::move(g);
  }
  out.for_image = [refs](const std::string& image) -> output::ToLonLat {
    const auto it = refs->find(image);
    if (it == refs->end()) return {};
    const std::shared_ptr<Georeference> g = it->second;
    return [g](const std::vector<maptext::Point>& px) { return g->to_lonlat(px); };
  };
  return out;
}

}  // namespace light::geo

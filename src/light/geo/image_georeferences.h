// Each image of a linked dataset georeferenced for GeoJSON (`light link --georef`, light::to_geojson):
// the image's own georeferencing (GDAL: GeoTIFF tags, a world file, GCPs), else IMAGE.points beside it;
// or one QGIS .points file for a dataset of one image.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "light/export/phrases.h"
#include "light/geo/georef.h"
#include "light/maptext.h"

namespace light::geo {

struct ImageGeoreferences {
  output::GeoreferenceFor for_image;  // an image key to its pixels-to-lon/lat function (nullptr: none)
  std::vector<std::pair<std::string, std::string>> found;  // (image key, what georeferences it)
  size_t without = 0;                 // images left in pixel coordinates
  std::string first_without;
};

// `points` "auto": each image's own, else IMAGE.points; otherwise a .points file for the one image of
// `linked` (light::Error naming `option` for several). Images are found in `images_dir` as
// data::find_tile_image finds them.
ImageGeoreferences georeference_images(const maptext::Dataset& linked, const std::string& images_dir, const std::string& points,
                                       const GeorefOptions& options, const std::string& option = "--georef");

}  // namespace light::geo

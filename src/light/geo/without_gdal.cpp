// geo/ for a build without GDAL (cmake -DLIGHT_GDAL=OFF, e.g. a GPU machine whose image has a CUDA
// LibTorch but no GDAL): georeferencing refuses with a message saying so, and map images are read
// whole by OpenCV instead of by GDAL's blocks (raster_size and read_rgb_resized give nullopt, which
// their callers already take as "read it with image::read_rgb").
#include "light/error.h"
#include "light/geo/georef.h"
#include "light/geo/raster.h"

namespace light::geo {

namespace {
[[noreturn]] void no_gdal(const std::string& what) {
  throw Error(what + ": georeferencing needs GDAL, and this light was built without it (cmake -DLIGHT_GDAL=OFF)");
}
}  // namespace

PointsFile read_qgis_points(const std::string& path) { no_gdal(path); }
std::unique_ptr<Georeference> Georeference::of_image(const std::string& image_path, const GeorefOptions&) { no_gdal(image_path); }
std::unique_ptr<Georeference> Georeference::of_points(const std::string& points_path, int, int, const GeorefOptions&) {
  no_gdal(points_path);
}
Georeference::~Georeference() = default;
std::vector<maptext::Point> Georeference::to_lonlat(const std::vector<maptext::Point>&) const { no_gdal(source_); }

std::optional<std::pair<int, int>> raster_size(const std::string&) { return std::nullopt; }
std::optional<image::RgbImage> read_rgb_resized(const std::string&, int, int) { return std::nullopt; }

}  // namespace light::geo

// Georeferencing with GDAL and PROJ: a map image's pixels to longitude/latitude (WGS 84), computed
// as GDAL's gdaltransform computes them (GDALCreateGenImgProjTransformer2), from the image's own
// georeferencing (GeoTIFF tags, a world file with a .prj, a GDAL .aux.xml: whatever GDAL reads) or
// from the ground control points of a QGIS georeferencer .points file.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "light/maptext.h"

namespace light::geo {

enum class Transform { Auto, Affine, Poly1, Poly2, Poly3, Tps };
// "auto", "affine", "poly1", "poly2", "poly3" or "tps"; else a light::Error naming --georef-transform.
Transform parse_transform(const std::string& name);

struct GeorefOptions {
  // auto: the image's geotransform when it has one, else a polynomial over its ground control points
  // of the order GDAL picks for their count; affine needs a geotransform; poly1-3 and tps need GCPs.
  Transform transform = Transform::Auto;
  // The CRS of the map coordinates when the source names none (a world file without .prj, a .points
  // file without a "#CRS:" line): anything GDAL's SetFromUserInput takes ("EPSG:3857", WKT, PROJ).
  std::string crs;
};

// A QGIS georeferencer .points file: "mapX,mapY,sourceX,sourceY,enable,..." rows (QGIS writes
// sourceY as minus the pixel row, y up: read back as rows), disabled points left out, and the map
// CRS from its "#CRS: <WKT>" line ("" when absent).
struct GroundControlPoint {
  double pixel_x = 0, pixel_y = 0, map_x = 0, map_y = 0;
  int line = 0;  // in the .points file
};
struct PointsFile {
  std::string crs;
  std::vector<GroundControlPoint> points;
};
PointsFile read_qgis_points(const std::string& path);

class Georeference {
 public:
  // From the image's own georeferencing; nullptr when GDAL finds none (no geotransform, no GCPs).
  static std::unique_ptr<Georeference> of_image(const std::string& image_path, const GeorefOptions& options);
  // From a .points file, for an image of width x height pixels.
  static std::unique_ptr<Georeference> of_points(const std::string& points_path, int width, int height, const GeorefOptions& options);
  ~Georeference();
  Georeference(const Georeference&) = delete;
  Georeference& operator=(const Georeference&) = delete;

  // Pixel (x right, y down, (0, 0) the image's top-left corner) to (longitude, latitude) in degrees.
  // light::Error naming the georeferencing's source when a point has none, or one off the globe
  // (latitude beyond 90 degrees, longitude beyond 360: map units taken for degrees, a wrong CRS).
  std::vector<maptext::Point> to_lonlat(const std::vector<maptext::Point>& pixels) const;
  // What it is: "geotransform (WGS 84 / UTM zone 13N), affine" or "12 GCPs (...), polynomial 2".
  const std::string& description() const { return description_; }

 private:
  Georeference() = default;
  void* transformer_ = nullptr;  // a GDAL generic image-to-projection transformer
  std::string source_, description_;
};

}  // namespace light::geo

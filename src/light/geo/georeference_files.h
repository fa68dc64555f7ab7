// The files a map georeferenced from its names is written to (`light georef --from-names`): its
// ground control points as QGIS's georeferencer and GDAL read them (a .points file, a VRT with a
// GCP list), a IIIF Georeference Annotation that Allmaps loads, and a JSON report of every map.
#pragma once
#include <string>
#include <vector>

#include "light/geo/map_names.h"

namespace light::geo {

// QGIS georeferencer points (mapX = longitude, mapY = latitude, sourceY minus the pixel row), WGS 84.
std::string qgis_points(const MapNames& m);
// A GDAL VRT over the image at `image_path` with the points as its GCP list (EPSG:4326); `bands`
// the image's band count.
std::string gdal_vrt(const MapNames& m, const std::string& image_path, int bands);
// A IIIF Georeference Annotation: the georef extension's context first, motivation georeferencing,
// the image (an ImageService2 at IIIF_BASE/STEM when a base is given, else a Canvas whose id is the
// image's file URI) and the points as a FeatureCollection with resourceCoords and the transform.
std::string iiif_georeference_annotation(const MapNames& m, const std::string& iiif_base, const std::string& image_uri);
// Every map: georeferenced or why not, the transform, its errors, the control points, and each
// phrase's best candidate place once the map is placed.
std::string georeferences_json(const std::vector<MapNames>& maps);

// The band count of a PNG or JPEG from its header (3 when it cannot tell).
int image_bands(const std::string& path);

}  // namespace light::geo

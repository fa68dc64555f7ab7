// `light link --georef`: each map image's pixels to longitude/latitude with GDAL (light-full only).
#include <cstdio>

#include "light/cli/link_args.h"
#include "light/geo/image_georeferences.h"

namespace light::cli {

output::GeoreferenceFor georeference_for(const LinkArgs& a, const maptext::Dataset& linked) {
  geo::GeorefOptions opt;
  opt.transform = geo::parse_transform(a.georef_transform);
  opt.crs = a.georef_crs;
  const geo::ImageGeoreferences g = geo::georeference_images(linked, a.images, a.georef, opt);
  if (!a.quiet)
    for (const auto& [image, what] : g.found) std::fprintf(stderr, "georef: %s: %s\n", image.c_str(), what.c_str());
  if (g.without > 0)
    std::fprintf(stderr, "note: %zu image(s) without georeferencing (no geotransform, GCPs or .points file), first \"%s\": written in pixel coordinates\n",
                 g.without, g.first_without.c_str());
  return g.for_image;
}

}  // namespace light::cli

// The Dengie peninsula's towns and a map of them (tests of georeferencing from names and of reading
// with the gazetteer).
#pragma once
#include "light/geo/point_transforms.h"

namespace light::test {

// A map of the Dengie peninsula, 2000 x 2000 px, north up, 10 m a pixel, its corner at (0.62 E, 51.78
// N) by the azimuthal equidistant plane about (0.8, 51.7): the pixel of a longitude/latitude.
inline geo::PlanePoint essex_pixel(double lon, double lat) {
  const geo::PlanePoint p = geo::azimuthal_equidistant(0.8, 51.7, lon, lat), c = geo::azimuthal_equidistant(0.8, 51.7, 0.62, 51.78);
  return {(p.x - c.x) / 10.0, (c.y - p.y) / 10.0};
}

struct Town {
  const char* name;
  double lon, lat;
};
inline const Town kTowns[] = {{"Tollesbury", 0.8333, 51.7585}, {"Southminster", 0.8264, 51.6624}, {"Canewdon", 0.7375, 51.6167},
                              {"Maldon", 0.6770, 51.7316},     {"Burnham", 0.8146, 51.6285},      {"Tillingham", 0.8864, 51.6950},
                              {"Goldhanger", 0.7510, 51.7460}};

}  // namespace light::test

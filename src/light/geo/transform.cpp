// The --georef-transform names (with GDAL or without: geo/georef.cpp, geo/without_gdal.cpp).
#include "light/error.h"
#include "light/geo/georef.h"

namespace light::geo {

Transform parse_transform(const std::string& name) {
  if (name == "auto") return Transform::Auto;
  if (name == "affine") return Transform::Affine;
  if (name == "poly1") return Transform::Poly1;
  if (name == "poly2") return Transform::Poly2;
  if (name == "poly3") return Transform::Poly3;
  if (name == "tps") return Transform::Tps;
  throw Error("--georef-transform: expected auto, affine, poly1, poly2, poly3 or tps, got \"" + name + "\"");
}

}  // namespace light::geo

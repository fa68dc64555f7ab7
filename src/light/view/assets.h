// The files of a `light view` page that are the same for every page (src/light/view/assets and the
// vendored OpenSeadragon), embedded in the binary at build time (cmake/embed_assets.cmake).
#pragma once
#include <cstddef>
#include <vector>

namespace light::view {

struct Asset {
  const char* name;  // its path in the page folder ("openseadragon/openseadragon.min.js")
  const unsigned char* data;
  size_t size;
};

const std::vector<Asset>& assets();

}  // namespace light::view

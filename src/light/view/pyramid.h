// Deep Zoom tile pyramids: a map image cut into the tiles a deep-zoom viewer (OpenSeadragon) loads,
// a level at a time, so that a 15,000 px map opens at once and sharpens where one zooms in.
#pragma once
#include <functional>
#include <string>

namespace light::view {

struct PyramidOptions {
  int tile_size = 254;  // the Deep Zoom default: 256 px tiles with their 1 px overlap on each side
  int overlap = 1;
  int jpeg_quality = 85;
};

// What a viewer needs to read a pyramid: the image's size and the tiles' layout. Level L (0 ..
// max_level) is the image at 1 / 2^(max_level - L) of its size (rounded up), max_level =
// ceil(log2(max(width, height))); its tile (column c, row r) is `folder`/L/c_r.jpg and covers
// [c x tile_size - overlap, (c + 1) x tile_size + overlap) (clipped), as Deep Zoom (DZI) lays them.
struct Pyramid {
  int width = 0, height = 0;
  int max_level = 0;
  int tile_size = 254, overlap = 1;
  size_t tiles = 0;
};

// The number of tiles of a width x height image's pyramid.
size_t pyramid_tile_count(int width, int height, const PyramidOptions& options = {});

// Cuts `image_path` (any format OpenCV reads, else GDAL: JPEG 2000, raw rasters) into a pyramid in `folder` (created). `on_tile` is
// called after each tile (progress). light::Error naming the image when it cannot be read.
Pyramid write_pyramid(const std::string& image_path, const std::string& folder, const PyramidOptions& options = {},
                      const std::function<void()>& on_tile = {});

}  // namespace light::view

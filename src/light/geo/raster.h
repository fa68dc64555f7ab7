// Map images read by GDAL by blocks (tiled TIFF, JPEG 2000, PNG row by row): a whole map resized to
// its windows' scale without ever being decoded at full size.
#pragma once
#include <optional>
#include <string>
#include <utility>

#include "light/image/resize.h"

namespace light::geo {

// Width and height, from the file's header; nullopt when GDAL cannot open it.
std::optional<std::pair<int, int>> raster_size(const std::string& path);

// The image resized to width x height with exactly image::pil_resize_bilinear's bytes, read in strips
// of rows; nullopt when its bands are not 8-bit gray, gray + alpha, RGB, RGBA or paletted (then read
// it whole with image::read_rgb). light::Error when GDAL fails while reading.
std::optional<image::RgbImage> read_rgb_resized(const std::string& path, int width, int height);

}  // namespace light::geo

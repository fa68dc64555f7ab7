// A tile's image, found beside its annotations and read as the model sees it.
#pragma once
#include <string>
#include <vector>

#include "light/maptext.h"

namespace light::data {

// Finds a tile's image: DIR/<image key>, else DIR/<basename of the key>. Throws light::Error naming
// both paths when neither exists. A key that leaves DIR (absolute elsewhere, "../") is looked up by
// its basename inside DIR only, unless images_anywhere().
std::string find_tile_image(const std::string& images_dir, const std::string& image_key);
// LIGHT_IMAGES_ANYWHERE=1: image keys may name files outside the images folder.
bool images_anywhere();

// The image of one tile: its size in pixels (the word boxes' frame) and the model's pixel values,
// the image resized to image_size x image_size (PIL bilinear) and normalised, [3, S, S] row-major.
struct TileImage {
  int width = 0, height = 0;
  std::vector<float> pixels;
};
TileImage load_tile_image(const std::string& images_dir, const std::string& image_key, int image_size);

}  // namespace light::data

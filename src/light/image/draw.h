// Drawing MapText annotations over their map tiles, for people to look at: word polygons (green;
// truncated red; illegible blue) and arrows from each word to the next one of its phrase.
#pragma once
#include <string>

#include "light/maptext.h"

namespace light::image {

// Draws `tile` over its image and writes it to `out_path` (PNG; JPEG for .jpg / .jpeg), scaled by `scale`.
void draw_tile(const maptext::Tile& tile, const std::string& image_path, const std::string& out_path, double scale);

}  // namespace light::image

#include "light/data/tile_image.h"

#include <filesystem>

#include "light/image/resize.h"
#include "light/error.h"

namespace light::data {

std::string find_tile_image(const std::string& dir, const std::string& key) {
  namespace fs = std::filesystem;
  const fs::path full = fs::path(dir) / key, base = fs::path(dir) / fs::path(key).filename();
  if (fs::exists(full)) return full.string();
  if (fs::exists(base)) return base.string();
  if (!fs::path(key).has_extension())  // a key that is an image's stem (per-image spotter files, GeoJSON)
    for (const char* ext : {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".jp2", ".PNG", ".JPG", ".JPEG", ".TIF", ".TIFF"})
      for (const fs::path& p : {fs::path(full.string() + ext), fs::path(base.string() + ext)})
        if (fs::exists(p)) return p.string();
  throw Error("image \"" + key + "\": not found as " + full.string() + " or " + base.string());
}

TileImage load_tile_image(const std::string& images_dir, const std::string& image_key, int image_size) {
  if (image_size < 1) throw Error("image size: expected at least 1 pixel, got " + std::to_string(image_size));
  const image::RgbImage img = image::read_rgb(find_tile_image(images_dir, image_key));
  return {img.width, img.height, image::pixel_values(image::pil_resize_bilinear(img, image_size, image_size))};
}

}  // namespace light::data

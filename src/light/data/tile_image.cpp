#include "light/data/tile_image.h"

#include <cstdlib>
#include <filesystem>

#include "light/image/resize.h"
#include "light/error.h"
#include "light/util/fs.h"

namespace light::data {

bool images_anywhere() {
  const char* v = std::getenv("LIGHT_IMAGES_ANYWHERE");
  return v != nullptr && std::string(v) == "1";
}

std::string find_tile_image(const std::string& dir, const std::string& key) {
  namespace fs = std::filesystem;
  const fs::path full = fs::path(dir) / key, base = fs::path(dir) / fs::path(key).filename();
  // A key that leaves the folder (an absolute path elsewhere, "../") is looked up by its file name
  // inside it, never outside, unless LIGHT_IMAGES_ANYWHERE=1 asks for it.
  const bool leaves = !lies_inside(dir, full.string()) && !images_anywhere();
  if (!leaves && fs::exists(full)) return full.string();
  if (fs::exists(base)) return base.string();
  if (!fs::path(key).has_extension())  // a key that is an image's stem (per-image spotter files, GeoJSON)
    for (const char* ext : {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".jp2", ".PNG", ".JPG", ".JPEG", ".TIF", ".TIFF"})
      for (const fs::path& p : {fs::path(full.string() + ext), fs::path(base.string() + ext)})
        if ((!leaves || p == fs::path(base.string() + ext)) && fs::exists(p)) return p.string();
  if (leaves)
    throw Error("image \"" + key + "\": leaves the images folder " + dir + " (an absolute path or \"..\"), and " + base.string() +
                " is not there; images are read only inside the folder given (LIGHT_IMAGES_ANYWHERE=1 allows any path)");
  throw Error("image \"" + key + "\": not found as " + full.string() + " or " + base.string());
}

TileImage load_tile_image(const std::string& images_dir, const std::string& image_key, int image_size) {
  if (image_size < 1) throw Error("image size: expected at least 1 pixel, got " + std::to_string(image_size));
  const image::RgbImage img = image::read_rgb(find_tile_image(images_dir, image_key));
  return {img.width, img.height, image::pixel_values(image::pil_resize_bilinear(img, image_size, image_size))};
}

}  // namespace light::data

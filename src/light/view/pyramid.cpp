#include "light/view/pyramid.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <vector>

#include "light/error.h"
#include "light/geo/raster.h"

namespace light::view {

namespace {

int max_level_of(int width, int height) {
  const int longer = std::max(width, height);
  int level = 0;
  while ((1LL << level) < longer) ++level;
  return level;
}

// The side of level `level` of a side of `full` px: ceil(full / 2^(max - level)).
int level_side(int full, int max_level, int level) {
  const long long d = 1LL << (max_level - level);
  return static_cast<int>((full + d - 1) / d);
}

void check(const PyramidOptions& o) {
  if (o.tile_size < 16 || o.tile_size > 4096) throw Error("--tile-size: expected 16 to 4096 px");
  if (o.overlap < 0 || o.overlap > 16) throw Error("pyramid overlap: expected 0 to 16 px");
  if (o.jpeg_quality < 1 || o.jpeg_quality > 100) throw Error("--jpeg-quality: expected 1 to 100");
}

}  // namespace

size_t pyramid_tile_count(int width, int height, const PyramidOptions& o) {
  check(o);
  const int max = max_level_of(width, height);
  size_t n = 0;
  for (int level = 0; level <= max; ++level) {
    const long long w = level_side(width, max, level), h = level_side(height, max, level);
    n += static_cast<size_t>(((w + o.tile_size - 1) / o.tile_size) * ((h + o.tile_size - 1) / o.tile_size));
  }
  return n;
}

Pyramid write_pyramid(const std::string& image_path, const std::string& folder, const PyramidOptions& o,
                      const std::function<void()>& on_tile) {
  check(o);
  cv::Mat img;
  try {
    img = cv::imread(image_path, cv::IMREAD_COLOR);
  } catch (const cv::Exception& e) {  // e.g. a header claiming more pixels than OpenCV decodes (2^30)
    throw Error(image_path + ": cannot read the image: " +
                (e.err.find("CV_IO_MAX_IMAGE_PIXELS") != std::string::npos ? std::string("its header claims more than 2^30 pixels (OpenCV's limit)") : e.err));
  } catch (const std::bad_alloc&) {
    throw Error(image_path + ": not enough memory to decode the image");
  }
  if (img.empty())  // formats OpenCV does not read but GDAL does (JPEG 2000 without OpenJPEG, tiled GeoTIFF variants)
    if (const auto size = geo::raster_size(image_path))
      if (const auto rgb = geo::read_rgb_resized(image_path, size->first, size->second)) {
        const cv::Mat view(rgb->height, rgb->width, CV_8UC3, const_cast<uint8_t*>(rgb->rgb.data()));
        cv::cvtColor(view, img, cv::COLOR_RGB2BGR);
      }
  if (img.empty()) throw Error(image_path + ": cannot read the image (missing, or not an image format OpenCV or GDAL reads)");
  Pyramid p;
  p.width = img.cols, p.height = img.rows;
  p.max_level = max_level_of(p.width, p.height);
  p.tile_size = o.tile_size, p.overlap = o.overlap;
  const std::vector<int> params{cv::IMWRITE_JPEG_QUALITY, o.jpeg_quality};
  // From the full size down, each level the one above halved (area averaging).
  for (int level = p.max_level; level >= 0; --level) {
    const int w = level_side(p.width, p.max_level, level), h = level_side(p.height, p.max_level, level);
    if (img.cols != w || img.rows != h) {
      cv::Mat half;
      cv::resize(img, half, cv::Size(w, h), 0, 0, cv::INTER_AREA);
      img = half;
    }
    const std::string dir = folder + "/" + std::to_string(level);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error(dir + ": cannot create: " + ec.message());
    for (int row = 0; row * o.tile_size < h; ++row)
      for (int col = 0; col * o.tile_size < w; ++col) {
        const int x0 = std::max(0, col * o.tile_size - o.overlap), y0 = std::max(0, row * o.tile_size - o.overlap);
        const int x1 = std::min(w, (col + 1) * o.tile_size + o.overlap), y1 = std::min(h, (row + 1) * o.tile_size + o.overlap);
        std::vector<unsigned char> jpeg;
        if (!cv::imencode(".jpg", img(cv::Rect(x0, y0, x1 - x0, y1 - y0)), jpeg, params))
          throw Error(image_path + ": cannot encode a JPEG tile");
        // Plain writes: the whole page folder is made aside and renamed into place at the end.
        const std::string path = dir + "/" + std::to_string(col) + "_" + std::to_string(row) + ".jpg";
        std::ofstream f(path, std::ios::binary);
        f.write(reinterpret_cast<const char*>(jpeg.data()), static_cast<std::streamsize>(jpeg.size()));
        if (!f) throw Error(path + ": cannot write");
        ++p.tiles;
        if (on_tile) on_tile();
      }
  }
  return p;
}

}  // namespace light::view

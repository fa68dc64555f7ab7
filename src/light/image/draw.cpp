#include "light/image/draw.h"

#include <cmath>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "light/image/resize.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "light/geometry/polygon.h"

namespace light::image {

void draw_tile(const maptext::Tile& tile, const std::string& image_path, const std::string& out_path, double scale) {
  check_image_format_of(image_path);
  cv::Mat img;
  try {
    img = cv::imread(image_path, cv::IMREAD_COLOR);
  } catch (const cv::Exception& e) {
    throw Error(image_path + ": cannot read the image: " + e.err);
  }
  if (img.empty()) throw Error(image_path + ": cannot read the image");
  if (scale != 1.0) cv::resize(img, img, cv::Size(), scale, scale, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
  const int thick = std::max(1, static_cast<int>(std::lround(2 * std::sqrt(scale))));
  auto pt = [&](const geometry::Point& p) { return cv::Point(static_cast<int>(std::lround(p.x * scale)), static_cast<int>(std::lround(p.y * scale))); };
  for (const auto& group : tile.groups) {
    std::vector<cv::Point> centres;
    for (const auto& w : group) {
      std::vector<cv::Point> poly;
      double cx = 0, cy = 0;
      for (const auto& p : w.vertices) poly.push_back(pt(p)), cx += p.x, cy += p.y;
      const cv::Scalar colour = w.truncated.value_or(false) ? cv::Scalar(0, 0, 230)
                                : w.illegible.value_or(false) ? cv::Scalar(230, 90, 0)
                                                              : cv::Scalar(0, 170, 0);
      cv::polylines(img, poly, true, colour, thick, cv::LINE_AA);
      centres.push_back(pt({cx / w.vertices.size(), cy / w.vertices.size()}));
    }
    for (size_t k = 0; k + 1 < centres.size(); ++k)
      cv::arrowedLine(img, centres[k], centres[k + 1], cv::Scalar(200, 0, 200), thick, cv::LINE_AA, 0, 0.08);
  }
  // PNG, or JPEG (quality 85) for a path ending in .jpg / .jpeg.
  const std::string ext = std::filesystem::path(out_path).extension().string();
  const bool jpeg = ext == ".jpg" || ext == ".jpeg";
  std::vector<unsigned char> bytes;
  if (!cv::imencode(jpeg ? ".jpg" : ".png", img, bytes, jpeg ? std::vector<int>{cv::IMWRITE_JPEG_QUALITY, 85} : std::vector<int>{}))
    throw Error(out_path + (jpeg ? ": JPEG encoding failed" : ": PNG encoding failed"));
  write_file_atomic(out_path, std::string(bytes.begin(), bytes.end()));
}

}  // namespace light::image

// Stand-in for OpenCV's imgcodecs on the GPU machine (Debian's pulls in GDAL and more): PNG through
// libpng's simplified API; other formats are kept raw in memory (imencode/imdecode round trip only).
#include <png.h>
#include <cstring>
#include <opencv2/imgcodecs.hpp>
namespace cv {
static Mat from_png(png_image& im, bool ok) {
  if (!ok) return Mat();
  im.format = PNG_FORMAT_BGR;
  Mat m(static_cast<int>(im.height), static_cast<int>(im.width), CV_8UC3);
  if (!png_image_finish_read(&im, nullptr, m.data, static_cast<png_int_32>(m.step[0]), nullptr)) return Mat();
  return m;
}
Mat imread(const String& path, int) {
  png_image im;
  std::memset(&im, 0, sizeof im);
  im.version = PNG_IMAGE_VERSION;
  return from_png(im, png_image_begin_read_from_file(&im, path.c_str()) != 0);
}
Mat imdecode(InputArray buf, int) {
  Mat b = buf.getMat();
  const unsigned char* p = b.ptr<unsigned char>();
  if (b.total() >= 12 && std::memcmp(p, "RAWBGR", 6) == 0) {
    int w, h;
    std::memcpy(&w, p + 4 + 2, 4);
    std::memcpy(&h, p + 10, 4);
    Mat m(h, w, CV_8UC3);
    std::memcpy(m.data, p + 14, static_cast<size_t>(w) * h * 3);
    return m;
  }
  png_image im;
  std::memset(&im, 0, sizeof im);
  im.version = PNG_IMAGE_VERSION;
  return from_png(im, png_image_begin_read_from_memory(&im, p, b.total()) != 0);
}
Mat imdecode(InputArray buf, int flags, Mat* dst) {
  Mat m = imdecode(buf, flags);
  if (dst) *dst = m;
  return m;
}
bool imencode(const String& ext, InputArray img, std::vector<uchar>& out, const std::vector<int>&) {
  Mat m = img.getMat();
  if (!m.isContinuous()) m = m.clone();
  if (ext != ".png") {  // raw round trip
    out.assign(14 + m.total() * 3, 0);
    std::memcpy(out.data(), "RAWBGR", 6);
    const int w = m.cols, h = m.rows;
    std::memcpy(out.data() + 6, &w, 4);
    std::memcpy(out.data() + 10, &h, 4);
    std::memcpy(out.data() + 14, m.data, m.total() * 3);
    return true;
  }
  png_image im;
  std::memset(&im, 0, sizeof im);
  im.version = PNG_IMAGE_VERSION;
  im.width = static_cast<png_uint_32>(m.cols);
  im.height = static_cast<png_uint_32>(m.rows);
  im.format = m.channels() == 3 ? PNG_FORMAT_BGR : m.channels() == 4 ? PNG_FORMAT_BGRA : PNG_FORMAT_GRAY;
  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&im, nullptr, &size, 0, m.data, static_cast<png_int_32>(m.step[0]), nullptr)) return false;
  out.resize(size);
  return png_image_write_to_memory(&im, out.data(), &size, 0, m.data, static_cast<png_int_32>(m.step[0]), nullptr) != 0;
}
bool imwrite(const String& path, InputArray img, const std::vector<int>& params) {
  std::vector<uchar> buf;
  if (!imencode(".png", img, buf, params)) return false;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
  return std::fclose(f) == 0 && ok;
}
}  // namespace cv

// Stand-in for OpenCV's imgcodecs on the GPU machine (Debian's pulls in GDAL and more): PNG through
// libpng's simplified API, JPEG through libjpeg; other formats are kept raw in memory (imencode/imdecode round trip only).
#include <png.h>
#include <cstdio>
#include <cstring>
#include <jpeglib.h>
#include <opencv2/imgcodecs.hpp>
namespace cv {
static Mat from_png(png_image& im, bool ok) {
  if (!ok) return Mat();
  im.format = PNG_FORMAT_BGR;
  Mat m(static_cast<int>(im.height), static_cast<int>(im.width), CV_8UC3);
  if (!png_image_finish_read(&im, nullptr, m.data, static_cast<png_int_32>(m.step[0]), nullptr)) return Mat();
  return m;
}
// JPEG through libjpeg(-turbo), BGR in and out (synth's scan artefacts need a real lossy round trip).
static bool is_jpeg(const unsigned char* p, size_t n) { return n >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF; }
static Mat from_jpeg(const unsigned char* p, size_t n) {
  jpeg_decompress_struct c;
  jpeg_error_mgr e;
  c.err = jpeg_std_error(&e);
  jpeg_create_decompress(&c);
  jpeg_mem_src(&c, p, static_cast<unsigned long>(n));
  jpeg_read_header(&c, TRUE);
  c.out_color_space = JCS_EXT_BGR;
  jpeg_start_decompress(&c);
  Mat m(static_cast<int>(c.output_height), static_cast<int>(c.output_width), CV_8UC3);
  while (c.output_scanline < c.output_height) {
    JSAMPROW row = m.ptr<unsigned char>(static_cast<int>(c.output_scanline));
    jpeg_read_scanlines(&c, &row, 1);
  }
  jpeg_finish_decompress(&c);
  jpeg_destroy_decompress(&c);
  return m;
}
static bool to_jpeg(const Mat& m, int quality, std::vector<uchar>& out) {
  if (m.channels() != 3) return false;
  jpeg_compress_struct c;
  jpeg_error_mgr e;
  c.err = jpeg_std_error(&e);
  jpeg_create_compress(&c);
  unsigned char* mem = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&c, &mem, &size);
  c.image_width = static_cast<JDIMENSION>(m.cols);
  c.image_height = static_cast<JDIMENSION>(m.rows);
  c.input_components = 3;
  c.in_color_space = JCS_EXT_BGR;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, quality, TRUE);
  jpeg_start_compress(&c, TRUE);
  while (c.next_scanline < c.image_height) {
    JSAMPROW row = const_cast<unsigned char*>(m.ptr<unsigned char>(static_cast<int>(c.next_scanline)));
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  out.assign(mem, mem + size);
  std::free(mem);
  jpeg_destroy_compress(&c);
  return true;
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
  if (is_jpeg(p, b.total())) return from_jpeg(p, b.total());
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
bool imencode(const String& ext, InputArray img, std::vector<uchar>& out, const std::vector<int>& params) {
  Mat m = img.getMat();
  if (!m.isContinuous()) m = m.clone();
  if (ext == ".jpg" || ext == ".jpeg") {
    int quality = 95;
    for (size_t k = 0; k + 1 < params.size(); k += 2)
      if (params[k] == IMWRITE_JPEG_QUALITY) quality = params[k + 1];
    return to_jpeg(m, quality, out);
  }
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
  im.flags = PNG_IMAGE_FLAG_FAST;  // speed over size: these tiles live on the machine for one run
  // One pass into a buffer of the largest size a PNG of the image can take (no sizing pass).
  png_alloc_size_t size = PNG_IMAGE_PNG_SIZE_MAX(im);
  out.resize(size);
  if (!png_image_write_to_memory(&im, out.data(), &size, 0, m.data, static_cast<png_int_32>(m.step[0]), nullptr)) return false;
  out.resize(size);
  return true;
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

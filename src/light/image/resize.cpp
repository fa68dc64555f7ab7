#include "light/image/resize.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <string_view>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "light/error.h"
#include "light/util/fs.h"

namespace light::image {

void check_image_format(const std::string& head, const std::string& path) {
  const auto starts = [&](const char* magic, size_t n, size_t at = 0) { return head.size() >= at + n && head.compare(at, n, magic, n) == 0; };
  if (starts("\x89PNG\r\n\x1a\n", 8) || starts("\xff\xd8\xff", 3) || starts("II*\0", 4) || starts("MM\0*", 4) ||
      starts("BM", 2) || (starts("RIFF", 4) && starts("WEBP", 4, 8)) || starts("\0\0\0\x0cjP  ", 8) || starts("\xff\x4f\xff\x51", 4))
  {
    // OpenCV asks its DICOM decoder (a DICOM file's "DICM" stands at byte 128) before its JPEG 2000
    // ones, whatever the file's first bytes say: a JPEG 2000 signature followed by "DICM" there
    // reaches the decoder that aborts the process.
    if (starts("DICM", 4, 128))
      throw Error(path + ": cannot read the image: bytes 128-131 read \"DICM\" (a DICOM file's mark), which OpenCV would decode as DICOM");
    return;
  }
  throw Error(path + ": cannot read the image: not a PNG, JPEG, TIFF, BMP, WebP or JPEG 2000 file");
}

namespace {
// Whether a PNG or JPEG of `size` bytes, read through `at(offset, n)` (fewer bytes past the end), is
// whole: OpenCV decodes a cut one without a word (a PNG cut after its header as all black, a JPEG cut
// in half with its lower half grey). A PNG's chunks must reach IEND; a JPEG must end its scans with EOI
// (0xFFD9: after the first scan begins nothing else holds those two bytes, as 0xFF is stuffed there).
// Other formats: true.
bool is_whole(uint64_t size, const std::function<std::string(uint64_t, size_t)>& at) {
  const std::string head = at(0, 8);
  const auto be32 = [](const std::string& b, size_t i) {
    return (uint32_t(uint8_t(b[i])) << 24) | (uint32_t(uint8_t(b[i + 1])) << 16) | (uint32_t(uint8_t(b[i + 2])) << 8) | uint8_t(b[i + 3]);
  };
  if (head.size() == 8 && head.compare(0, 8, "\x89PNG\r\n\x1a\n", 8) == 0) {
    for (uint64_t p = 8; p + 12 <= size;) {
      const std::string c = at(p, 8);
      if (c.size() < 8) return false;
      const uint64_t next = p + 12 + be32(c, 0);
      if (next > size) return false;
      if (c.compare(4, 4, "IEND") == 0) return true;
      p = next;
    }
    return false;
  }
  if (head.size() >= 2 && uint8_t(head[0]) == 0xFF && uint8_t(head[1]) == 0xD8) {
    uint64_t p = 2, scan = 0;
    while (p + 4 <= size) {  // the segments before the first scan, by their lengths
      const std::string m = at(p, 4);
      if (m.size() < 4 || uint8_t(m[0]) != 0xFF) return true;  // not a layout to judge: OpenCV's to read
      const int marker = uint8_t(m[1]);
      if (marker == 0xFF) { ++p; continue; }  // fill bytes
      if (marker == 0xD9) return true;
      const uint64_t len = (uint32_t(uint8_t(m[2])) << 8) | uint8_t(m[3]);
      if (marker == 0xDA) { scan = p; break; }
      p += 2 + len;
    }
    if (scan == 0) return false;
    for (uint64_t end = size; end > scan;) {  // the last EOI, searched back from the end (there at once in a whole file)
      const uint64_t from = end > scan + 65536 ? end - 65536 : scan;
      const std::string b = at(from, static_cast<size_t>(end - from + 1));  // a byte past `end`: a pair across the cut
      for (size_t i = b.size(); i-- > 1;)
        if (uint8_t(b[i - 1]) == 0xFF && uint8_t(b[i]) == 0xD9) return true;
      end = from;
    }
    return false;
  }
  return true;
}

void check_whole(uint64_t size, const std::function<std::string(uint64_t, size_t)>& at, const std::string& path) {
  if (!is_whole(size, at))
    throw Error(path + ": cannot read the image: the file is cut short (a PNG without its end chunk, or a JPEG without its end "
                "marker): a partial download or copy?");
}
}  // namespace

void check_image_format_of(const std::string& path) {
  note_input(path, "an image this command reads");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot read the image (missing or unreadable)");
  std::string head(kFormatHead, '\0');
  in.read(head.data(), kFormatHead);
  head.resize(static_cast<size_t>(in.gcount()));
  check_image_format(head, path);
  in.clear();
  in.seekg(0, std::ios::end);
  const uint64_t size = static_cast<uint64_t>(in.tellg());
  check_whole(size, [&](uint64_t offset, size_t n) {
    std::string b(n, '\0');
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset));
    in.read(b.data(), static_cast<std::streamsize>(n));
    b.resize(static_cast<size_t>(in.gcount()));
    return b;
  }, path);
}

namespace {
// OpenCV's own ceiling (CV_IO_MAX_IMAGE_PIXELS); a header claiming more is refused before decoding.
constexpr int64_t kMaxPixels = int64_t{1} << 30;

std::pair<int, int> checked_size(int64_t w, int64_t h, const std::string& path) {
  if (w < 1 || h < 1 || w * h > kMaxPixels)
    throw Error(path + ": cannot read the image: its header claims " + std::to_string(w) + " x " + std::to_string(h) +
                " pixels (light reads 1 to 2^30 pixels)");
  return {static_cast<int>(w), static_cast<int>(h)};
}

// cv::imread / cv::imdecode of the formats map tiles come in, with OpenCV's exceptions (sizes,
// corrupt data) as light::Error.
cv::Mat decode(const std::string& path, const std::string* bytes, int flags) {
  if (bytes) {
    check_image_format(bytes->substr(0, kFormatHead), path);
    check_whole(bytes->size(), [&](uint64_t offset, size_t n) { return offset < bytes->size() ? bytes->substr(offset, n) : std::string(); }, path);
  } else {
    check_image_format_of(path);
  }
  cv::Mat m;
  try {
    if (bytes) m = cv::imdecode(cv::Mat(1, static_cast<int>(bytes->size()), CV_8U, const_cast<char*>(bytes->data())), flags);
    else m = cv::imread(path, flags);
  } catch (const cv::Exception& e) {
    throw Error(path + ": cannot read the image: " + e.err);
  }
  if (m.empty()) throw Error(path + ": cannot read the image (missing, or not PNG/JPEG/TIFF/...)");
  return m;
}

RgbImage to_rgb(cv::Mat m) {
  if (m.depth() != CV_8U) m.convertTo(m, CV_8U, 1.0 / 256.0);
  cv::cvtColor(m, m, cv::COLOR_BGR2RGB);
  RgbImage img;
  img.width = m.cols;
  img.height = m.rows;
  img.rgb.resize(static_cast<size_t>(m.cols) * m.rows * 3);
  for (int y = 0; y < m.rows; ++y) std::memcpy(&img.rgb[static_cast<size_t>(y) * m.cols * 3], m.ptr(y), static_cast<size_t>(m.cols) * 3);
  return img;
}
}  // namespace

namespace {
// The EXIF orientation (1-8) in a JPEG's APP1 segment `seg` (after its length), 1 when none.
int exif_orientation(const std::string& seg) {
  if (seg.size() < 14 || seg.compare(0, 6, std::string("Exif\0\0", 6)) != 0) return 1;
  const std::string_view t = std::string_view(seg).substr(6);
  const bool le = t.compare(0, 2, "II") == 0;
  if (!le && t.compare(0, 2, "MM") != 0) return 1;
  const auto u16 = [&](size_t at) -> uint32_t {
    if (at + 2 > t.size()) return 0;
    const auto a = static_cast<unsigned char>(t[at]), b = static_cast<unsigned char>(t[at + 1]);
    return le ? (a | (b << 8)) : ((a << 8) | b);
  };
  const auto u32 = [&](size_t at) -> uint32_t { return le ? (u16(at) | (u16(at + 2) << 16)) : ((u16(at) << 16) | u16(at + 2)); };
  const size_t ifd = u32(4);
  if (ifd + 2 > t.size()) return 1;
  const uint32_t entries = u16(ifd);
  for (uint32_t k = 0; k < entries && ifd + 2 + 12 * (k + 1) <= t.size(); ++k) {
    const size_t e = ifd + 2 + 12 * k;
    if (u16(e) == 0x0112) {
      const uint32_t v = u16(e + 8);
      return v >= 1 && v <= 8 ? static_cast<int>(v) : 1;
    }
  }
  return 1;
}
}  // namespace

namespace {
std::pair<int, int> header_size(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot read the image (missing or unreadable)");
  unsigned char h[26] = {};
  in.read(reinterpret_cast<char*>(h), sizeof h);
  const auto be16 = [](const unsigned char* p) { return (p[0] << 8) | p[1]; };
  const auto be32 = [](const unsigned char* p) { return static_cast<int>((uint32_t(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3]); };
  static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (in.gcount() >= 24 && std::memcmp(h, png, 8) == 0 && std::memcmp(h + 12, "IHDR", 4) == 0)
    return checked_size(static_cast<uint32_t>(be32(h + 16)), static_cast<uint32_t>(be32(h + 20)), path);
  if (in.gcount() >= 4 && h[0] == 0xFF && h[1] == 0xD8) {  // JPEG: walk the markers to a start-of-frame
    in.clear();
    in.seekg(2);
    unsigned char m[9];
    int orientation = 1;  // OpenCV turns the image as its EXIF orientation says: the size is the turned one's
    while (in.read(reinterpret_cast<char*>(m), 4)) {
      if (m[0] != 0xFF) break;
      const int marker = m[1], len = be16(m + 2);
      const bool sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
      if (sof) {
        if (!in.read(reinterpret_cast<char*>(m), 5)) break;
        if (orientation >= 5) return checked_size(be16(m + 1), be16(m + 3), path);  // turned a quarter
        return checked_size(be16(m + 3), be16(m + 1), path);
      }
      if (len < 2) break;
      if (marker == 0xE1 && orientation == 1) {
        std::string seg(static_cast<size_t>(len - 2), '\0');
        if (!in.read(seg.data(), len - 2)) break;
        orientation = exif_orientation(seg);
        continue;
      }
      in.seekg(len - 2, std::ios::cur);
    }
  }
  const cv::Mat img = decode(path, nullptr, cv::IMREAD_UNCHANGED);
  return {img.cols, img.rows};
}
}  // namespace

std::pair<int, int> image_size(const std::string& path) {
  const auto size = header_size(path);  // a size past the limit is said first
  check_image_format_of(path);          // and a cut file is refused where its size is first asked
  return size;
}

RgbImage read_rgb(const std::string& path) {
  // PNG and JPEG (sizes in their headers): decoded straight into the RGB buffer, so that a whole map
  // (15,000 x 12,000 px: 540 MB) is held once, not twice (OpenCV's BGR image, then the copy).
  check_image_format_of(path);
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[8] = {};
  in.read(reinterpret_cast<char*>(magic), sizeof magic);
  const bool png = in.gcount() == 8 && std::memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0;
  const bool jpeg = in.gcount() >= 2 && magic[0] == 0xFF && magic[1] == 0xD8;
  in.seekg(0, std::ios::end);
  if ((!png && !jpeg) || static_cast<uint64_t>(in.tellg()) >= (1ull << 31)) return to_rgb(decode(path, nullptr, cv::IMREAD_COLOR));
  const auto [w, h] = header_size(path);
  if (static_cast<uint64_t>(w) * static_cast<uint64_t>(h) > kMaxImagePixels)
    throw Error(path + ": " + std::to_string(w) + " x " + std::to_string(h) + " pixels, more than light decodes at once (2^30, as OpenCV); "
                "cut the map into tiles (light link --merge-tiles puts their words back together)");
  std::string bytes(static_cast<size_t>(in.tellg()), '\0');
  in.seekg(0);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  RgbImage img;
  img.width = w, img.height = h;
  try {
    img.rgb.resize(static_cast<size_t>(w) * h * 3);
  } catch (const std::bad_alloc&) {
    throw Error(path + ": not enough memory to decode its " + std::to_string(w) + " x " + std::to_string(h) + " pixels");
  }
  cv::Mat into(h, w, CV_8UC3, img.rgb.data());
  try {
    cv::imdecode(cv::Mat(1, static_cast<int>(bytes.size()), CV_8U, bytes.data()), cv::IMREAD_COLOR, &into);
  } catch (const cv::Exception& e) {
    throw Error(path + ": cannot read the image: " + e.err);
  }
  if (into.empty()) throw Error(path + ": cannot read the image (corrupt PNG or JPEG)");
  if (into.data != img.rgb.data() || into.cols != w || into.rows != h) return to_rgb(into);  // decoded elsewhere (a header that lied)
  cv::cvtColor(into, into, cv::COLOR_BGR2RGB);
  return img;
}

RgbImage decode_rgb(const std::string& bytes, const std::string& name) { return to_rgb(decode(name, &bytes, cv::IMREAD_COLOR)); }

namespace {

constexpr int kPrecisionBits = 32 - 8 - 2;

double bilinear_filter(double x) {
  if (x < 0.0) x = -x;
  if (x < 1.0) return 1.0 - x;
  return 0.0;
}

// Pillow's precompute_coeffs (support 1.0 for BILINEAR) and normalize_coeffs_8bpc.
int coefficients(int in_size, double in0, double in1, int out_size, std::vector<int>& bounds, std::vector<int32_t>& kk) {
  const double scale = (in1 - in0) / out_size;
  const double filterscale = scale < 1.0 ? 1.0 : scale;
  const double support = 1.0 * filterscale;
  const int ksize = static_cast<int>(std::ceil(support)) * 2 + 1;
  std::vector<double> pre(static_cast<size_t>(out_size) * ksize, 0.0);
  bounds.assign(static_cast<size_t>(out_size) * 2, 0);
  for (int xx = 0; xx < out_size; ++xx) {
    const double center = in0 + (xx + 0.5) * scale;
    double ww = 0.0;
    const double ss = 1.0 / filterscale;
    int xmin = static_cast<int>(center - support + 0.5);
    if (xmin < 0) xmin = 0;
    int xmax = static_cast<int>(center + support + 0.5);
    if (xmax > in_size) xmax = in_size;
    xmax -= xmin;
    double* k = &pre[static_cast<size_t>(xx) * ksize];
    for (int x = 0; x < xmax; ++x) {
      const double w = bilinear_filter((x + xmin - center + 0.5) * ss);
      k[x] = w;
      ww += w;
    }
    for (int x = 0; x < xmax; ++x)
      if (ww != 0.0) k[x] /= ww;
    bounds[xx * 2] = xmin;
    bounds[xx * 2 + 1] = xmax;
  }
  kk.resize(pre.size());
  for (size_t i = 0; i < pre.size(); ++i)
    kk[i] = pre[i] < 0 ? static_cast<int32_t>(-0.5 + pre[i] * (1 << kPrecisionBits))
                       : static_cast<int32_t>(0.5 + pre[i] * (1 << kPrecisionBits));
  return ksize;
}

inline uint8_t clip8(int32_t v) {
  const int32_t s = v >> kPrecisionBits;
  return static_cast<uint8_t>(s < 0 ? 0 : (s > 255 ? 255 : s));
}

constexpr int64_t kParallelWork = int64_t{1} << 22;  // kernel taps of a pass worth spreading over threads

// One row's horizontal pass: out_w pixels from `row` under the taps (bounds bh, weights kh of ksh).
// One output pixel (3 bytes at `out`): the n taps k over the input pixels p, p + stride, ... (bytes),
// PIL's fixed-point sum and rounding. kStride: the stride known when compiling (a row's pixels: 3),
// 0 when it is `stride` (a column's); the known one keeps the horizontal pass as fast as by hand.
template <size_t kStride>
inline void apply_taps(const uint8_t* p, size_t stride, const int32_t* k, int n, uint8_t* out) {
  const size_t step = kStride ? kStride : stride;
  int32_t s0 = 1 << (kPrecisionBits - 1), s1 = s0, s2 = s0;
  for (int i = 0; i < n; ++i, p += step) {
    s0 += p[0] * k[i];
    s1 += p[1] * k[i];
    s2 += p[2] * k[i];
  }
  out[0] = clip8(s0);
  out[1] = clip8(s1);
  out[2] = clip8(s2);
}

void horizontal_row(const uint8_t* row, uint8_t* out, int out_w, const std::vector<int>& bh, const std::vector<int32_t>& kh, int ksh) {
  for (int xx = 0; xx < out_w; ++xx)
    apply_taps<3>(row + bh[xx * 2] * 3, 3, &kh[static_cast<size_t>(xx) * ksh], bh[xx * 2 + 1], out + xx * 3);
}

// The vertical pass over `src` (its rows from the first one the taps use): out_h rows.
RgbImage vertical_pass(const RgbImage& src, int out_h, const std::vector<int>& bv, const std::vector<int32_t>& kv, int ksv) {
  RgbImage out;
  out.width = src.width;
  out.height = out_h;
  out.rgb.resize(static_cast<size_t>(out.width) * out_h * 3);
#pragma omp parallel for schedule(static) if (static_cast<int64_t>(out_h) * out.width * ksv >= kParallelWork)
  for (int yy = 0; yy < out_h; ++yy) {
    const int ymin = bv[yy * 2], ymax = bv[yy * 2 + 1];
    const int32_t* k = &kv[static_cast<size_t>(yy) * ksv];
    uint8_t* o = &out.rgb[static_cast<size_t>(yy) * out.width * 3];
    for (int xx = 0; xx < out.width; ++xx)
      apply_taps<0>(&src.rgb[(static_cast<size_t>(ymin) * src.width + xx) * 3], static_cast<size_t>(src.width) * 3, k, ymax, o + xx * 3);
  }
  return out;
}

}  // namespace

RgbImage pil_resize_bilinear(const RgbImage& in, int out_w, int out_h) {
  if (in.width <= 0 || in.height <= 0) throw Error("resize: empty image");
  std::vector<int> bh, bv;
  std::vector<int32_t> kh, kv;
  const int ksh = coefficients(in.width, 0.0, in.width, out_w, bh, kh);
  const int ksv = coefficients(in.height, 0.0, in.height, out_h, bv, kv);
  const bool need_h = out_w != in.width, need_v = out_h != in.height;

  // Horizontal pass over the rows the vertical pass will use.
  const int y_first = bv[0], y_last = bv[(out_h - 1) * 2] + bv[(out_h - 1) * 2 + 1];
  RgbImage tmp;
  const RgbImage* src = &in;
  if (need_h) {
    for (int i = 0; i < out_h; ++i) bv[i * 2] -= y_first;
    tmp.width = out_w;
    tmp.height = y_last - y_first;
    tmp.rgb.resize(static_cast<size_t>(tmp.width) * tmp.height * 3);
    // Rows are independent: a large image's rows are shared among the caller's OpenMP threads (the
    // same bytes whatever their number).
#pragma omp parallel for schedule(static) if (static_cast<int64_t>(tmp.height) * out_w * ksh >= kParallelWork)
    for (int yy = 0; yy < tmp.height; ++yy)
      horizontal_row(&in.rgb[static_cast<size_t>(yy + y_first) * in.width * 3], &tmp.rgb[static_cast<size_t>(yy) * out_w * 3], out_w, bh, kh, ksh);
    src = &tmp;
  }
  if (!need_v) return need_h ? tmp : in;
  return vertical_pass(*src, out_h, bv, kv, ksv);
}

std::vector<float> pixel_values(const RgbImage& img) {
  const size_t plane = static_cast<size_t>(img.width) * img.height;
  std::vector<float> out(plane * 3);
  for (size_t i = 0; i < plane; ++i)
    for (int c = 0; c < 3; ++c) {
      const float x = static_cast<float>(img.rgb[i * 3 + c] * (1.0 / 255.0));
      out[c * plane + i] = (x - 0.5f) / 0.5f;
    }
  return out;
}

RgbImage crop_padded(const RgbImage& in, int x0, int y0, int width, int height, uint8_t fill) {
  if (width <= 0 || height <= 0) throw Error("crop: empty region");
  RgbImage out;
  out.width = width, out.height = height;
  out.rgb.assign(static_cast<size_t>(width) * height * 3, fill);
  const int xa = std::max(0, x0), xb = std::min(in.width, x0 + width);
  if (xa >= xb) return out;
  for (int y = std::max(0, y0); y < std::min(in.height, y0 + height); ++y)
    std::copy(in.rgb.begin() + (static_cast<size_t>(y) * in.width + xa) * 3, in.rgb.begin() + (static_cast<size_t>(y) * in.width + xb) * 3,
              out.rgb.begin() + (static_cast<size_t>(y - y0) * width + (xa - x0)) * 3);
  return out;
}


RgbImage pil_resize_bilinear_rows(int in_w, int in_h, const ReadRows& read_rows, int out_w, int out_h) {
  if (in_w <= 0 || in_h <= 0) throw Error("resize: empty image");
  std::vector<int> bh, bv;
  std::vector<int32_t> kh, kv;
  const int ksh = coefficients(in_w, 0.0, in_w, out_w, bh, kh);
  const int ksv = coefficients(in_h, 0.0, in_h, out_h, bv, kv);
  const bool need_h = out_w != in_w, need_v = out_h != in_h;
  // The rows the vertical pass uses, resized horizontally strip by strip (as pil_resize_bilinear).
  const int y_first = need_v ? bv[0] : 0, y_last = need_v ? bv[(out_h - 1) * 2] + bv[(out_h - 1) * 2 + 1] : in_h;
  if (need_v)
    for (int i = 0; i < out_h; ++i) bv[i * 2] -= y_first;
  RgbImage tmp;
  tmp.width = out_w;
  tmp.height = y_last - y_first;
  tmp.rgb.resize(static_cast<size_t>(tmp.width) * tmp.height * 3);
  constexpr int kStrip = 64;
  std::vector<uint8_t> strip(static_cast<size_t>(in_w) * kStrip * 3);
  for (int y0 = y_first; y0 < y_last; y0 += kStrip) {
    const int rows = std::min(kStrip, y_last - y0);
    read_rows(y0, rows, strip.data());
    if (!need_h) {
      std::memcpy(&tmp.rgb[static_cast<size_t>(y0 - y_first) * out_w * 3], strip.data(), static_cast<size_t>(rows) * in_w * 3);
      continue;
    }
#pragma omp parallel for schedule(static) if (static_cast<int64_t>(rows) * out_w * ksh >= kParallelWork / 16)
    for (int r = 0; r < rows; ++r)
      horizontal_row(&strip[static_cast<size_t>(r) * in_w * 3], &tmp.rgb[static_cast<size_t>(y0 - y_first + r) * out_w * 3], out_w, bh, kh, ksh);
  }
  if (!need_v) return tmp;
  return vertical_pass(tmp, out_h, bv, kv, ksv);
}

}  // namespace light::image

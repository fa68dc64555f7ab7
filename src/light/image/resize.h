// Images as LayoutLMv3 sees them: decode to RGB, PIL's antialiased BILINEAR resize to 224 x 224
// (a port of Pillow's Resample.c 8-bit path: triangle filter widened by the scale factor, separable
// horizontal then vertical passes, 22-bit fixed-point coefficients, rounding and clipping as Pillow),
// then rescale by 1/255 and normalise with mean = std = 0.5 into CHW float32 pixel values.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace light::image {

struct RgbImage {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // row-major, 3 bytes a pixel (R, G, B)
};

// The most pixels read_rgb decodes (OpenCV's own limit, CV_IO_MAX_IMAGE_PIXELS: 1.07 gigapixels).
inline constexpr uint64_t kMaxImagePixels = uint64_t{1} << 30;

// Decodes PNG, JPEG, TIFF, ... (OpenCV imgcodecs) to 8-bit RGB; grey and alpha are handled as
// PIL's convert("RGB") does (grey replicated, alpha dropped). Throws light::Error naming the file.
RgbImage read_rgb(const std::string& path);
// The same decoding of a file's bytes held in memory (`name` stands for the file in errors).
RgbImage decode_rgb(const std::string& bytes, const std::string& name);

// Throws light::Error naming `path` unless `head` (a file's first kFormatHead bytes, fewer for a
// shorter file) starts like PNG, JPEG, TIFF, BMP, WebP or JPEG 2000 and bears no DICOM mark at byte
// 128. OpenCV would hand other files to decoders that are not for map tiles and not safe on hostile
// bytes (Debian's DICOM decoder aborts the process on a crafted file).
inline constexpr size_t kFormatHead = 132;
void check_image_format(const std::string& head, const std::string& path);
// The same for a file on disk.
void check_image_format_of(const std::string& path);

// An image's width and height from its header (PNG, JPEG), else by decoding it. Throws light::Error
// naming the file.
std::pair<int, int> image_size(const std::string& path);

// Pillow's Image.resize((w, h), resample=BILINEAR) of an RGB image, byte for byte.
RgbImage pil_resize_bilinear(const RgbImage& in, int width, int height);
// The same bytes from an image of in_width x in_height read in strips of rows, never whole:
// read_rows(y0, n, dst) fills dst with rows y0..y0+n-1 as RGB (3 x in_width bytes a row). Memory:
// a strip, the horizontally resized rows and the result (a whole map resized to its windows' scale).
using ReadRows = std::function<void(int y0, int rows, uint8_t* dst)>;
RgbImage pil_resize_bilinear_rows(int in_width, int in_height, const ReadRows& read_rows, int width, int height);

// The pixels [x0, x0 + width) x [y0, y0 + height) of an image; what lies outside it is `fill` (grey
// level, all three channels).
RgbImage crop_padded(const RgbImage& in, int x0, int y0, int width, int height, uint8_t fill = 255);

// LayoutLMv3ImageProcessor's rescale and normalise: x = float32(u * (1/255)) (product in double),
// then (x - 0.5f) / 0.5f; returned channels first (3 x h x w).
std::vector<float> pixel_values(const RgbImage& img);

}  // namespace light::image

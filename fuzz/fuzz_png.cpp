// Image decoding as `light` calls it (OpenCV imdecode to RGB, then LayoutLMv3's resize and pixel
// values): any bytes give an image or a light::Error.
#include <cstddef>
#include <cstdint>
#include <string>

#include "light/image/resize.h"
#include "light/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto img = light::image::decode_rgb(std::string(reinterpret_cast<const char*>(data), size), "fuzz.png");
    if (img.rgb.size() != static_cast<size_t>(img.width) * img.height * 3) __builtin_trap();
    const auto pv = light::image::pixel_values(light::image::pil_resize_bilinear(img, 16, 16));
    if (pv.size() != 3 * 16 * 16) __builtin_trap();
  } catch (const light::Error&) {
  }
  return 0;
}

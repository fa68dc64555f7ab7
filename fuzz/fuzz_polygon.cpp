// A word polygon resampled to 16 points (geometry::resample_word_polygon, what the model is fed):
// any vertices give 16 finite points on the outline's bounding box, or a reason, never a crash.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "light/geometry/polygon.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using light::geometry::Point;
  std::vector<Point> poly;
  for (size_t at = 0; at + 4 <= size && poly.size() < 400; at += 4) {  // each vertex: two int16 coordinates
    int16_t x, y;
    std::memcpy(&x, data + at, 2);
    std::memcpy(&y, data + at + 2, 2);
    poly.push_back({x / 8.0, y / 8.0});
  }
  const light::geometry::Resampled r = light::geometry::resample_word_polygon(poly);
  if (!r.ok) {
    if (r.why.empty()) __builtin_trap();
    return 0;
  }
  if (r.polygon.size() != 16) __builtin_trap();
  const light::geometry::BBox box = light::geometry::bbox(poly);
  for (const Point& p : r.polygon)
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || p.x < box.x0 - 1e-6 || p.x > box.x1 + 1e-6 || p.y < box.y0 - 1e-6 ||
        p.y > box.y1 + 1e-6)
      __builtin_trap();
  return 0;
}

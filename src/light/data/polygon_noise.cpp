#include "light/data/polygon_noise.h"

#include <cmath>
#include <random>

#include "light/geometry/polygon.h"

namespace light::data {

void jitter_word_polygons(maptext::Tile& tile, double sigma, uint64_t seed) {
  if (!(sigma > 0)) return;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (auto& group : tile.groups)
    for (auto& word : group) {
      // Drawn for every word, so that one word's shape never changes another's draw.
      const double height = std::exp(sigma * normal(rng)), length = std::exp(0.7 * sigma * normal(rng));
      const double across = 0.3 * sigma * normal(rng), along = 0.8 * sigma * normal(rng);
      auto& v = word.vertices;
      if (v.size() < 3) continue;
      const geometry::ReadingFrame f = geometry::reading_frame(v);
      const double dx = f.end.x - f.start.x, dy = f.end.y - f.start.y, n = std::hypot(dx, dy);
      if (!(n > 0) || !(f.height > 0)) continue;
      const double ux = dx / n, uy = dy / n, vx = -uy, vy = ux;  // along, and across (down in the image)
      double cx = 0, cy = 0;
      for (const auto& p : v) cx += p.x, cy += p.y;
      cx /= static_cast<double>(v.size()), cy /= static_cast<double>(v.size());
      const double mx = cx + (along * ux + across * vx) * f.height, my = cy + (along * uy + across * vy) * f.height;
      for (auto& p : v) {
        const double a = (p.x - cx) * ux + (p.y - cy) * uy, b = (p.x - cx) * vx + (p.y - cy) * vy;
        p = {mx + a * length * ux + b * height * vx, my + a * length * uy + b * height * vy};
      }
    }
}

}  // namespace light::data

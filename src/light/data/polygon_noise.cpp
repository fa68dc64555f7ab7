#include "light/data/polygon_noise.h"

#include <cmath>
#include <random>
#include <vector>

#include "light/geometry/polygon.h"

namespace light::data {

namespace {
// One word's draw, in its reading frame: log scales of its height and length, its centre's move in
// heights across and along, and a turn in radians.
struct Move {
  double height = 1, length = 1, across = 0, along = 0, turn = 0;
};

void move_word(std::vector<maptext::Point>& v, const Move& m) {
  if (v.size() < 3) return;
  const geometry::ReadingFrame f = geometry::reading_frame(v);
  const double dx = f.end.x - f.start.x, dy = f.end.y - f.start.y, n = std::hypot(dx, dy);
  if (!(n > 0) || !(f.height > 0)) return;
  const double ux = dx / n, uy = dy / n, vx = -uy, vy = ux;  // along, and across (down in the image)
  double cx = 0, cy = 0;
  for (const auto& p : v) cx += p.x, cy += p.y;
  cx /= static_cast<double>(v.size()), cy /= static_cast<double>(v.size());
  const double mx = cx + (m.along * ux + m.across * vx) * f.height, my = cy + (m.along * uy + m.across * vy) * f.height;
  const double c = std::cos(m.turn), s = std::sin(m.turn);
  const double tx = c * ux - s * uy, ty = s * ux + c * uy, nx = -ty, ny = tx;  // the turned frame
  for (auto& p : v) {
    const double a = ((p.x - cx) * ux + (p.y - cy) * uy) * m.length, b = ((p.x - cx) * vx + (p.y - cy) * vy) * m.height;
    p = {mx + a * tx + b * nx, my + a * ty + b * ny};
  }
}

// Moves every word of `tile` by the Move `draw` makes from a standard normal, drawn for every word so
// that one word's shape never changes another's draw.
template <class Draw>
void move_words(maptext::Tile& tile, uint64_t seed, Draw draw) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  const auto n = [&] { return normal(rng); };
  for (auto& group : tile.groups)
    for (auto& word : group) move_word(word.vertices, draw(n));
}
}  // namespace

void jitter_word_polygons(maptext::Tile& tile, double sigma, uint64_t seed) {
  if (!(sigma > 0)) return;
  move_words(tile, seed, [&](const auto& n) {
    Move m;
    m.height = std::exp(sigma * n()), m.length = std::exp(0.7 * sigma * n());
    m.across = 0.3 * sigma * n(), m.along = 0.8 * sigma * n();
    return m;
  });
}

void jitter_word_polygons_by_hand(maptext::Tile& tile, double s, uint64_t seed) {
  if (!(s > 0)) return;
  move_words(tile, seed, [&](const auto& n) {
    Move m;
    m.turn = 2.0 * s * M_PI / 180 * n();
    m.height = std::exp(0.08 * s * n()), m.length = std::exp(0.05 * s * n());
    m.across = 0.1 * s * n(), m.along = 0.1 * s * n();
    return m;
  });
}

}  // namespace light::data

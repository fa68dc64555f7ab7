// The canvas a synthetic tile is drawn on (internal to light_synth): its random source, the paper,
// the map linework (stains, contours, hatching, section lines, rivers, roads, rail lines) that
// lettering is then set along and around, and the free-space bookkeeping of placed words.
#pragma once
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "light/data/synth/path.h"
#include "light/data/synth/synth.h"
#include "light/geometry/polygon.h"

namespace light::synth {

using geometry::BBox;
using geometry::Point;

inline constexpr double kPi = 3.14159265358979323846;

// ------------------------------------------------------------------------------------------------
// Random helpers
// ------------------------------------------------------------------------------------------------
struct Rng {
  std::mt19937_64 g;
  explicit Rng(uint64_t seed) : g(seed) {}
  double uni(double a, double b) { return std::uniform_real_distribution<double>(a, b)(g); }
  int integer(int a, int b) { return std::uniform_int_distribution<int>(a, b)(g); }
  bool chance(double p) { return uni(0, 1) < p; }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[static_cast<size_t>(integer(0, static_cast<int>(v.size()) - 1))]; }
};

inline uint64_t mix(uint64_t a, uint64_t b) {  // splitmix64 of a combined key
  uint64_t z = a * 0x9E3779B97F4A7C15ull + b + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// ------------------------------------------------------------------------------------------------
// Free-space bookkeeping: boxes of placed words on a coarse grid
// ------------------------------------------------------------------------------------------------
class Occupancy {
 public:
  Occupancy(int w, int h) : gw_(w / kCell + 3), gh_(h / kCell + 3), cells_(static_cast<size_t>(gw_) * gh_) {}
  bool free(const BBox& b) const {
    bool ok = true;
    visit(b, [&](const std::vector<int>& cell) {
      for (int k : cell)
        if (boxes_[k].intersects(b)) ok = false;
    });
    return ok;
  }
  void add(const BBox& b) {
    const int k = static_cast<int>(boxes_.size());
    boxes_.push_back(b);
    visit(b, [&](std::vector<int>& cell) { cell.push_back(k); });
  }

 private:
  static constexpr int kCell = 64;
  int gw_, gh_;
  std::vector<std::vector<int>> cells_;
  std::vector<BBox> boxes_;
  template <class F>
  void visit(const BBox& b, F f) const {
    for (int y = cell(b.y0, gh_); y <= cell(b.y1, gh_); ++y)
      for (int x = cell(b.x0, gw_); x <= cell(b.x1, gw_); ++x) f(cells_[static_cast<size_t>(y) * gw_ + x]);
  }
  template <class F>
  void visit(const BBox& b, F f) {
    for (int y = cell(b.y0, gh_); y <= cell(b.y1, gh_); ++y)
      for (int x = cell(b.x0, gw_); x <= cell(b.x1, gw_); ++x) f(cells_[static_cast<size_t>(y) * gw_ + x]);
  }
  static int cell(double v, int n) { return std::clamp(static_cast<int>(std::floor(v / kCell)) + 1, 0, n - 1); }
};

inline BBox padded(const BBox& b, double pad) { return {b.x0 - pad, b.y0 - pad, b.x1 + pad, b.y1 + pad}; }

struct Feature {
  Path path;
  enum Kind { River, Road, Rail, Contour } kind;  // names along a contour: a topographic sheet's heights
};


// The surface, the random source and the linework of one tile.
struct Canvas {
  Rng r;
  int W, H;
  cairo_surface_t* surface = nullptr;
  cairo_t* cr = nullptr;
  std::vector<Feature> features;
  double paper[3] = {0.93, 0.89, 0.78};

  Canvas(int width, int height, uint64_t seed);
  ~Canvas();
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  Point edge_point();
  Path wandering_path(double wiggle);
  void stroke_path(const Path& p);
  void ink_colour(double alpha, double blue = 0);
  // A road or street: two inked edges (`edges` px in all) around a paper-coloured band `width` px wide.
  void double_line(const Path& p, double width, double edges, double alpha);
  // The paper and the linework of a map of `style`; rivers, roads (streets) and rail lines (and a
  // chart's coastline, as a river) are kept in `features`.
  void background(MapStyle style = MapStyle::Atlas);

 private:
  void street_grid();
  void chart_linework();
};

}  // namespace light::synth

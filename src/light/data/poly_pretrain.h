// Polygon-encoder pretraining data (docs/reference-notes.md §3.1): the tiles' word polygons, and per tile a
// sample with the reference's vertex dropout, coordinate masking and the five geometric targets
// (minimum-area-rectangle angle, centre x and y, first-to-last vertex distance, closest other polygon).
// No LibTorch here: the model side is model/poly_pretrain.h.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "light/data/model_polygons.h"
#include "light/geometry/polygon.h"

namespace light::data {

// One tile's word polygons in pixels (and their texts, "" when the source has none), the tile's
// size and its image file.
struct PolyTile {
  std::string image, image_path;
  int width = 0, height = 0;
  std::vector<std::vector<geometry::Point>> polygons;
  std::vector<std::string> texts;  // parallel to polygons
};

// Where pretraining tiles come from: a MapText JSON (ground truth or spotter output; illegible and
// truncated words skipped, as the reference does) or a folder of per-image spotter files
// ({"annotations": [{"text", "pts"}]}, the reference's LIGHT-pretraining layout; the image is the file's
// stem in the image folder). Image sizes are read from the image headers. MapText files are read once
// (polygons only are kept); per-image files are read when a tile is used, so collections of any size
// stream from disk.
class PolyTileSource {
 public:
  // `polygons`: how each polygon reaches the model (data/model_polygons.h), applied as tiles are read.
  PolyTileSource(const std::string& data, const std::string& images_dir, PolygonPoints polygons = PolygonPoints::Keep);
  size_t size() const { return count_; }
  PolyTile tile(size_t i) const;
  // Polygons skipped so far for having fewer than 3 points (MapText files: at load).
  size_t skipped_polygons() const { return skipped_; }
  // Polygons that could not be resampled (fed as given) so far, and the first of them.
  size_t degenerate_polygons() const { return degenerate_; }
  const std::string& first_degenerate() const { return first_degenerate_; }

 private:
  std::string images_dir_;
  std::vector<PolyTile> tiles_;           // MapText source
  std::vector<std::string> files_;        // per-image folder source
  size_t count_ = 0;
  PolygonPoints polygons_ = PolygonPoints::Keep;
  mutable size_t skipped_ = 0, degenerate_ = 0;
  mutable std::string first_degenerate_;
  void to_model(std::vector<geometry::Point>& polygon, const std::string& where) const;
};

struct PolySampleOptions {
  bool vertex_dropout = true;  // the reference's `sampling` (16-point polygons only)
  double mask_ratio = 0.15;    // of the points; one coordinate (x or y) of each chosen point is masked
  size_t max_polygons = 100;   // per tile, after the shuffle (the reference: 100 train, 500 validation)
};

inline constexpr float kMaskValue = -1.0f;  // a masked coordinate in pretraining inputs

// One tile's pretraining sample: n polygons in a shuffled order, 32 values each (x/W, y/H of up to
// 16 points, padded with -100).
struct PolySample {
  size_t count = 0;
  std::vector<float> values;     // [n, 32] the encoder's input: masked coordinates set to -1
  std::vector<float> original;   // [n, 32] the same before masking (the reconstruction targets)
  std::vector<uint8_t> masked;   // [n, 32] 1 where a coordinate is masked
  std::vector<float> angle, center_x, center_y, distance;  // [n]
  std::vector<int64_t> closest;  // [n] index of the closest other polygon; -1 when the tile has one polygon
  uint64_t seed = 0;             // for the contrastive term's random negatives
};

// The sample of one tile. Polygons with fewer than 3 points are left out; a tile without polygons
// gives an empty sample. Polygons with more than 16 points are cut to their first 16 before anything
// else (LIGHT sees no more), so the targets describe what the encoder sees.
PolySample make_poly_sample(const PolyTile& tile, const PolySampleOptions& options, std::mt19937_64& rng);

// The reference's vertex dropout (`sampling`): only a polygon of exactly 16 points loses points; draws
// u_k ~ U(0, 1) for its points (corners 0, 7, 8 and 15 forced to 1) and one threshold q ~ U(0, 1), and
// keeps the points with u_k > q.
void vertex_dropout(std::vector<geometry::Point>& points, std::mt19937_64& rng);

// Targets on normalised points, as the reference computes them:
// OpenCV minAreaRect's angle (in (0, 90]), plus 90 when the rectangle's width < height, over 180.
double min_area_rect_angle(const std::vector<geometry::Point>& points);
// The index of the polygon whose vertices come closest to any vertex of polygon i (ties: the lowest
// index); -1 when there is no other polygon.
std::vector<int64_t> closest_polygons(const std::vector<std::vector<geometry::Point>>& polygons);

}  // namespace light::data

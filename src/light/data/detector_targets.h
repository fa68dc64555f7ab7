// What the spotter's text detector (DB, model/ppocr_det) learns to draw for a crop of a labelled map:
// the shrunk text regions ("kernels") of the words, and where the loss looks. As DB: each polygon shrunk
// by D = A (1 - r^2) / L (A its area, L its perimeter, r = 0.4), here along the word's own frame (each
// pair of facing lower and upper vertices drawn together, the two ends drawn in), so that words a space
// apart keep apart; or by the distance the spotter's post-processing grows back (unclip_inverse_distance).
// Illegible words (and words too small to draw) are masked out of the loss.
#pragma once
#include <cstdint>
#include <vector>

#include "light/image/resize.h"
#include "light/maptext.h"

namespace light::data {

// A 16-point (any even count, half along each edge) word polygon shrunk by `distance` pixels across and
// at both ends, each never past a tenth of its own extent.
std::vector<maptext::Point> shrink_word_polygon(const std::vector<maptext::Point>& polygon, double distance);

// DB's shrink distance of a polygon: A (1 - ratio^2) / L.
double db_shrink_distance(const std::vector<maptext::Point>& polygon, double ratio = 0.4);

// The distance a polygon is shrunk by so that the spotter's post-processing, which grows a kernel by
// `unclip_ratio` x its area / its perimeter on every side (spot::TextBoxOptions::unclip_ratio), gives
// the polygon back: about 0.3 of a long line's height at 1.5, where DB's distance (0.42) leaves a kernel
// half as thick as the one the released detector draws.
double unclip_inverse_distance(const std::vector<maptext::Point>& polygon, double unclip_ratio = 1.5);

struct DetectorTargets {
  int width = 0, height = 0;
  std::vector<uint8_t> text;  // 1 inside a word's kernel (row-major)
  std::vector<uint8_t> mask;  // 0 where the loss does not look (an illegible or tiny word's polygon)
};

// Targets for a crop of `width` x `height` px, the polygons in its pixels. A word lower than
// `min_height` px is masked rather than drawn. Kernels are shrunk by unclip_inverse_distance at
// `unclip_ratio`, or by DB's distance where it is 0.
DetectorTargets detector_targets(const std::vector<std::vector<maptext::Point>>& polygons, const std::vector<bool>& ignore, int width,
                                 int height, double min_height = 4.0, double unclip_ratio = 0);

// DB's threshold map for the same polygons (PaddleOCR's MakeBorderMap): each polygon grown by its
// shrink distance D (db_shrink_distance); in that band and inside it, 1 - (distance to the polygon's
// outline) / D, at least 0, the largest over the polygons; scaled to 0.3-0.7 (0.3 elsewhere). The mask
// is the grown polygons (where the threshold branch's L1 loss looks); illegible and tiny words are
// left out.
struct DetectorBorders {
  int width = 0, height = 0;
  std::vector<float> threshold;  // row-major
  std::vector<uint8_t> mask;
};
DetectorBorders detector_borders(const std::vector<std::vector<maptext::Point>>& polygons, const std::vector<bool>& ignore, int width,
                                 int height, double min_height = 4.0);

// The detector's input for RGB pixels `w` x `h` padded to `pw` x `ph` (multiples of 32): BGR planes
// normalised with ImageNet's mean and standard deviation, the padding 0 (the mean); `planes` holds
// 3 x ph x pw floats and is written whole.
void detector_planes(const uint8_t* rgb, int w, int h, size_t row_bytes, int pw, int ph, float* planes);

}  // namespace light::data

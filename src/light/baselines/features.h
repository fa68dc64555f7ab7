// Word and pair features of the heuristic linkers (Olson et al.; the paper's non-linguistic
// baselines), computed as their code does (docs/reference-notes.md §7): the minimum-area rectangle of the
// word's convex hull (OpenCV minAreaRect, float32), letter count, all-caps, height, angle and side
// midpoints; pair distance D, height ratio HR, sin of the angle difference S, capitalisation
// difference C, and the edge cost D · HR^a · (1 + b·S) · (1 + c·C).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "light/geometry/polygon.h"

namespace light::baselines {

using geometry::Point;

// OpenCV's RotatedRect: centre, size and angle in degrees (OpenCV >= 4.5.1 convention).
struct RotRect {
  double cx = 0, cy = 0, w = 0, h = 0, angle = 0;
};

struct WordFeatures {
  RotRect rect;
  size_t letters = 0;  // alphabetic characters
  size_t chars = 0;    // all characters (code points)
  bool caps = false;   // Python str.isupper()
  double height = 0;   // min(w, h) for words of 2+ letters, else h
  double angle = 0;    // rect angle, +90 when the height is the rect's width (in [0, 180])
  double sin_angle = 0, cos_angle = 0;
  std::array<Point, 4> mid{};  // side midpoints of the rectangle
  double reach = 0;    // distance from the centre to the farthest side midpoint
  bool degenerate = false;  // the polygon has no 2-D convex hull (collinear or repeated points)
};

// Features of one word. A polygon without a proper convex hull (fewer than 3 distinct points or
// all on one line) gets the minimum-area rectangle of its raw points, sides clamped to >= 0.001,
// so it stays where it is on the map (the reference moves it to (0, 0)).
WordFeatures word_features(const std::vector<Point>& vertices, const std::string& text);

// Minimum distance between the side midpoints of two words' rectangles (pixels).
double side_distance(const WordFeatures& a, const WordFeatures& b);
double height_ratio(const WordFeatures& a, const WordFeatures& b);
// sin(|angle_a - angle_b|), 0 when either word has at most 2 letters.
double sin_angle_difference(const WordFeatures& a, const WordFeatures& b);
// 1 when exactly one of the words is all caps and both have more than one letter.
int capitalization_difference(const WordFeatures& a, const WordFeatures& b);

struct CostWeights {
  double a = 1.0, b = 1.0, c = 1.0;
};

// The paper's heuristic edge cost D · HR^a · (1 + b·S) · (1 + c·C).
double edge_cost(const WordFeatures& u, const WordFeatures& v, const CostWeights& w);

}  // namespace light::baselines

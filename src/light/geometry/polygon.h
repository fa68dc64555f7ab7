// Plain polygon helpers that need no geometry engine: points, bounding boxes, shoelace area.
// Overlap computations (intersection, union, IoU) live in overlap.h and use GEOS.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "light/maptext.h"

namespace light::geometry {

using Point = maptext::Point;  // the MapText file's vertex

using Polygon = std::vector<Point>;  // vertices in order; the ring closes implicitly

struct BBox {
  double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;
  double width() const { return x1 - x0; }
  double height() const { return y1 - y0; }
  // True when the closed boxes share at least one point.
  bool intersects(const BBox& o) const { return x0 <= o.x1 && o.x0 <= x1 && y0 <= o.y1 && o.y0 <= y1; }
};

// An upper bound on the MapText IoU of two shapes from their boxes and areas alone:
// intersection <= min(area_a, area_b, box overlap) and union >= max(area_a, area_b).
double iou_upper_bound(const BBox& a, double area_a, const BBox& b, double area_b, double union_epsilon);

// The straight-line distance between two points.
inline double distance(const Point& a, const Point& b) { return std::hypot(a.x - b.x, a.y - b.y); }

// Axis-aligned bounding box of all vertices (an empty polygon gives an all-zero box).
BBox bbox(const Polygon& poly);

// Signed shoelace area (positive for counter-clockwise in a y-up frame).
double signed_area(const Polygon& poly);

// Absolute shoelace area; for a simple polygon this equals GEOS's area.
double area(const Polygon& poly);

// A word polygon's reading frame, as MapText lays its vertices out (the first half runs along the top
// edge from the word's start to its end, the second half back along the bottom edge): `start` is the
// midpoint of the first and last vertex, `end` the midpoint of the two middle vertices, and `height`
// the area divided by the start-to-end length (a box's height; a curved band's mean thickness). With
// fewer than 4 vertices, or a degenerate axis, the frame is the bounding box's (left to right).
struct ReadingFrame {
  Point start, end;
  double height = 0.0;
};
ReadingFrame reading_frame(const Polygon& poly);

// The point at fraction t (clamped to [0, 1]) of an open polyline's length; its last point for a
// polyline of one point or of no length.
Point point_along(const std::vector<Point>& polyline, double t);

// A word polygon of any vertex count as `points` (even, at least 4) points spaced evenly by length
// along its two long edges, in `light synth`'s MapText order: the lower edge from the word's start to
// its end, then the upper edge back (negative signed area in image coordinates). The outline is split
// where it turns at the word's two ends: on each side of the outline's length-weighted principal axis,
// the edge whose two corners turn most, favouring edges further out (a box's short sides; a 16- or
// 50-point polygon's end edges); the word starts at the end nearer its first vertex. A polygon that
// follows the MapText convention (an even vertex count, half along each long side from vertex 0, the
// outline turning sharply at edges n/2-1 and n-1) is split there instead, so that a one-letter box
// taller than wide keeps its bottom as the lower edge. A polygon given the other way round is reversed.
// A polygon that already has `points` vertices comes back unchanged. Repeated vertices are dropped;
// fewer than 3 distinct vertices or no area (a symmetric bow-tie included) gives `ok` false and why.
struct Resampled {
  Polygon polygon;
  bool ok = false;
  std::string why;  // when not ok
};
Resampled resample_word_polygon(const Polygon& poly, int points = 16);

}  // namespace light::geometry

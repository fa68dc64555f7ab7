// Baseline paths for map labels: a densely sampled polyline with arc length, so text can be set
// along straight lines, rotated lines and smooth curves (rivers, roads, rail lines).
#pragma once
#include <cstddef>
#include <vector>

#include "light/geometry/polygon.h"

namespace light::synth {

using geometry::Point;

class Path {
 public:
  Path() = default;
  explicit Path(std::vector<Point> points);  // resampled internally is not needed: any polyline

  double length() const { return cum_.empty() ? 0.0 : cum_.back(); }
  Point at(double s) const;        // point at arc length s (clamped, extrapolated linearly beyond ends)
  double angle(double s) const;    // tangent direction (radians, image frame: y down) at s
  const std::vector<Point>& points() const { return pts_; }

  // A straight segment from `start`, `length` long, at `angle` radians.
  static Path line(Point start, double angle, double length);
  // A smooth curve through control points (Catmull-Rom), sampled every `step` px.
  static Path smooth(const std::vector<Point>& control, double step = 2.0);
  // A smooth curve from `start`, `length` long, of equal pieces each heading at its angle in `angles`
  // (radians): an arc, or a bend, across a region.
  static Path bent(Point start, double length, const std::vector<double>& angles);
  // The part of this path between arc lengths s0 and s1.
  Path slice(double s0, double s1, double step = 2.0) const;
  // This path moved sideways by `d` px (positive = to the right of the direction of travel, i.e. below
  // text set along it).
  Path offset(double d) const;

  // Largest turning rate along the path (radians per px), for curvature checks.
  double max_curvature() const;

 private:
  std::vector<Point> pts_;
  std::vector<double> cum_;
  size_t segment(double s) const;
};

}  // namespace light::synth

// Plane-to-plane transforms fitted to control points by least squares: Helmert (a similarity: shift,
// turn, one scale), affine, and polynomials of order 2 and 3, as GDAL's GCP transformer and Allmaps
// fit them, and the thin-plate spline through the points (GDAL's -tps, Allmaps' thinPlateSpline); a
// transform's leave-one-out error (each point predicted by the fit to the others), the measure that
// chooses among them; and the azimuthal equidistant projection that puts longitude and latitude on a
// plane around a map's centre for the fit.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace light::geo {

struct PlanePoint {
  double x = 0, y = 0;
};

enum class TransformKind { Helmert, Affine, Polynomial2, Polynomial3, ThinPlateSpline };
// "helmert", "affine", "polynomial2", "polynomial3", "thin_plate_spline"
const char* transform_name(TransformKind kind);
// Least control points a kind needs (2, 3, 6, 10, 3) and its polynomial order (1 for Helmert, affine
// and the spline's affine part).
size_t min_points(TransformKind kind);
int polynomial_order(TransformKind kind);

// A fitted transform from plane `from` to plane `to`. Inputs are centred and scaled first, so that
// pixels and metres fit alike.
class PointTransform {
 public:
  // Fits `kind` to the pairs; nullopt when there are too few points or they are degenerate (all on a
  // line for an affine fit, a rank-deficient system otherwise).
  static std::optional<PointTransform> fit(TransformKind kind, const std::vector<PlanePoint>& from, const std::vector<PlanePoint>& to);
  PlanePoint apply(PlanePoint p) const;
  TransformKind kind() const { return kind_; }
  // For Helmert: the scale (to units per from unit) and the turn (radians, counter-clockwise in a
  // plane whose y grows up in both); for an affine transform, those of its first axis.
  double helmert_scale() const;
  double helmert_rotation() const;

 private:
  TransformKind kind_ = TransformKind::Affine;
  PlanePoint from_mean_, to_mean_;
  double from_scale_ = 1, to_scale_ = 1;
  std::vector<double> cx_, cy_;  // coefficients over the monomials of (x, y), in polynomial order
  // The spline's control points (normalised); cx_, cy_ then hold their weights, then the affine part.
  std::vector<PlanePoint> centres_;
};

// Root mean square of each point's distance to where the fit to the other points puts it; nullopt
// when a fit without one point fails.
std::optional<double> leave_one_out_rms(TransformKind kind, const std::vector<PlanePoint>& from, const std::vector<PlanePoint>& to);

// Longitude/latitude (degrees) to metres on the azimuthal equidistant projection about (lon0, lat0)
// (east, north), and back: distances and bearings from the centre kept, the shapes of a region of
// a few hundred kilometres kept within a fraction of a percent.
PlanePoint azimuthal_equidistant(double lon0, double lat0, double lon, double lat);
void inverse_azimuthal_equidistant(double lon0, double lat0, PlanePoint p, double& lon, double& lat);

// Great-circle distance in metres.
double great_circle_metres(double lon1, double lat1, double lon2, double lat2);

}  // namespace light::geo

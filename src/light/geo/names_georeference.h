// A map georeferenced from its own names: the phrases matched to gazetteer places (place_matching.h)
// are control points whose pixel is where the label stands and whose longitude/latitude is its
// candidate's; most candidates are wrong (namesakes, false friends), so RANSAC over pairs of them
// finds the largest set of names that agree on one placement of the map, the fit is refined with the
// dot of each place beside its label, and the transform (Helmert, affine, polynomial 2 or 3) is chosen
// by leave-one-out error (docs/georeference-from-names.md).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "light/geo/point_transforms.h"

namespace light::geo {

// A phrase on the map: its words' box (pixels), the height of its letters and its candidate places.
struct LabelCandidates {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  double letter_px = 0;
  struct Candidate {
    double lon = 0, lat = 0, score = 0;
  };
  std::vector<Candidate> candidates;  // best first
};

struct NamesGeoreferenceOptions {
  size_t min_names = 5;      // names that must agree, or the map is left without a georeference
  int iterations = 4000;     // RANSAC draws of two names
  double tolerance = 0.02;   // how far a place's dot may lie outside its label's box (grown by a letter height), of the diagonal
  double max_rotation = 30;  // degrees: north at most this far from up
  double max_extent_km = 3000;  // the map's diagonal on the ground at most this (a country, not a hemisphere)
  double strong_score = 0.85;   // of the names that agree, min_names must score this or more (a letter or so misread)
  // Where a place's dot is taken to lie by its label: Positions, the nearest of the eight places a
  // cartographer sets a label beside its point symbol (right, left, above, below, the four corners);
  // Edge, the label's box nearest the fit; Centre, the label's centre.
  enum class Anchor { Positions, Edge, Centre } anchor = Anchor::Positions;
  uint64_t seed = 1;
};

struct NameControlPoint {
  size_t label = 0, candidate = 0;  // indices into the labels given and their candidates
  double x = 0, y = 0;              // pixel (y down)
  double lon = 0, lat = 0;
  double residual_px = 0;           // the fit's distance from (x, y)
};

struct NamesGeoreference {
  bool ok = false;
  std::string reason;  // why not, when not ok
  TransformKind kind = TransformKind::Helmert;
  std::vector<NameControlPoint> gcps;
  double loo_rms_px = 0;  // leave-one-out error of the chosen transform
  std::vector<std::pair<TransformKind, double>> tried;  // each transform the points allowed, its leave-one-out error
  double lon0 = 0, lat0 = 0;  // the azimuthal equidistant plane's centre
  std::optional<PointTransform> to_pixel, to_plane;

  // A longitude/latitude's pixel, and a pixel's longitude/latitude (ok only).
  void pixel(double lon, double lat, double& x, double& y) const;
  void lonlat(double x, double y, double& lon, double& lat) const;
  // Each label's candidate whose place lies where the georeference puts its label (within the
  // tolerance), the best scored of those; -1 where none does.
  std::vector<int> placed(const std::vector<LabelCandidates>& labels, double width, double height, const NamesGeoreferenceOptions& o) const;
};

NamesGeoreference georeference_from_names(const std::vector<LabelCandidates>& labels, double width, double height,
                                          const NamesGeoreferenceOptions& options = {});

}  // namespace light::geo

#include "light/geo/names_georeference.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace light::geo {

namespace {

constexpr double kDeg = M_PI / 180.0;

// Pixels as a plane whose y grows up, as east and north do: a north-up map is a turn of 0.
PlanePoint up(double x, double y) { return {x, -y}; }

// How far a pixel lies outside a label's box grown by a letter height.
double outside(const LabelCandidates& l, double x, double y) {
  const double g = l.letter_px;
  const double dx = std::max({l.x0 - g - x, 0.0, x - l.x1 - g}), dy = std::max({l.y0 - g - y, 0.0, y - l.y1 - g});
  return std::hypot(dx, dy);
}

// Where a label's place's dot is taken to be, given where the fit puts it (x, y).
PlanePoint dot_of(const LabelCandidates& l, double x, double y, NamesGeoreferenceOptions::Anchor anchor) {
  const double g = l.letter_px, xc = 0.5 * (l.x0 + l.x1), yc = 0.5 * (l.y0 + l.y1);
  if (anchor == NamesGeoreferenceOptions::Anchor::Centre) return {xc, yc};
  if (anchor == NamesGeoreferenceOptions::Anchor::Edge) return {std::clamp(x, l.x0 - g, l.x1 + g), std::clamp(y, l.y0 - g, l.y1 + g)};
  // A point symbol half a letter height off the label's side or corner.
  const double d = 0.5 * g;
  const PlanePoint at[8] = {{l.x0 - d, yc}, {l.x1 + d, yc}, {xc, l.y0 - d}, {xc, l.y1 + d},
                            {l.x0 - d, l.y0 - d}, {l.x1 + d, l.y0 - d}, {l.x0 - d, l.y1 + d}, {l.x1 + d, l.y1 + d}};
  PlanePoint best = at[0];
  for (const PlanePoint& p : at)
    if (std::hypot(p.x - x, p.y - y) < std::hypot(best.x - x, best.y - y)) best = p;
  return best;
}

struct Hypothesis {
  double lon0 = 0, lat0 = 0;
  PointTransform t;  // plane (metres) -> pixels, y up
};

// The labels a hypothesis places: for each, the best scored candidate within the tolerance (or -1),
// and the sum of their scores.
double agreement(const Hypothesis& h, const std::vector<LabelCandidates>& labels, double tol, double reach_m, std::vector<int>* chosen) {
  double score = 0;
  if (chosen) chosen->assign(labels.size(), -1);
  for (size_t i = 0; i < labels.size(); ++i) {
    double best = 0;
    for (size_t c = 0; c < labels[i].candidates.size(); ++c) {
      const auto& cand = labels[i].candidates[c];
      if (cand.score <= best || std::abs(cand.lat - h.lat0) * kDeg * 6.371e6 > reach_m) continue;
      const PlanePoint p = h.t.apply(azimuthal_equidistant(h.lon0, h.lat0, cand.lon, cand.lat));
      if (outside(labels[i], p.x, -p.y) > tol) continue;
      best = cand.score;
      if (chosen) (*chosen)[i] = static_cast<int>(c);
    }
    score += best;
  }
  return score;
}

}  // namespace

void NamesGeoreference::pixel(double lon, double lat, double& x, double& y) const {
  const PlanePoint p = to_pixel->apply(azimuthal_equidistant(lon0, lat0, lon, lat));
  x = p.x, y = -p.y;
}

void NamesGeoreference::lonlat(double x, double y, double& lon, double& lat) const {
  inverse_azimuthal_equidistant(lon0, lat0, to_plane->apply(up(x, y)), lon, lat);
}

std::vector<int> NamesGeoreference::placed(const std::vector<LabelCandidates>& labels, double width, double height,
                                           const NamesGeoreferenceOptions& o) const {
  std::vector<int> out(labels.size(), -1);
  if (!ok) return out;
  const double tol = o.tolerance * std::hypot(width, height);
  for (size_t i = 0; i < labels.size(); ++i) {
    double best = -1;
    for (size_t c = 0; c < labels[i].candidates.size(); ++c) {
      const auto& cand = labels[i].candidates[c];
      double x = 0, y = 0;
      pixel(cand.lon, cand.lat, x, y);
      if (outside(labels[i], x, y) <= tol && cand.score > best) best = cand.score, out[i] = static_cast<int>(c);
    }
  }
  return out;
}

NamesGeoreference georeference_from_names(const std::vector<LabelCandidates>& labels, double width, double height,
                                          const NamesGeoreferenceOptions& o) {
  NamesGeoreference out;
  const double diagonal = std::hypot(width, height), tol = o.tolerance * diagonal;
  std::vector<size_t> named;
  for (size_t i = 0; i < labels.size(); ++i)
    if (!labels[i].candidates.empty()) named.push_back(i);
  if (named.size() < o.min_names) {
    out.reason = std::to_string(named.size()) + " of the map's phrases match a gazetteer place; " + std::to_string(o.min_names) + " needed";
    return out;
  }
  // 1. RANSAC: two names, a candidate each (the best most often), a Helmert transform through them;
  // kept when it turns the map at most max_rotation and the most names, by their scores, agree.
  std::mt19937_64 rng(o.seed);
  std::uniform_int_distribution<size_t> pick(0, named.size() - 1);
  std::uniform_real_distribution<double> unit(0, 1);
  const auto draw_candidate = [&](size_t i) {
    const size_t n = labels[i].candidates.size();
    return unit(rng) < 0.6 || n == 1 ? size_t{0} : std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  };
  std::optional<Hypothesis> best;
  double best_score = 0;
  for (int it = 0; it < o.iterations; ++it) {
    const size_t i = named[pick(rng)], j = named[pick(rng)];
    if (i == j) continue;
    const auto &a = labels[i].candidates[draw_candidate(i)], &b = labels[j].candidates[draw_candidate(j)];
    const PlanePoint pa{0.5 * (labels[i].x0 + labels[i].x1), 0.5 * (labels[i].y0 + labels[i].y1)};
    const PlanePoint pb{0.5 * (labels[j].x0 + labels[j].x1), 0.5 * (labels[j].y0 + labels[j].y1)};
    if (std::hypot(pa.x - pb.x, pa.y - pb.y) < 0.1 * diagonal) continue;  // too close to fix a scale and a turn
    if (great_circle_metres(a.lon, a.lat, b.lon, b.lat) < 1.0) continue;
    Hypothesis h;
    h.lon0 = 0.5 * (a.lon + b.lon), h.lat0 = 0.5 * (a.lat + b.lat);
    if (std::abs(a.lon - b.lon) > 180) h.lon0 += h.lon0 > 0 ? -180 : 180;
    const auto t = PointTransform::fit(TransformKind::Helmert, {azimuthal_equidistant(h.lon0, h.lat0, a.lon, a.lat), azimuthal_equidistant(h.lon0, h.lat0, b.lon, b.lat)},
                                       {up(pa.x, pa.y), up(pb.x, pb.y)});
    if (!t || std::abs(t->helmert_rotation()) > o.max_rotation * kDeg || diagonal / t->helmert_scale() > o.max_extent_km * 1000) continue;
    h.t = *t;
    const double reach = 1.5 * diagonal / t->helmert_scale();  // metres: no candidate farther can lie on the map
    const double s = agreement(h, labels, tol, reach, nullptr);
    if (s > best_score) best_score = s, best = h;
  }
  if (!best) {
    out.reason = "no two of the " + std::to_string(named.size()) + " matched names place the map within " +
                 std::to_string(static_cast<int>(o.max_rotation)) + " degrees of north up";
    return out;
  }
  // 2. Refined: the agreeing names refitted (their dots beside their labels), the names in agreement
  // counted again, until they no longer change.
  std::vector<int> chosen, previous;
  Hypothesis h = *best;
  std::vector<PlanePoint> plane, pixels;
  std::vector<size_t> members, member_candidates;
  for (int round = 0; round < 8; ++round) {
    agreement(h, labels, tol, 1.5 * diagonal / h.t.helmert_scale(), &chosen);
    if (round > 0 && chosen == previous) break;
    previous = chosen;
    // The plane about the agreeing places' centre.
    double slon = 0, slat = 0, n = 0;
    for (size_t i = 0; i < labels.size(); ++i)
      if (chosen[i] >= 0) slon += labels[i].candidates[chosen[i]].lon, slat += labels[i].candidates[chosen[i]].lat, ++n;
    if (n < 2) break;
    Hypothesis next;
    next.lon0 = slon / n, next.lat0 = slat / n;
    plane.clear(), pixels.clear(), members.clear(), member_candidates.clear();
    for (size_t i = 0; i < labels.size(); ++i) {
      if (chosen[i] < 0) continue;
      const auto& c = labels[i].candidates[chosen[i]];
      const PlanePoint predicted = h.t.apply(azimuthal_equidistant(h.lon0, h.lat0, c.lon, c.lat));
      // The first fit takes each dot where a cartographer puts it first (left of its label, which
      // reads on to the right of it); the later ones the nearest of the eight places to the fit.
      const PlanePoint at = round == 0 && o.anchor == NamesGeoreferenceOptions::Anchor::Positions
                                ? PlanePoint{labels[i].x0 - 0.5 * labels[i].letter_px, 0.5 * (labels[i].y0 + labels[i].y1)}
                                : dot_of(labels[i], predicted.x, -predicted.y, round == 0 ? NamesGeoreferenceOptions::Anchor::Centre : o.anchor);
      plane.push_back(azimuthal_equidistant(next.lon0, next.lat0, c.lon, c.lat));
      pixels.push_back(up(at.x, at.y));
      members.push_back(i), member_candidates.push_back(static_cast<size_t>(chosen[i]));
    }
    const auto t = PointTransform::fit(plane.size() >= 4 ? TransformKind::Affine : TransformKind::Helmert, plane, pixels);
    if (!t) break;
    next.t = *t;
    h = next;
  }
  size_t strong = 0;
  for (size_t k = 0; k < members.size(); ++k) strong += labels[members[k]].candidates[member_candidates[k]].score >= o.strong_score;
  if (strong < o.min_names) {
    out.reason = "only " + std::to_string(strong) + " matched names (scoring " + std::to_string(o.strong_score).substr(0, 4) +
                 " or more) agree on where the map lies; " + std::to_string(o.min_names) + " needed";
    return out;
  }
  // 3. The transform with the least leave-one-out error among those the points allow (a simpler one
  // kept unless a richer one is 10 % better), fitted to every agreeing name.
  // The spline passes through every point: tried from 10, when the points are many enough to show a
  // bend, and not past 80 (its leave-one-out fits cost n^4).
  const std::pair<TransformKind, size_t> kinds[] = {{TransformKind::Helmert, 2},      {TransformKind::Affine, 4},
                                                    {TransformKind::Polynomial2, 12}, {TransformKind::Polynomial3, 25},
                                                    {TransformKind::ThinPlateSpline, 10}};
  double chosen_error = 0;
  for (const auto& [kind, needs] : kinds) {
    if (plane.size() < needs || (kind == TransformKind::ThinPlateSpline && plane.size() > 80)) continue;
    const auto e = leave_one_out_rms(kind, plane, pixels);
    if (!e) continue;
    out.tried.push_back({kind, *e});
    if (out.tried.size() == 1 || *e < 0.9 * chosen_error) out.kind = kind, chosen_error = *e;
  }
  out.to_pixel = PointTransform::fit(out.kind, plane, pixels);
  out.to_plane = PointTransform::fit(out.kind, pixels, plane);
  if (!out.to_pixel || !out.to_plane) {
    out.reason = "the agreeing names are degenerate (all on one line)";
    return out;
  }
  out.ok = true;
  out.lon0 = h.lon0, out.lat0 = h.lat0;
  out.loo_rms_px = chosen_error;
  for (size_t k = 0; k < members.size(); ++k) {
    const size_t i = members[k];
    NameControlPoint g;
    g.label = i, g.candidate = member_candidates[k];
    g.x = pixels[k].x, g.y = -pixels[k].y;
    g.lon = labels[i].candidates[g.candidate].lon, g.lat = labels[i].candidates[g.candidate].lat;
    const PlanePoint p = out.to_pixel->apply(plane[k]);
    g.residual_px = std::hypot(p.x - pixels[k].x, p.y - pixels[k].y);
    out.gcps.push_back(g);
  }
  return out;
}

}  // namespace light::geo

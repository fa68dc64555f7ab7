#include "light/geo/point_transforms.h"

#include <algorithm>
#include <cmath>
#include <opencv2/core.hpp>

namespace light::geo {

namespace {

constexpr double kEarthRadius = 6371008.8;
constexpr double kDeg = M_PI / 180.0;

// The monomials of (x, y) up to `order`: 1, x, y, x^2, xy, y^2, x^3, ...
std::vector<double> monomials(double x, double y, int order) {
  std::vector<double> m;
  for (int d = 0; d <= order; ++d)
    for (int i = d; i >= 0; --i) m.push_back(std::pow(x, i) * std::pow(y, d - i));
  return m;
}

// The thin-plate spline's radial basis, r^2 log r.
double tps_kernel(double r2) { return r2 > 0 ? 0.5 * r2 * std::log(r2) : 0.0; }

// The least-squares solution of A c = b; nullopt when A is rank-deficient.
std::optional<std::vector<double>> solve(const cv::Mat& a, const cv::Mat& b) {
  cv::SVD svd(a, cv::SVD::MODIFY_A);
  const double top = svd.w.at<double>(0), low = svd.w.at<double>(svd.w.rows - 1);
  if (!(top > 0) || low < 1e-9 * top) return std::nullopt;
  cv::Mat c;
  svd.backSubst(b, c);
  return std::vector<double>(c.begin<double>(), c.end<double>());
}

PlanePoint mean_of(const std::vector<PlanePoint>& p) {
  PlanePoint m;
  for (const PlanePoint& q : p) m.x += q.x, m.y += q.y;
  m.x /= static_cast<double>(p.size()), m.y /= static_cast<double>(p.size());
  return m;
}

double spread_of(const std::vector<PlanePoint>& p, PlanePoint m) {
  double s = 0;
  for (const PlanePoint& q : p) s += std::hypot(q.x - m.x, q.y - m.y);
  s /= static_cast<double>(p.size());
  return s > 0 ? s : 1.0;
}

}  // namespace

const char* transform_name(TransformKind kind) {
  switch (kind) {
    case TransformKind::Helmert: return "helmert";
    case TransformKind::Affine: return "affine";
    case TransformKind::Polynomial2: return "polynomial2";
    case TransformKind::Polynomial3: return "polynomial3";
    case TransformKind::ThinPlateSpline: return "thin_plate_spline";
  }
  return "";
}

size_t min_points(TransformKind kind) {
  switch (kind) {
    case TransformKind::Helmert: return 2;
    case TransformKind::Affine: return 3;
    case TransformKind::Polynomial2: return 6;
    case TransformKind::Polynomial3: return 10;
    case TransformKind::ThinPlateSpline: return 3;
  }
  return 0;
}

int polynomial_order(TransformKind kind) {
  return kind == TransformKind::Polynomial2 ? 2 : kind == TransformKind::Polynomial3 ? 3 : 1;
}

std::optional<PointTransform> PointTransform::fit(TransformKind kind, const std::vector<PlanePoint>& from, const std::vector<PlanePoint>& to) {
  const size_t n = from.size();
  if (n != to.size() || n < min_points(kind)) return std::nullopt;
  PointTransform t;
  t.kind_ = kind;
  t.from_mean_ = mean_of(from), t.to_mean_ = mean_of(to);
  t.from_scale_ = spread_of(from, t.from_mean_), t.to_scale_ = spread_of(to, t.to_mean_);
  const auto f = [&](size_t i) { return PlanePoint{(from[i].x - t.from_mean_.x) / t.from_scale_, (from[i].y - t.from_mean_.y) / t.from_scale_}; };
  const auto g = [&](size_t i) { return PlanePoint{(to[i].x - t.to_mean_.x) / t.to_scale_, (to[i].y - t.to_mean_.y) / t.to_scale_}; };
  if (kind == TransformKind::Helmert) {  // x' = a x - b y + c, y' = b x + a y + d
    cv::Mat a(static_cast<int>(2 * n), 4, CV_64F), b(static_cast<int>(2 * n), 1, CV_64F);
    for (size_t i = 0; i < n; ++i) {
      const PlanePoint p = f(i), q = g(i);
      const int r = static_cast<int>(2 * i);
      a.at<double>(r, 0) = p.x, a.at<double>(r, 1) = -p.y, a.at<double>(r, 2) = 1, a.at<double>(r, 3) = 0;
      a.at<double>(r + 1, 0) = p.y, a.at<double>(r + 1, 1) = p.x, a.at<double>(r + 1, 2) = 0, a.at<double>(r + 1, 3) = 1;
      b.at<double>(r) = q.x, b.at<double>(r + 1) = q.y;
    }
    const auto c = solve(a, b);
    if (!c) return std::nullopt;
    t.cx_ = {(*c)[2], (*c)[0], -(*c)[1]};
    t.cy_ = {(*c)[3], (*c)[1], (*c)[0]};
    return t;
  }
  if (kind == TransformKind::ThinPlateSpline) {  // [K P; P^T 0] [w; a] = [v; 0], K_ij = U(|p_i - p_j|)
    const int m = static_cast<int>(n) + 3;
    cv::Mat a = cv::Mat::zeros(m, m, CV_64F), bx = cv::Mat::zeros(m, 1, CV_64F), by = cv::Mat::zeros(m, 1, CV_64F);
    for (size_t i = 0; i < n; ++i) {
      const PlanePoint p = f(i), q = g(i);
      t.centres_.push_back(p);
      for (size_t j = 0; j < n; ++j) {
        const PlanePoint r = f(j);
        a.at<double>(static_cast<int>(i), static_cast<int>(j)) = tps_kernel(std::pow(p.x - r.x, 2) + std::pow(p.y - r.y, 2));
      }
      const int row = static_cast<int>(i), col = static_cast<int>(n);
      a.at<double>(row, col) = a.at<double>(col, row) = 1;
      a.at<double>(row, col + 1) = a.at<double>(col + 1, row) = p.x;
      a.at<double>(row, col + 2) = a.at<double>(col + 2, row) = p.y;
      bx.at<double>(row) = q.x, by.at<double>(row) = q.y;
    }
    // A square system: LU, both coordinates at once (SVD would cost ten times as much).
    cv::Mat b, c;
    cv::hconcat(bx, by, b);
    if (!cv::solve(a, b, c, cv::DECOMP_LU)) return std::nullopt;
    for (int i = 0; i < m; ++i) t.cx_.push_back(c.at<double>(i, 0)), t.cy_.push_back(c.at<double>(i, 1));
    return t;
  }
  const int order = polynomial_order(kind);
  const size_t terms = monomials(0, 0, order).size();
  cv::Mat a(static_cast<int>(n), static_cast<int>(terms), CV_64F), bx(static_cast<int>(n), 1, CV_64F), by(static_cast<int>(n), 1, CV_64F);
  for (size_t i = 0; i < n; ++i) {
    const PlanePoint p = f(i), q = g(i);
    const auto m = monomials(p.x, p.y, order);
    for (size_t k = 0; k < terms; ++k) a.at<double>(static_cast<int>(i), static_cast<int>(k)) = m[k];
    bx.at<double>(static_cast<int>(i)) = q.x, by.at<double>(static_cast<int>(i)) = q.y;
  }
  const auto cx = solve(a.clone(), bx), cy = solve(a.clone(), by);
  if (!cx || !cy) return std::nullopt;
  t.cx_ = *cx, t.cy_ = *cy;
  return t;
}

PlanePoint PointTransform::apply(PlanePoint p) const {
  const double x = (p.x - from_mean_.x) / from_scale_, y = (p.y - from_mean_.y) / from_scale_;
  if (kind_ == TransformKind::ThinPlateSpline) {
    const size_t n = centres_.size();
    double u = cx_[n] + cx_[n + 1] * x + cx_[n + 2] * y, v = cy_[n] + cy_[n + 1] * x + cy_[n + 2] * y;
    for (size_t i = 0; i < n; ++i) {
      const double k = tps_kernel(std::pow(x - centres_[i].x, 2) + std::pow(y - centres_[i].y, 2));
      u += cx_[i] * k, v += cy_[i] * k;
    }
    return {to_mean_.x + u * to_scale_, to_mean_.y + v * to_scale_};
  }
  const auto m = monomials(x, y, polynomial_order(kind_));
  double u = 0, v = 0;
  for (size_t k = 0; k < cx_.size(); ++k) u += cx_[k] * m[k], v += cy_[k] * m[k];
  return {to_mean_.x + u * to_scale_, to_mean_.y + v * to_scale_};
}

double PointTransform::helmert_scale() const { return std::hypot(cx_[1], cy_[1]) * to_scale_ / from_scale_; }
double PointTransform::helmert_rotation() const { return std::atan2(cy_[1], cx_[1]); }

std::optional<double> leave_one_out_rms(TransformKind kind, const std::vector<PlanePoint>& from, const std::vector<PlanePoint>& to) {
  const size_t n = from.size();
  if (n <= min_points(kind)) return std::nullopt;
  double sum = 0;
  for (size_t i = 0; i < n; ++i) {
    std::vector<PlanePoint> f, g;
    for (size_t j = 0; j < n; ++j)
      if (j != i) f.push_back(from[j]), g.push_back(to[j]);
    const auto t = PointTransform::fit(kind, f, g);
    if (!t) return std::nullopt;
    const PlanePoint p = t->apply(from[i]);
    sum += std::pow(p.x - to[i].x, 2) + std::pow(p.y - to[i].y, 2);
  }
  return std::sqrt(sum / static_cast<double>(n));
}

PlanePoint azimuthal_equidistant(double lon0, double lat0, double lon, double lat) {
  const double p0 = lat0 * kDeg, p = lat * kDeg, dl = (lon - lon0) * kDeg;
  const double cos_c = std::clamp(std::sin(p0) * std::sin(p) + std::cos(p0) * std::cos(p) * std::cos(dl), -1.0, 1.0);
  const double c = std::acos(cos_c);
  const double k = c < 1e-12 ? 1.0 : c / std::sin(c);
  return {kEarthRadius * k * std::cos(p) * std::sin(dl), kEarthRadius * k * (std::cos(p0) * std::sin(p) - std::sin(p0) * std::cos(p) * std::cos(dl))};
}

void inverse_azimuthal_equidistant(double lon0, double lat0, PlanePoint q, double& lon, double& lat) {
  const double p0 = lat0 * kDeg, rho = std::hypot(q.x, q.y), c = rho / kEarthRadius;
  if (rho < 1e-9) {
    lon = lon0, lat = lat0;
    return;
  }
  const double p = std::asin(std::clamp(std::cos(c) * std::sin(p0) + q.y * std::sin(c) * std::cos(p0) / rho, -1.0, 1.0));
  const double dl = std::atan2(q.x * std::sin(c), rho * std::cos(p0) * std::cos(c) - q.y * std::sin(p0) * std::sin(c));
  lat = p / kDeg;
  lon = lon0 + dl / kDeg;
  if (lon > 180) lon -= 360;
  if (lon < -180) lon += 360;
}

double great_circle_metres(double lon1, double lat1, double lon2, double lat2) {
  const double a = std::pow(std::sin((lat2 - lat1) * kDeg / 2), 2) +
                   std::cos(lat1 * kDeg) * std::cos(lat2 * kDeg) * std::pow(std::sin((lon2 - lon1) * kDeg / 2), 2);
  return 2 * kEarthRadius * std::asin(std::min(1.0, std::sqrt(a)));
}

}  // namespace light::geo

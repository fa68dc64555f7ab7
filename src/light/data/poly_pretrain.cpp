#include "light/data/poly_pretrain.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <opencv2/imgproc.hpp>

#include "light/data/inputs.h"
#include "light/data/tile_image.h"
#include "light/image/resize.h"
#include "light/maptext.h"
#include "light/error.h"
#include "light/util/json.h"
#include "light/util/fs.h"
#include "light/geometry/polygon.h"

namespace light::data {

namespace fs = std::filesystem;
using geometry::Point;

namespace {

std::string image_for_stem(const std::string& dir, const std::string& stem, const std::string& source) {
  for (const char* ext : {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".PNG", ".JPG", ".JPEG"}) {
    const fs::path p = fs::path(dir) / (stem + ext);
    if (fs::exists(p)) return p.string();
  }
  throw Error(source + ": no image \"" + stem + ".png\" (or .jpg, .tif) in " + dir);
}

}  // namespace

void PolyTileSource::to_model(std::vector<Point>& polygon, const std::string& where) const {
  std::string why;
  if (to_model_polygon(polygon, polygons_, &why)) return;
  if (degenerate_++ == 0) first_degenerate_ = where + ": " + why;
}

PolyTileSource::PolyTileSource(const std::string& data, const std::string& images_dir, PolygonPoints polygons)
    : images_dir_(images_dir), polygons_(polygons) {
  if (fs::is_directory(data)) {
    for (const auto& e : fs::directory_iterator(data))
      if (e.is_regular_file() && e.path().extension() == ".json") files_.push_back(e.path().string());
    std::sort(files_.begin(), files_.end());
    if (files_.empty()) throw Error(data + ": no .json file in this folder (--data)");
    // Every file's image must be there before a run starts (the files themselves are read later).
    for (const auto& f : files_) image_for_stem(images_dir, fs::path(f).stem().string(), f);
    count_ = files_.size();
    return;
  }
  maptext::ReadOptions ro;
  ro.kind = maptext::Kind::Predictions;  // ground truth or spotter output alike
  const maptext::Dataset tiles = maptext::read_maptext(data, ro);
  for (const auto& t : tiles) {
    PolyTile pt;
    pt.image = t.image;
    pt.image_path = data::find_tile_image(images_dir, t.image);
    const auto [w, h] = image::image_size(pt.image_path);
    pt.width = w, pt.height = h;
    for (const auto& g : t.groups)
      for (const auto& word : g) {
        if (word.ignore()) continue;  // illegible or truncated, as the reference's label filter
        if (word.vertices.size() < 3) {
          ++skipped_;
          continue;
        }
        pt.polygons.push_back(word.vertices);
        to_model(pt.polygons.back(), data + ": image \"" + t.image + "\", word \"" + word.text.value_or("") + "\": vertices");
        pt.texts.push_back(word.text.value_or(""));
      }
    tiles_.push_back(std::move(pt));
  }
  if (tiles_.empty()) throw Error(data + ": no tiles (--data)");
  count_ = tiles_.size();
}

PolyTile PolyTileSource::tile(size_t i) const {
  if (!files_.empty()) {
    const std::string& path = files_.at(i);
    PolyTile pt;
    pt.image = fs::path(path).stem().string();
    nlohmann::json j;
    try {
      j = parse_json(read_file(path), path);
    } catch (const nlohmann::json::exception& e) {
      throw Error(path + ": not valid JSON: " + e.what());
    }
    if (!j.is_object() || !j.contains("annotations") || !j["annotations"].is_array())
      throw Error(path + ": expected an object with an \"annotations\" array");
    const auto& anns = j["annotations"];
    for (size_t a = 0; a < anns.size(); ++a) {
      const std::string where = path + ": annotations[" + std::to_string(a) + "].pts";
      if (!anns[a].is_object() || !anns[a].contains("pts") || !anns[a]["pts"].is_array())
        throw Error(where + ": missing, expected [[x, y], ...]");
      std::vector<Point> poly;
      for (const auto& p : anns[a]["pts"]) {
        if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
          throw Error(where + ": expected [[x, y], ...] with numbers");
        poly.push_back({p[0].get<double>(), p[1].get<double>()});
      }
      if (poly.size() < 3) {
        ++skipped_;
        continue;
      }
      to_model(poly, where);
      pt.polygons.push_back(std::move(poly));
      const auto text = anns[a].find("text");
      pt.texts.push_back(text != anns[a].end() && text->is_string() ? text->get<std::string>() : std::string());
    }
    pt.image_path = image_for_stem(images_dir_, pt.image, path);
    const auto [w, h] = image::image_size(pt.image_path);
    pt.width = w, pt.height = h;
    return pt;
  }
  return tiles_.at(i);
}

double min_area_rect_angle(const std::vector<Point>& points) {
  std::vector<cv::Point2f> pts;
  for (const Point& p : points) pts.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
  if (pts.empty()) return 0.0;
  const cv::RotatedRect r = cv::minAreaRect(pts);
  double angle = r.angle;
  if (r.size.width < r.size.height) angle += 90.0;
  return angle / 180.0;
}

std::vector<int64_t> closest_polygons(const std::vector<std::vector<Point>>& polys) {
  const size_t n = polys.size();
  std::vector<int64_t> out(n, -1);
  // Minimum vertex-to-vertex squared distance of every pair (n is at most a few hundred per tile).
  std::vector<double> best(n, std::numeric_limits<double>::infinity());
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      double d = std::numeric_limits<double>::infinity();
      for (const Point& a : polys[i])
        for (const Point& b : polys[j]) d = std::min(d, (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y));
      if (d < best[i]) best[i] = d, out[i] = static_cast<int64_t>(j);
      if (d < best[j] || (d == best[j] && static_cast<int64_t>(i) < out[j])) best[j] = d, out[j] = static_cast<int64_t>(i);
    }
  return out;
}

void vertex_dropout(std::vector<Point>& pts, std::mt19937_64& rng) {
  constexpr size_t kPoints = kPolygonValues / 2;
  if (pts.size() != kPoints) return;
  std::uniform_real_distribution<double> U(0.0, 1.0);
  std::vector<double> u(kPoints);
  for (auto& x : u) x = U(rng);
  u[0] = u[7] = u[8] = u[15] = 1.0;
  const double q = U(rng);
  std::vector<Point> keep;
  for (size_t k = 0; k < kPoints; ++k)
    if (u[k] > q) keep.push_back(pts[k]);
  pts = std::move(keep);
}

PolySample make_poly_sample(const PolyTile& tile, const PolySampleOptions& opt, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0.0, 1.0);
  constexpr size_t kPoints = kPolygonValues / 2;
  std::vector<const std::vector<Point>*> kept;
  for (const auto& p : tile.polygons)
    if (p.size() >= 3) kept.push_back(&p);
  std::shuffle(kept.begin(), kept.end(), rng);
  if (kept.size() > opt.max_polygons) kept.resize(opt.max_polygons);
  PolySample s;
  const size_t n = kept.size();
  s.count = n;
  s.values.assign(n * kPolygonValues, kPolygonPad);
  s.original.assign(n * kPolygonValues, kPolygonPad);
  s.masked.assign(n * kPolygonValues, 0);
  s.angle.resize(n), s.center_x.resize(n), s.center_y.resize(n), s.distance.resize(n);
  std::vector<std::vector<Point>> normalised(n);
  const double W = std::max(1, tile.width), H = std::max(1, tile.height);
  for (size_t i = 0; i < n; ++i) {
    std::vector<Point> pts(kept[i]->begin(), kept[i]->begin() + static_cast<long>(std::min(kPoints, kept[i]->size())));
    if (opt.vertex_dropout) vertex_dropout(pts, rng);
    for (auto& p : pts) p = {p.x / W, p.y / H};
    double x0 = pts[0].x, x1 = pts[0].x, y0 = pts[0].y, y1 = pts[0].y;
    for (const auto& p : pts) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    s.center_x[i] = static_cast<float>((x0 + x1) / 2);
    s.center_y[i] = static_cast<float>((y0 + y1) / 2);
    s.distance[i] = static_cast<float>(std::hypot(pts.back().x - pts.front().x, pts.back().y - pts.front().y));
    s.angle[i] = static_cast<float>(min_area_rect_angle(pts));
    float* orig = &s.original[i * kPolygonValues];
    for (size_t k = 0; k < pts.size(); ++k) orig[2 * k] = static_cast<float>(pts[k].x), orig[2 * k + 1] = static_cast<float>(pts[k].y);
    std::copy(orig, orig + kPolygonValues, &s.values[i * kPolygonValues]);
    // Coordinate masking: max(1, int(ratio * points)) distinct points, x or y of each (50/50).
    const size_t P = pts.size();
    const size_t m = std::min(P, std::max<size_t>(1, static_cast<size_t>(opt.mask_ratio * static_cast<double>(P))));
    std::vector<size_t> idx(P);
    std::iota(idx.begin(), idx.end(), 0);
    for (size_t k = 0; k < m; ++k) std::swap(idx[k], idx[k + std::uniform_int_distribution<size_t>(0, P - 1 - k)(rng)]);
    for (size_t k = 0; k < m; ++k) {
      const size_t v = 2 * idx[k] + (U(rng) < 0.5 ? 0 : 1);
      s.values[i * kPolygonValues + v] = kMaskValue;
      s.masked[i * kPolygonValues + v] = 1;
    }
    normalised[i] = std::move(pts);
  }
  s.closest = closest_polygons(normalised);
  s.seed = rng();
  return s;
}

}  // namespace light::data

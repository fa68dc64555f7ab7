#include "light/geo/georef.h"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>
#include <gdal_alg.h>
#include <ogr_srs_api.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "light/error.h"
#include "light/geo/gdal.h"

namespace light::geo {

namespace {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string last_gdal_error() {
  const char* m = CPLGetLastErrorMsg();
  return m && *m ? std::string(": ") + m : std::string();
}

// Any CRS GDAL takes from a user ("EPSG:32613", WKT, PROJ strings) as WKT; `where` names it in errors.
std::string crs_wkt(const std::string& text, const std::string& where) {
  const size_t a = text.find_first_not_of(" \t\r\n"), b = text.find_last_not_of(" \t\r\n");
  const std::string crs = a == std::string::npos ? "" : text.substr(a, b - a + 1);
  OGRSpatialReferenceH srs = OSRNewSpatialReference(nullptr);
  if (OSRSetFromUserInput(srs, crs.c_str()) != OGRERR_NONE) {
    OSRDestroySpatialReference(srs);
    throw Error(where + ": not a coordinate reference system GDAL knows: \"" + crs + "\"");
  }
  char* wkt = nullptr;
  OSRExportToWkt(srs, &wkt);
  std::string out = wkt ? wkt : "";
  CPLFree(wkt);
  OSRDestroySpatialReference(srs);
  return out;
}

std::string crs_name(const std::string& wkt) {
  OGRSpatialReferenceH srs = OSRNewSpatialReference(wkt.c_str());
  const char* name = srs ? OSRGetName(srs) : nullptr;
  std::string out = name ? name : "unnamed CRS";
  if (srs) OSRDestroySpatialReference(srs);
  return out;
}

const char* method_name(Transform t, bool geotransform) {
  switch (t) {
    case Transform::Affine: return "affine";
    case Transform::Poly1: return "polynomial 1";
    case Transform::Poly2: return "polynomial 2";
    case Transform::Poly3: return "polynomial 3";
    case Transform::Tps: return "thin-plate spline";
    case Transform::Auto: break;
  }
  return geotransform ? "affine" : "polynomial (order by GCP count)";
}

}  // namespace

PointsFile read_qgis_points(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot read the .points file");
  PointsFile out;
  std::string line;
  int number = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (line.rfind("#CRS:", 0) == 0) {
        out.crs = line.substr(5);
        while (!out.crs.empty() && out.crs.front() == ' ') out.crs.erase(0, 1);
      }
      continue;
    }
    if (!header) {  // mapX,mapY,sourceX,sourceY,enable[,dX,dY,residual]
      if (line.rfind("mapX,mapY,sourceX,sourceY", 0) != 0 && line.rfind("mapX,mapY,pixelX,pixelY", 0) != 0)
        throw Error(path + ": line " + std::to_string(number) + ": expected the header mapX,mapY,sourceX,sourceY,enable (a QGIS georeferencer .points file)");
      header = true;
      continue;
    }
    std::vector<double> v;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) {
      try {
        size_t used = 0;
        v.push_back(std::stod(cell, &used));
        if (used != cell.size() && cell.find_first_not_of(" \t", used) != std::string::npos) throw std::invalid_argument(cell);
      } catch (const std::exception&) {
        throw Error(path + ": line " + std::to_string(number) + ": \"" + cell + "\" is not a number");
      }
    }
    if (v.size() < 4) throw Error(path + ": line " + std::to_string(number) + ": expected mapX,mapY,sourceX,sourceY[,enable,...]");
    for (double x : v)
      if (!std::isfinite(x)) throw Error(path + ": line " + std::to_string(number) + ": a number is not finite");
    if (v.size() >= 5 && v[4] == 0) continue;  // disabled in QGIS
    out.points.push_back({v[2], -v[3], v[0], v[1], number});
  }
  if (!header) throw Error(path + ": no mapX,mapY,sourceX,sourceY header (a QGIS georeferencer .points file)");
  return out;
}

namespace {

void* make_transformer(GDALDatasetH ds, const std::string& src_wkt, Transform t, const std::string& where) {
  char** opts = nullptr;
  opts = CSLSetNameValue(opts, "DST_SRS", crs_wkt("EPSG:4326", "WGS 84").c_str());
  if (!src_wkt.empty()) opts = CSLSetNameValue(opts, "SRC_SRS", src_wkt.c_str());
  switch (t) {
    case Transform::Affine: opts = CSLSetNameValue(opts, "METHOD", "GEOTRANSFORM"); break;
    case Transform::Poly1: case Transform::Poly2: case Transform::Poly3:
      opts = CSLSetNameValue(opts, "METHOD", "GCP_POLYNOMIAL");
      opts = CSLSetNameValue(opts, "MAX_GCP_ORDER", t == Transform::Poly1 ? "1" : t == Transform::Poly2 ? "2" : "3");
      break;
    case Transform::Tps: opts = CSLSetNameValue(opts, "METHOD", "GCP_TPS"); break;
    case Transform::Auto: break;
  }
  CPLErrorReset();
  void* tr = GDALCreateGenImgProjTransformer2(ds, nullptr, opts);
  CSLDestroy(opts);
  if (!tr) throw Error(where + ": GDAL cannot make a transformation to longitude/latitude" + last_gdal_error());
  return tr;
}

}  // namespace


std::unique_ptr<Georeference> Georeference::of_image(const std::string& image_path, const GeorefOptions& opt) {
  init_gdal();
  CPLErrorReset();
  GDALDatasetH ds = GDALOpen(image_path.c_str(), GA_ReadOnly);
  if (!ds) throw Error(image_path + ": GDAL cannot open the image" + last_gdal_error());
  GdalDataset hold(ds);
  double gt[6];
  const bool has_gt = GDALGetGeoTransform(ds, gt) == CE_None;
  const int gcps = GDALGetGCPCount(ds);
  const std::filesystem::path p(image_path);
  if (!has_gt && gcps == 0) {
    // A georeferencing file beside the image that GDAL reads nothing from is a mistake to name, not
    // an image without georeferencing.
    std::string ext = p.extension().string();
    if (ext.size() > 1) ext = ext.substr(1);
    std::vector<std::string> sidecars = {p.string() + ".aux.xml", (p.parent_path() / p.stem()).string() + ".wld",
                                         (p.parent_path() / p.stem()).string() + "." + ext + "w"};
    if (ext.size() >= 2) sidecars.push_back((p.parent_path() / p.stem()).string() + "." + ext.front() + ext.back() + "w");
    for (const std::string& f : sidecars)
      if (std::filesystem::is_regular_file(f))
        throw Error(f + ": lies beside " + p.filename().string() + " but GDAL reads no georeferencing from it (a world file holds six "
                    "numbers, one a line, the pixel sizes not 0; a .aux.xml a GeoTransform or GCPs): fix or remove it");
    return nullptr;
  }
  const std::string own = has_gt ? GDALGetProjectionRef(ds) : GDALGetGCPProjection(ds);
  const std::string prj_beside = (p.parent_path() / p.stem()).string() + ".prj";
  if (!opt.crs.empty() && (!own.empty() || std::filesystem::is_regular_file(prj_beside)))
    throw Error("--georef-crs " + opt.crs + ": " + image_path + " names its own coordinate system (" +
                (own.empty() ? prj_beside : "in the image") + ": " + crs_name(own.empty() ? crs_wkt(read_text_file(prj_beside), prj_beside) : own) +
                "); --georef-crs is for sources that name none: leave it out, or fix the image's");
  // Without a CRS in the image: --georef-crs, else a .prj beside it (a world file's, ESRI's habit;
  // GDAL reads .prj for few formats). Either is handed to GDAL as the source CRS.
  std::string src;
  if (own.empty()) {
    const std::string& prj = prj_beside;
    if (!opt.crs.empty()) {
      src = crs_wkt(opt.crs, "--georef-crs");
    } else if (std::filesystem::is_regular_file(prj)) {
      std::ifstream in(prj);
      std::stringstream text;
      text << in.rdbuf();
      src = crs_wkt(text.str(), prj);
    } else {
      throw Error(image_path + ": georeferenced (" + (has_gt ? "a geotransform" : std::to_string(gcps) + " GCPs") +
                  ") but in no named coordinate system (no .prj beside it); give --georef-crs (e.g. EPSG:3857)");
    }
  }
  if (opt.transform == Transform::Affine && !has_gt) throw Error(image_path + ": --georef-transform affine needs a geotransform; the image has GCPs only");
  if (opt.transform != Transform::Affine && opt.transform != Transform::Auto && gcps == 0)
    throw Error(image_path + ": --georef-transform " + method_name(opt.transform, false) + " needs ground control points; the image has a geotransform only");
  std::unique_ptr<Georeference> g(new Georeference());
  g->transformer_ = make_transformer(ds, src, opt.transform, image_path);
  g->source_ = image_path;
  g->description_ = (has_gt && (opt.transform == Transform::Auto || opt.transform == Transform::Affine) ? std::string("geotransform")
                                                                                                        : std::to_string(gcps) + " GCPs") +
                    " (" + crs_name(own.empty() ? src : own) + "), " + method_name(opt.transform, has_gt);
  return g;
}

std::unique_ptr<Georeference> Georeference::of_points(const std::string& points_path, int width, int height, const GeorefOptions& opt) {
  init_gdal();
  const PointsFile pf = read_qgis_points(points_path);
  if (pf.points.size() < 3) throw Error(points_path + ": " + std::to_string(pf.points.size()) + " enabled point(s); at least 3 are needed");
  if (pf.crs.empty() && opt.crs.empty()) throw Error(points_path + ": no \"#CRS:\" line; give --georef-crs (the CRS of mapX, mapY)");
  if (opt.transform == Transform::Affine) throw Error(points_path + ": --georef-transform affine needs a geotransform; a .points file has GCPs (use poly1)");
  const std::string wkt = pf.crs.empty() ? crs_wkt(opt.crs, "--georef-crs") : crs_wkt(pf.crs, points_path + ": #CRS");
  GDALDriverH mem = GDALGetDriverByName("MEM");
  if (!mem) throw Error("GDAL has no MEM driver");
  // Every point on the image (a margin of 1 %): QGIS writes sourceY as minus the row, so a positive
  // sourceY lies above the image; a point far off it is a mistake, not a control point.
  for (const GroundControlPoint& p : pf.points)
    if (!(p.pixel_x >= -0.01 * width && p.pixel_x <= 1.01 * width && p.pixel_y >= -0.01 * height && p.pixel_y <= 1.01 * height))
      throw Error(points_path + ": line " + std::to_string(p.line) + ": sourceX " + std::to_string(p.pixel_x) + ", sourceY " + std::to_string(-p.pixel_y) +
                  " is off the " + std::to_string(width) + " x " + std::to_string(height) + " image (QGIS writes sourceY as minus the row: "
                  "a point on the image has sourceY from 0 down to -" + std::to_string(height) + ")");
  GDALDatasetH ds = GDALCreate(mem, "", std::max(1, width), std::max(1, height), 0, GDT_Byte, nullptr);
  if (!ds) throw Error(points_path + ": GDAL cannot make an in-memory dataset" + last_gdal_error());
  std::vector<GDAL_GCP> gcps(pf.points.size());
  std::vector<std::string> ids(pf.points.size());
  GDALInitGCPs(static_cast<int>(gcps.size()), gcps.data());
  for (size_t i = 0; i < gcps.size(); ++i) {
    gcps[i].dfGCPPixel = pf.points[i].pixel_x;
    gcps[i].dfGCPLine = pf.points[i].pixel_y;
    gcps[i].dfGCPX = pf.points[i].map_x;
    gcps[i].dfGCPY = pf.points[i].map_y;
  }
  GDALSetGCPs(ds, static_cast<int>(gcps.size()), gcps.data(), wkt.c_str());
  GDALDeinitGCPs(static_cast<int>(gcps.size()), gcps.data());
  GdalDataset hold(ds);
  std::unique_ptr<Georeference> g(new Georeference());
  g->transformer_ = make_transformer(ds, "", opt.transform, points_path);
  g->source_ = points_path;
  g->description_ = std::to_string(pf.points.size()) + " GCPs of " + points_path + " (" + crs_name(wkt) + "), " + method_name(opt.transform, false);
  return g;
}

Georeference::~Georeference() {
  if (transformer_) GDALDestroyGenImgProjTransformer(transformer_);
}

std::vector<maptext::Point> Georeference::to_lonlat(const std::vector<maptext::Point>& pixels) const {
  const size_t n = pixels.size();
  std::vector<double> x(n), y(n), z(n, 0.0);
  std::vector<int> ok(n, 0);
  for (size_t i = 0; i < n; ++i) x[i] = pixels[i].x, y[i] = pixels[i].y;
  if (n > 0 && !GDALGenImgProjTransform(transformer_, FALSE, static_cast<int>(n), x.data(), y.data(), z.data(), ok.data()))
    throw Error(source_ + ": GDAL could not transform pixel coordinates" + last_gdal_error());
  std::vector<maptext::Point> out(n);
  for (size_t i = 0; i < n; ++i) {
    if (!ok[i] || !std::isfinite(x[i]) || !std::isfinite(y[i]))
      throw Error(source_ + ": pixel (" + std::to_string(pixels[i].x) + ", " + std::to_string(pixels[i].y) +
                  ") has no longitude/latitude under this georeferencing");
    if (!(std::abs(y[i]) <= 90 && std::abs(x[i]) <= 360))
      throw Error(source_ + ": pixel (" + std::to_string(pixels[i].x) + ", " + std::to_string(pixels[i].y) + ") lands at longitude " +
                  std::to_string(x[i]) + ", latitude " + std::to_string(y[i]) + ", off the globe: the georeferencing (" + description_ +
                  ") cannot be right (map units read as degrees: a CRS that does not match the coordinates?)");
    out[i] = {x[i], y[i]};
  }
  return out;
}

}  // namespace light::geo

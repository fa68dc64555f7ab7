#include "light/geo/georeference_files.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

namespace light::geo {

namespace {

const char* kWgs84Wkt =
    "GEOGCRS[\"WGS 84\",DATUM[\"World Geodetic System 1984\",ELLIPSOID[\"WGS 84\",6378137,298.257223563,LENGTHUNIT[\"metre\",1]]],"
    "PRIMEM[\"Greenwich\",0,ANGLEUNIT[\"degree\",0.0174532925199433]],CS[ellipsoidal,2],AXIS[\"geodetic latitude (Lat)\",north,ORDER[1],"
    "ANGLEUNIT[\"degree\",0.0174532925199433]],AXIS[\"geodetic longitude (Lon)\",east,ORDER[2],ANGLEUNIT[\"degree\",0.0174532925199433]],"
    "ID[\"EPSG\",4326]]";

std::string number(double v, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

std::string xml_escaped(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

nlohmann::ordered_json allmaps_transformation(TransformKind kind) {
  if (kind == TransformKind::Helmert) return {{"type", "helmert"}};
  if (kind == TransformKind::ThinPlateSpline) return {{"type", "thinPlateSpline"}};
  return {{"type", "polynomial"}, {"options", {{"order", polynomial_order(kind)}}}};
}

}  // namespace

std::string qgis_points(const MapNames& m) {
  std::string o = std::string("#CRS: ") + kWgs84Wkt + "\nmapX,mapY,sourceX,sourceY,enable,dX,dY,residual\n";
  for (const NameControlPoint& g : m.result.gcps)
    o += number(g.lon, 8) + "," + number(g.lat, 8) + "," + number(g.x, 3) + "," + number(-g.y, 3) + ",1,0,0," + number(g.residual_px, 3) + "\n";
  return o;
}

std::string gdal_vrt(const MapNames& m, const std::string& image_path, int bands) {
  std::string o = "<VRTDataset rasterXSize=\"" + std::to_string(m.width) + "\" rasterYSize=\"" + std::to_string(m.height) + "\">\n";
  o += "  <GCPList Projection=\"EPSG:4326\">\n";
  int id = 1;
  for (const NameControlPoint& g : m.result.gcps)
    o += "    <GCP Id=\"" + std::to_string(id++) + "\" Info=\"" + xml_escaped(m.phrases[g.label].text()) + "\" Pixel=\"" + number(g.x, 3) +
         "\" Line=\"" + number(g.y, 3) + "\" X=\"" + number(g.lon, 8) + "\" Y=\"" + number(g.lat, 8) + "\"/>\n";
  o += "  </GCPList>\n";
  for (int b = 1; b <= bands; ++b)
    o += "  <VRTRasterBand dataType=\"Byte\" band=\"" + std::to_string(b) + "\">\n    <SimpleSource>\n      <SourceFilename relativeToVRT=\"0\">" +
         xml_escaped(image_path) + "</SourceFilename>\n      <SourceBand>" + std::to_string(b) + "</SourceBand>\n    </SimpleSource>\n  </VRTRasterBand>\n";
  return o + "</VRTDataset>\n";
}

std::string iiif_georeference_annotation(const MapNames& m, const std::string& iiif_base, const std::string& image_uri) {
  const std::string w = std::to_string(m.width), h = std::to_string(m.height);
  nlohmann::ordered_json source = {{"id", iiif_base.empty() ? image_uri : iiif_base + "/" + m.stem},
                                   {"type", iiif_base.empty() ? "Canvas" : "ImageService2"},
                                   {"height", m.height},
                                   {"width", m.width}};
  nlohmann::ordered_json features = nlohmann::ordered_json::array();
  for (const NameControlPoint& g : m.result.gcps)
    features.push_back({{"type", "Feature"},
                        {"properties", {{"resourceCoords", {std::round(g.x * 100) / 100, std::round(g.y * 100) / 100}}, {"name", m.phrases[g.label].text()}}},
                        {"geometry", {{"type", "Point"}, {"coordinates", {g.lon, g.lat}}}}});
  const nlohmann::ordered_json a = {
      {"@context", {"http://iiif.io/api/extension/georef/1/context.json", "http://iiif.io/api/presentation/3/context.json"}},
      {"type", "Annotation"},
      {"motivation", "georeferencing"},
      {"target",
       {{"type", "SpecificResource"},
        {"source", source},
        {"selector", {{"type", "SvgSelector"}, {"value", "<svg width=\"" + w + "\" height=\"" + h + "\"><polygon points=\"0,0 " + w + ",0 " + w + "," + h + " 0," + h + "\" /></svg>"}}}}},
      {"body", {{"type", "FeatureCollection"}, {"transformation", allmaps_transformation(m.result.kind)}, {"features", features}}}};
  return a.dump(1) + "\n";
}

std::string georeferences_json(const std::vector<MapNames>& maps) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const MapNames& m : maps) {
    const double diagonal = std::hypot(m.width, m.height);
    nlohmann::ordered_json j = {{"image", m.image}, {"width", m.width}, {"height", m.height}, {"georeferenced", m.result.ok}};
    if (!m.result.ok) {
      if (!m.result.reason.empty()) j["reason"] = m.result.reason;
    } else {
      j["transform"] = transform_name(m.result.kind);
      j["leave_one_out_px"] = std::round(m.result.loo_rms_px * 100) / 100;
      j["leave_one_out_of_diagonal"] = std::round(m.result.loo_rms_px / diagonal * 1e5) / 1e5;
      nlohmann::ordered_json tried = nlohmann::ordered_json::object();
      for (const auto& [kind, e] : m.result.tried) tried[transform_name(kind)] = std::round(e * 100) / 100;
      j["leave_one_out_by_transform"] = tried;
      double lon = 0, lat = 0;
      m.result.lonlat(0.5 * m.width, 0.5 * m.height, lon, lat);
      j["centre"] = {lon, lat};
      j["gcps"] = nlohmann::ordered_json::array();
      for (const NameControlPoint& g : m.result.gcps) {
        const PlaceCandidate& c = m.matches[g.label].candidates[g.candidate];
        j["gcps"].push_back({{"group", m.phrases[g.label].group},
                             {"text", m.phrases[g.label].text()},
                             {"id", c.place.id},
                             {"name", c.place.name},
                             {"x", std::round(g.x * 100) / 100},
                             {"y", std::round(g.y * 100) / 100},
                             {"lon", g.lon},
                             {"lat", g.lat},
                             {"residual_px", std::round(g.residual_px * 100) / 100}});
      }
    }
    j["places"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < m.phrases.size(); ++i) {
      const auto& cands = m.matches[i].candidates;
      if (cands.empty()) continue;
      const int k = m.placed.empty() ? -1 : m.placed[i];
      const PlaceCandidate& c = cands[k >= 0 ? static_cast<size_t>(k) : 0];  // unplaced: the best, for a person to judge
      j["places"].push_back({{"group", m.phrases[i].group},
                             {"text", m.phrases[i].text()},
                             {"id", c.place.id},
                             {"name", c.place.name},
                             {"score", std::round(c.score * 1000) / 1000},
                             {"where_the_map_puts_it", k >= 0},
                             {"accepted", m.accepted(i)}});
    }
    out.push_back(std::move(j));
  }
  return out.dump(1) + "\n";
}

int image_bands(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(64 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  const auto byte = [&](size_t i) { return i < head.size() ? static_cast<unsigned char>(head[i]) : 0u; };
  if (head.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0) {
    switch (byte(25)) {  // IHDR colour type
      case 0: case 3: return 1;
      case 4: return 2;
      case 2: return 3;
      case 6: return 4;
    }
    return 3;
  }
  if (byte(0) == 0xFF && byte(1) == 0xD8) {
    for (size_t i = 2; i + 9 < head.size();) {
      if (byte(i) != 0xFF) return 3;
      const unsigned marker = byte(i + 1);
      const size_t len = (byte(i + 2) << 8) | byte(i + 3);
      if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) return static_cast<int>(byte(i + 9));
      i += 2 + len;
    }
  }
  return 3;
}

}  // namespace light::geo

#include "light/data/model_polygons.h"

#include "light/error.h"
#include "light/geometry/polygon.h"

namespace light::data {

namespace {
constexpr int kModelPoints = 16;
constexpr size_t kExamples = 5;
}  // namespace

PolygonPoints parse_polygon_points(const std::string& name, const std::string& where) {
  if (name == "resample") return PolygonPoints::Resample;
  if (name == "keep") return PolygonPoints::Keep;
  throw Error(where + ": expected \"resample\" or \"keep\", got \"" + name + "\"");
}

const char* polygon_points_name(PolygonPoints p) { return p == PolygonPoints::Resample ? "resample" : "keep"; }

bool to_model_polygon(std::vector<maptext::Point>& vertices, PolygonPoints policy, std::string* why) {
  if (policy == PolygonPoints::Keep || vertices.size() == kModelPoints) return true;
  geometry::Resampled r = geometry::resample_word_polygon(vertices, kModelPoints);
  if (!r.ok) {
    if (why) *why = r.why;
    return false;
  }
  vertices = std::move(r.polygon);
  return true;
}

maptext::Tile model_polygons(const maptext::Tile& tile, PolygonPoints policy, const std::string& source, PolygonReport* report) {
  maptext::Tile out = tile;
  if (policy == PolygonPoints::Keep) {
    if (report) report->words += tile.word_count();
    return out;
  }
  for (size_t g = 0; g < out.groups.size(); ++g)
    for (size_t w = 0; w < out.groups[g].size(); ++w) {
      maptext::Word& word = out.groups[g][w];
      if (report) ++report->words;
      if (word.vertices.size() == kModelPoints) continue;
      std::string why;
      if (to_model_polygon(word.vertices, policy, &why)) {
        if (report) ++report->resampled;
        continue;
      }
      if (!report) continue;
      ++report->degenerate;
      if (report->examples.size() < kExamples)
        report->examples.push_back(source + ": image \"" + tile.image + "\", group " + std::to_string(g) + ", word " +
                                   std::to_string(w) + (word.text ? " (\"" + *word.text + "\")" : std::string()) +
                                   ": vertices: " + why);
    }
  return out;
}

void apply_model_polygons(maptext::Dataset& data, PolygonPoints policy, const std::string& source, PolygonReport* report) {
  if (policy == PolygonPoints::Keep) {
    if (report)
      for (const auto& t : data) report->words += t.word_count();
    return;
  }
  for (auto& t : data) t = model_polygons(t, policy, source, report);
}

std::string degenerate_note(const PolygonReport& r) {
  if (r.degenerate == 0) return "";
  std::string s = std::to_string(r.degenerate) + " of " + std::to_string(r.words) +
                  " word polygon(s) could not be resampled to 16 points and reach the model as given (first 16 points):";
  for (const auto& e : r.examples) s += "\n  " + e;
  if (r.degenerate > r.examples.size()) s += "\n  ... and " + std::to_string(r.degenerate - r.examples.size()) + " more";
  return s;
}

maptext::Tile polygons_at_height(maptext::Tile tile, double share) {
  if (share == 1.0) return tile;
  for (auto& group : tile.groups)
    for (auto& word : group) {
      auto& v = word.vertices;
      const size_t n = v.size();
      if (n < 4 || n % 2) continue;
      for (size_t k = 0; k < n / 2; ++k) {
        maptext::Point& a = v[k];
        maptext::Point& b = v[n - 1 - k];
        const double mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
        a = maptext::Point{mx + (a.x - mx) * share, my + (a.y - my) * share};
        b = maptext::Point{mx + (b.x - mx) * share, my + (b.y - my) * share};
      }
    }
  return tile;
}

}  // namespace light::data

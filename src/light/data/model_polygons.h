// Word polygons as the model is fed them (issue 24). LIGHT's polygon encoder reads 16 points: the
// lower edge from the word's start, then the upper edge back (the order `light synth` writes and the
// paper's spotters were resampled to). Two policies:
//   resample (the default for models trained here): a polygon of any other vertex count becomes 16
//            points evenly along its outline (geometry::resample_word_polygon); 16-point polygons are
//            left as they are;
//   keep     (the reference code's, and so released checkpoints' and the parity fixtures'): the first
//            16 points, shorter polygons padded, as data/inputs.cpp lays them out.
// A model folder's config.json and a training run's options.json record which one the model was
// trained with, so that linking feeds it the same way.
#pragma once
#include <string>
#include <vector>

#include "light/maptext.h"

namespace light::data {

enum class PolygonPoints { Resample, Keep };

// "resample" or "keep"; anything else is a light::Error naming `where` (a flag or a file and key).
PolygonPoints parse_polygon_points(const std::string& name, const std::string& where);
const char* polygon_points_name(PolygonPoints p);

// What the policy did to a dataset. A degenerate polygon (fewer than 3 distinct points, or no area)
// cannot be resampled: it is fed as given (the first 16 points) and reported, never dropped.
struct PolygonReport {
  size_t words = 0, resampled = 0, degenerate = 0;
  std::vector<std::string> examples;  // the first few degenerate words, each naming the file, tile, group and word
};

// One polygon as the model will read it, in place. False (the polygon left as given, `why` set) when
// it is degenerate and cannot be resampled.
bool to_model_polygon(std::vector<maptext::Point>& vertices, PolygonPoints policy, std::string* why = nullptr);

// The tile with each word's vertices as the model will read them (texts, flags and grouping as they
// were). `source` names the file in the report's examples. With keep the tile comes back unchanged.
maptext::Tile model_polygons(const maptext::Tile& tile, PolygonPoints policy, const std::string& source,
                             PolygonReport* report = nullptr);
// The same for every tile, in place.
void apply_model_polygons(maptext::Dataset& data, PolygonPoints policy, const std::string& source,
                          PolygonReport* report = nullptr);

// The tile with each word's polygon at `share` of its height: each vertex moved toward the one facing
// it (k and n-1-k: MapText's lower edge, then the upper edge back) about their middle; a polygon of an
// odd number of vertices is left as it is. Texts, flags and grouping as they were.
maptext::Tile polygons_at_height(maptext::Tile tile, double share);

// A note for stderr when the report holds degenerate polygons ("" when none).
std::string degenerate_note(const PolygonReport& report);

}  // namespace light::data

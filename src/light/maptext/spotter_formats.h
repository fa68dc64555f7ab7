// Words as other spotters write them, read into MapText tiles (each word a group of its own, as
// `light link` takes them):
// - MapText JSON (a list of image entries): read_maptext's rules, as predictions;
// - the per-image files the LIGHT reference pretrains on ({"annotations": [{"text", "pts": [[x, y], ...]}]});
//   the image is the file's stem;
// - GeoJSON FeatureCollections of word polygons (mapKurator, MapReader): a Polygon (or the first
//   polygon of a MultiPolygon) per feature, its "text" property; the image is the file's stem, or
//   the features' "image" property. mapKurator writes y negated (so that QGIS shows the map upright):
//   a file whose every y is at most 0 is read with y negated back, and said so in the notes.
// A folder holds any number of per-image or GeoJSON files (*.json, *.geojson). Every problem is a
// light::Error naming the file, the entry and the field.
#pragma once
#include <string>
#include <vector>

#include "light/maptext.h"

namespace light::maptext {

struct SpotterWords {
  Dataset data;
  std::string format;              // "maptext", "annotations" or "geojson" ("mixed" for a folder of both)
  std::vector<std::string> notes;  // e.g. y negated back
};

SpotterWords read_spotter_words(const std::string& path);
// One file's text (`path` names it in errors and gives the image stem).
SpotterWords parse_spotter_words(const std::string& text, const std::string& path);

}  // namespace light::maptext

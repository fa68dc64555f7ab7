// `light link`'s options, shared by the heuristic path (cmd_link.cpp) and the model path
// (cmd_link_model.cpp, in light-full only).
#pragma once
#include <string>
#include <vector>

#include "light/export/phrases.h"
#include "light/maptext.h"

namespace light::cli {

struct LinkArgs {
  std::string method, model, images, tokenizer, device = "cpu", words, out, order = "path";
  std::string polygon_points;  // "" = the model config's
  // Output (docs/commands.md "Outputs"): maptext | geojson | webanno; georeferencing for GeoJSON
  // (none | auto | a QGIS .points file), its transform and fallback CRS; the IIIF canvas for webanno.
  std::string format = "maptext", georef = "none", georef_transform = "auto", georef_crs, iiif_canvas;
  int max_length = 1000;
  double no_successor_bias = 0;
  std::vector<double> weights{1.0, 1.0, 1.0};
  int threads = 0;
  bool quiet = false;
};

// Checks the output options before any work: a bad --format, --georef without GeoJSON, a missing
// .points file. light::Error naming the option.
void check_link_output(const LinkArgs& args);
// The words to link from --words: MapText, per-image spotter files, GeoJSON, or a folder of them
// (maptext/spotter_formats.h); notes on stderr.
maptext::Dataset read_link_words(const LinkArgs& args);
// Writes the linked tiles as --format asks (atomically, to --out).
void write_link_output(const LinkArgs& args, const maptext::Dataset& linked);
// Per image, its pixels to longitude/latitude as --georef asks (light-full: GDAL; the `light` binary
// hands a command line with --georef to light-full, its stand-in is never reached). Notes on stderr
// say which images have no georeferencing.
output::GeoreferenceFor georeference_for(const LinkArgs& args, const maptext::Dataset& linked);

}  // namespace light::cli

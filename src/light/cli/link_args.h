// `light link`'s options, shared by the heuristic path (cmd_link.cpp) and the model path
// (cmd_link_model.cpp, in light-full only).
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "light/export/phrases.h"
#include "light/geo/word_rereading.h"
#include "light/maptext.h"

namespace light::cli {

struct LinkArgs {
  std::string method, model, images, tokenizer, device = "cpu", words, out, order = "path";
  std::string spotter;  // with no --words: the spotter folder that reads --images first ("": the bundled one)
  bool small_lettering = false;  // with no --words: the spotter reads the map again enlarged (`light spot --small-lettering`)
  std::string polygon_points;  // "" = the model config's
  // Output (docs/commands.md "Outputs"): maptext | geojson | webanno; georeferencing for GeoJSON
  // (none | auto | a QGIS .points file), its transform and fallback CRS; the IIIF canvas for webanno.
  std::string format = "maptext", georef = "none", georef_transform = "auto", georef_crs, iiif_canvas;
  // Places (geo/place_matching.h): the gazetteer index each phrase is matched to ("": none, unless
  // --georef names, which takes the default).
  std::string gazetteer;
  // With --georef names: words a spotter read unsurely read again against the places near them
  // (geo/word_rereading.h): auto | none.
  std::string reread = "auto";
  // A collection (link/collection.h): a folder of words files or a manifest; -o is then a folder.
  std::string collection, shard;
  // A tiled spotter run's tiles (MAP_h<row>_w<col>) put back on their maps: the tiles' stride in
  // pixels (0: tiles stay tiles) and the overlap that makes two words one (data/tile_merge.h).
  double merge_tiles = 0, merge_ioa = 0.5;
  int max_length = 1000;
  std::string words_from = "auto";  // auto | spotter | annotation (link/model_linking.h)
  std::map<std::string, double> decoding;  // decoding settings given (model/decoding_settings.h), by key; the others the model config's
  std::vector<double> weights{1.0, 1.0, 1.0};
  int threads = 0;
  bool quiet = false;
  bool keep_repeated_words = false;  // ModelLinkOptions::split_repeats off
  std::string judge_rows;  // with --words: the rows to fit a line judge to, written here (link/line_judge.h)
};

// Checks the output options before any work: a bad --format, --georef without GeoJSON, a missing
// .points file. light::Error naming the option.
void check_link_output(const LinkArgs& args);
// The words to link from --words: MapText, per-image spotter files, GeoJSON, or a folder of them
// (maptext/spotter_formats.h); notes on stderr.
maptext::Dataset read_link_words(const LinkArgs& args);
maptext::Dataset read_link_words_file(const std::string& path, const LinkArgs& args);
// The linker a command runs, for one map's words whose images are in `images_dir`.
using LinkFn = std::function<maptext::Dataset(const maptext::Dataset& words, const std::string& images_dir)>;
// --collection: every map of this --shard not linked before, each to -o/NAME.EXT; a map that fails
// is named and the others go on; light::Error at the end when any failed.
void run_collection(const LinkArgs& args, const LinkFn& link);
// Writes the linked tiles as --format asks (atomically, to --out).
// `input`: the words as read (GeoJSON's per-word "index" is a word's place there).
void write_link_output(const LinkArgs& args, const maptext::Dataset& linked, const maptext::Dataset* input = nullptr);
// Per image, its pixels to longitude/latitude as --georef asks (light-full: GDAL; the `light` binary
// hands a command line with --georef to light-full, its stand-in is never reached). Notes on stderr
// say which images have no georeferencing.
output::GeoreferenceFor georeference_for(const LinkArgs& args, const maptext::Dataset& linked);

// --gazetteer, --georef names (link_places.cpp): each map's phrases matched to places and, with
// --georef names, the map georeferenced from them; the places and georeferences the outputs take.
struct LinkPlaces {
  output::PlacesFor places;
  output::GeoreferenceFor georeference;  // --georef names only
  // The linked words with the words read again (--reread) in place, each keeping what the spotter
  // read as "read_as"; null when no word was.
  std::shared_ptr<const maptext::Dataset> reread;
};
LinkPlaces link_places(const LinkArgs& args, const maptext::Dataset& linked);
// --reread (link_reread.cpp, light-full): per map image key, how likely the spotter's recogniser finds
// texts on a word's pixels in that image (the spotter of --spotter, else the bundled one, loaded at
// the first call); an empty function when the image is not found under --images.
using WordLikelihoodsFor = std::function<geo::WordLikelihoods(const std::string& image)>;
WordLikelihoodsFor reread_likelihoods(const LinkArgs& args);

}  // namespace light::cli

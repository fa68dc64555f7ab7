// light: link the words a text spotter found on a historical map into the phrases a person reads
// ("DENVER AND RIO GRANDE"). This header and the two it includes are the whole public API:
//
//   #include <light/light.h>
//   auto words  = light::maptext::read_maptext("words.json", {light::maptext::Kind::Predictions});
//   auto linked = light::link_by_heuristic(words);                       // or light::link_by_model(...)
//   light::maptext::write_maptext("phrases.json", linked);
//   auto scores = light::evaluate(ground_truth, linked);             // the MapText competition metrics
//   light::Linker linker;                       // the bundled model, loaded once for many calls
//   auto phrases = linker.link(words, "tiles/");                     // each tile's image in tiles/
//
// The same API in Python (pybind11): `import light` (docs/python.md).
//
// CMake: find_package(light) and target_link_libraries(app PRIVATE light::light). Every function
// throws light::Error (light/error.h) with a complete message on bad input or options.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "light/error.h"
#include "light/maptext.h"

namespace light {

// "0.1.0"
const char* version();

// ---- Images -------------------------------------------------------------------------------------
struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;  // row-major, 3 bytes a pixel (R, G, B): width * height * 3
};
// PNG, JPEG, TIFF, BMP, WebP, JPEG 2000 decoded to 8-bit RGB; light::Error naming the file.
Image read_image(const std::string& path);
// Where `light link --images DIR` finds a tile's image: DIR/key, else DIR/basename(key); "" if neither.
std::string find_tile_image(const std::string& images_dir, const std::string& image_key);

// ---- Words to link ------------------------------------------------------------------------------
// As `light link --words` reads them, each word its own group: MapText JSON, the LIGHT reference's
// per-image annotation files, GeoJSON of word polygons (mapKurator, MapReader), or a folder of them.
// `notes`, when given, gets what was done on the way (e.g. mapKurator's negated y turned back).
maptext::Dataset read_words(const std::string& path, std::vector<std::string>* notes = nullptr);
// The same from JSON text; `source` names it in errors and, for a per-image file, gives the image key.
maptext::Dataset parse_words(const std::string& json_text, const std::string& source, std::vector<std::string>* notes = nullptr);

// ---- Evaluate: the MapText metrics, as the official evaluator computes them -------------------
struct EvalOptions {
  std::string task = "detrecedges";  // det | detedges | detrec | detrecedges (2024: detlink, detreclink)
  std::string protocol = "2025";     // 2025 (word edges) | 2024 (whole phrases)
  double iou_threshold = 0.5;
  std::string gt_regex;              // only ground-truth images whose key matches (anchored at the start)
  int threads = 0;                   // 0: all cores; more: at most the cores; below 0: light::Error
};
struct EvalResult {
  std::vector<std::pair<std::string, double>> overall;  // metric -> value, in the evaluator's order
  std::vector<std::string> warnings;                    // e.g. ground-truth images with no prediction
};
EvalResult evaluate(const maptext::Dataset& ground_truth, const maptext::Dataset& predictions, const EvalOptions& options = {});

// ---- Link with a heuristic (no model needed) --------------------------------------------------
struct LinkByHeuristicOptions {
  std::string method = "mst";  // mst (minimum spanning tree under the heuristic cost) | distance (character distance)
  std::string order = "path";  // path (follow the links) | yx (sort each phrase by centre y, then x)
  int threads = 0;             // 0: all cores; more: at most the cores; below 0: light::Error
};
// Every word of every tile linked afresh (the input grouping is ignored); each word appears once.
maptext::Dataset link_by_heuristic(const maptext::Dataset& words, const LinkByHeuristicOptions& options = {});

// ---- Link with a LIGHT model ------------------------------------------------------------------
struct LinkByModelOptions {
  std::string tokenizer_dir;   // empty: the model folder's tokenizer
  std::string device = "cpu";  // cpu | cuda
  int threads = 0;             // LibTorch threads (0: all cores; at most the cores; below 0: light::Error)
  int max_length = 1000;       // tokens a window (longer tiles are covered by overlapping windows)
  // Whose words: "spotter" (a text spotter's: the model's factor and baseline tolerance for spotted
  // words, where it has them), "annotation" (drawn or annotated by hand), "auto" (a spotter's where
  // every word of a tile carries a numeric "score", as spot() writes).
  std::string words_from = "auto";
  // Decoding settings instead of the model's config.json, by its keys: no_successor_bias,
  // no_successor_exponent, reading_prior_above, reading_prior_next_line, lettering_prior,
  // alignment_prior, baseline_prior, polygon_height, ... (decoding_settings() lists them with their
  // ranges; docs/commands.md `light link`). A key that is none, or a value out of range: light::Error.
  std::map<std::string, double> decoding;
  // A phrase holding one word twice, other words between ("15th Ave. 15th": a name repeated along a
  // street), is cut at its weakest link between the two; true: kept as decoded.
  bool keep_repeated_words = false;
};
// The decoding settings a model's config.json holds and `decoding` above overrides: key, the range
// in words, what it does.
struct DecodingSettingInfo {
  std::string key, expected, help;
};
std::vector<DecodingSettingInfo> decoding_settings();

struct LinkByModelReport {
  size_t tiles = 0, words = 0, model_words = 0, windowed_tiles = 0, cycles_broken = 0;
  size_t spotted_tiles = 0;  // tiles decoded as a text spotter's words (words_from)
};
// `model_dir`: a model folder (config.json, model.safetensors, tokenizer) such as a `light train`
// run's best/; `images_dir`: the folder holding each tile's image (its key, or the key's basename).
maptext::Dataset link_by_model(const maptext::Dataset& words, const std::string& model_dir, const std::string& images_dir,
                               const LinkByModelOptions& options = {}, LinkByModelReport* report = nullptr);
// A LIGHT model and its tokenizer loaded once, for many calls (what `light link --collection` does).
// Not for two threads at once; give each thread its own Linker.
class Linker {
 public:
  // `model_dir` "": the bundled default model (default_model()); light::Error when there is none.
  explicit Linker(const std::string& model_dir = "", const LinkByModelOptions& options = {});
  ~Linker();
  Linker(Linker&&) noexcept;
  Linker& operator=(Linker&&) noexcept;
  const std::string& model_dir() const;
  // Each tile's image found in `images_dir` (its key, or the key's basename); the same phrases as
  // link_by_model. `report`, when given, is added to.
  maptext::Dataset link(const maptext::Dataset& words, const std::string& images_dir, LinkByModelReport* report = nullptr);
  // One tile, its image a file or pixels.
  maptext::Tile link_file(const maptext::Tile& words, const std::string& image_path, LinkByModelReport* report = nullptr);
  maptext::Tile link_pixels(const maptext::Tile& words, Image image, LinkByModelReport* report = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The bundled default model's folder as `light link` finds it: $LIGHT_MODEL, else models/light-small
// beside the running program, under its install prefix (../share/light/models/), or in the source
// tree above a build folder; "" when there is none.
std::string default_model();

// ---- Find and read the words on map images (`light spot`) ---------------------------------------
// A setting left at its default here keeps the spotter folder's own (its spotter.json; docs/spotter.md).
struct SpotOptions {
  std::string device = "cpu";      // cpu | cuda
  int threads = 0;                 // LibTorch threads (0: all cores; at most the cores; below 0: light::Error)
  std::string alphabet = "latin";  // latin | all
  double min_score = 0.5;          // words whose characters' mean probability is below are dropped
  double scale = 0;                // the detector reads the image resized by this (0: auto)
  bool upright = false;            // true: not also turned a quarter (faster; steep lettering found less well)
  // true: read the map once more, enlarged, where its lowest lines are much smaller than most (a plan's
  // street names among its districts' names): more of them found, slower (`light spot --small-lettering`).
  bool small_lettering = false;
};
// A spotter folder (detector.safetensors, recognizer.safetensors, keys.txt) loaded once.
class Spotter {
 public:
  // `spotter_dir` "": the bundled spotter (default_spotter()).
  explicit Spotter(const std::string& spotter_dir = "", const SpotOptions& options = {});
  ~Spotter();
  Spotter(Spotter&&) noexcept;
  Spotter& operator=(Spotter&&) noexcept;
  // One map's words, each its own group with "text" and a "score" key, the tile named `key`.
  maptext::Tile spot_pixels(Image image, const std::string& key);
  // A map image, or a folder of them (keys: paths relative to it), as `light spot --images` reads them.
  maptext::Dataset spot(const std::string& images);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
// The bundled spotter's folder ($LIGHT_SPOTTER, else models/spotter as default_model() looks); light::Error if none.
std::string default_spotter();

// ---- Search linked phrases for a place name (`light search`) ------------------------------------
struct SearchOptions {
  int max_edits = -1;  // most character edits a match may have (-1: a quarter of the query's letters, at most 3)
  bool whole = false;  // whole phrases only (not a run of a phrase's words)
  size_t limit = 20;   // most matches (0: all)
};
struct SearchMatch {
  std::string text, file, image;  // the phrase's text; its linked file ("" for a dataset in memory); its image
  uint32_t group = 0;             // the phrase's place among its image's groups
  uint32_t edits = 0;             // character edits between the query and the match
  double distance = 0;            // edits over the longer normalised text
  bool whole = true;              // the whole phrase matched (else words [first_word, last_word])
  uint32_t first_word = 0, last_word = 0;
  std::vector<maptext::Word> words;            // the phrase's words (text and vertices)
  std::optional<maptext::Point> lonlat;        // a georeferenced phrase's centre (x longitude, y latitude)
};
// In linked phrases held in memory, or in `light search --in`'s files: a linked file, a folder of them, an index.
std::vector<SearchMatch> search_phrases(const std::string& query, const maptext::Dataset& linked, const SearchOptions& options = {});
std::vector<SearchMatch> search_files(const std::string& query, const std::string& in, const SearchOptions& options = {});

// ---- Places: phrases to gazetteer places, maps placed by their names (`light place`, `light georef`) ----
struct PlacesOptions {
  std::string gazetteer;      // an index made by `light gazetteer build` ("": $LIGHT_GAZETTEER, else GeoNames cities500)
  bool georeference = false;  // also place each map by its names (docs/georeference-from-names.md)
  std::string images_dir;     // the maps' images (their sizes), for georeference
};
// Per map, as `light georef --from-names` reports it in georeferences.json (JSON text): whether it is
// georeferenced (its transform and control points, else why not), and each phrase's place.
std::string places(const maptext::Dataset& linked, const PlacesOptions& options = {});

// ---- Phrases for GIS and IIIF viewers (`light link --format geojson|webanno`) ---------------------
struct GeoJsonOptions {
  // The words as given to the linker: each word's "index" is its place among its image's words there.
  const maptext::Dataset* words = nullptr;
  // "none": pixel coordinates. "auto": each image's own georeferencing (GeoTIFF, world file, GCPs,
  // IMAGE.points beside it), found in `images_dir`, in longitude/latitude (GDAL).
  std::string georef = "none";
  std::string images_dir;
};
// A GeoJSON FeatureCollection, one Feature a phrase (docs/commands.md, "GeoJSON"), as JSON text.
std::string to_geojson(const maptext::Dataset& linked, const GeoJsonOptions& options = {});
// A W3C Web Annotation page, one Annotation a phrase; `canvas` the IIIF canvas ("{image}" is replaced).
std::string to_web_annotations(const maptext::Dataset& linked, const std::string& canvas = "");

// ---- Fine-tune a LIGHT model on annotated tiles (`light train`) ----------------------------------
struct FineTuneOptions {
  std::string train_json, train_images, val_json, val_images;  // MapText ground truth and tile folders
  std::string out_dir;              // the run folder: best/ (a model folder), last/, log.jsonl, curves.png
  std::string tokenizer = "bytes";  // a tokenizer folder, or "bytes"
  std::string init = "none";        // none | a Hugging Face LayoutLMv3 folder | a LIGHT model or pretraining run
  std::string config = "small";     // tiny | small | base | a config.json
  int max_epochs = 100, batch_size = 2, threads = 0;
  double lr = 5e-5;
  uint64_t seed = 1234;
  std::string device = "cpu";
  bool progress = false;            // a progress line on stderr
};
struct FineTuneResult {
  int epochs = 0, best_epoch = 0;
  double best_val_loss = 0, best_edges_fscore = 0;
};
FineTuneResult fine_tune(const FineTuneOptions& options);

}  // namespace light

// light: link the words a text spotter found on a historical map into the phrases a person reads
// ("DENVER AND RIO GRANDE"). This header and the two it includes are the whole public API:
//
//   #include <light/light.h>
//   auto words  = light::maptext::read_maptext("words.json", {light::maptext::Kind::Predictions});
//   auto linked = light::link_by_heuristic(words);                       // or light::link_by_model(...)
//   light::maptext::write_maptext("phrases.json", linked);
//   auto scores = light::evaluate(ground_truth, linked);             // the MapText competition metrics
//
// CMake: find_package(light) and target_link_libraries(app PRIVATE light::light). Every function
// throws light::Error (light/error.h) with a complete message on bad input or options.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "light/error.h"
#include "light/maptext.h"

namespace light {

// "0.1.0"
const char* version();

// ---- Evaluate: the MapText metrics, as the official evaluator computes them -------------------
struct EvalOptions {
  std::string task = "detrecedges";  // det | detedges | detrec | detrecedges (2024: detlink, detreclink)
  std::string protocol = "2025";     // 2025 (word edges) | 2024 (whole phrases)
  double iou_threshold = 0.5;
  std::string gt_regex;              // only ground-truth images whose key matches (anchored at the start)
  int threads = 0;                   // 0: all cores
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
  int threads = 0;             // 0: all cores
};
// Every word of every tile linked afresh (the input grouping is ignored); each word appears once.
maptext::Dataset link_by_heuristic(const maptext::Dataset& words, const LinkByHeuristicOptions& options = {});

// ---- Link with a LIGHT model ------------------------------------------------------------------
struct LinkByModelOptions {
  std::string tokenizer_dir;   // empty: the model folder's tokenizer
  std::string device = "cpu";  // cpu | cuda
  int threads = 0;             // LibTorch threads (0: all cores)
  int max_length = 1000;       // tokens a window (longer tiles are covered by overlapping windows)
  double no_successor_bias = 0;  // > 0: each word's "no successor" probability times this (default: the model's)
  // Set: instead of the model's: that factor times (words around the word / 50)^exponent; a candidate above
  // the word, in its reading frame, times reading_prior_above; one on the line below it times
  // reading_prior_next_line (docs/commands.md, `light link`).
  std::optional<double> no_successor_exponent, reading_prior_above, reading_prior_next_line;
};
struct LinkByModelReport {
  size_t tiles = 0, words = 0, model_words = 0, windowed_tiles = 0, cycles_broken = 0;
};
// `model_dir`: a model folder (config.json, model.safetensors, tokenizer) such as a `light train`
// run's best/; `images_dir`: the folder holding each tile's image (its key, or the key's basename).
maptext::Dataset link_by_model(const maptext::Dataset& words, const std::string& model_dir, const std::string& images_dir,
                               const LinkByModelOptions& options = {}, LinkByModelReport* report = nullptr);
// The bundled default model's folder as `light link` finds it: $LIGHT_MODEL, else models/light-small
// beside the running program, under its install prefix (../share/light/models/), or in the source
// tree above a build folder; "" when there is none.
std::string default_model();

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

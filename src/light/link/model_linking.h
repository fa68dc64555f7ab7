// `light link --model`: every tile through LIGHT, every input word in the output exactly once.
// (No LibTorch here: the model is a model::Predictor.)
#pragma once
#include <memory>
#include <map>
#include <optional>
#include <string>

#include "light/data/model_polygons.h"
#include "light/image/resize.h"
#include "light/maptext.h"
#include "light/model/predictor.h"
#include "light/text/bpe.h"

namespace light::link {

struct ModelLinkOptions {
  std::string tokenizer_dir;  // empty: the model folder (tokenizer.json, or vocab.json + merges.txt)
  std::string device = "cpu"; // "cpu" or "cuda"
  int threads = 0;            // LibTorch threads (0 = all cores)
  int max_length = 1000;      // token window
  // Whose words a tile holds, for the decoding: "spotter" (a text spotter's: decoded with the config's
  // spotted_no_successor_bias, where it has one and no no_successor_bias is given, and held to its
  // spotted_baseline_log_height and spotted_baseline_degrees, where it has them), "annotation" (drawn
  // or annotated words: no_successor_bias), "auto" (a spotter's when every word of the tile carries a
  // numeric "score", as `light spot` and most spotters write; spotted_words()).
  std::string words_from = "auto";
  // Decoding settings instead of the model config's, by key (model/decoding_settings.h: no_successor_bias,
  // lettering_prior, polygon_height, ...); each checked, named by its `light link` option when
  // `decoding_by_option`, else by its key.
  std::map<std::string, double> decoding;
  bool decoding_by_option = false;
  // A phrase holding one word twice, other words between ("15th Ave. 15th"), cut at its weakest link
  // between them (link/repeated_words.h); false: kept as decoded.
  bool split_repeats = true;
  bool progress = false;
  // "resample" | "keep" (data/model_polygons.h); "" = the model config's polygon_points, as it was trained.
  std::string polygon_points;
  std::string source;         // the words file, named in the polygon report
  // Keep, for fitting the line judge (link/line_judge.h), each word's judged row with its true
  // successor: the tile's phrases as given (ModelLinker::judge_rows).
  bool judge_rows = false;
};

struct ModelLinkReport {
  size_t tiles = 0, words = 0, model_words = 0;
  size_t windowed_tiles = 0;   // tiles longer than one window (covered by overlapping windows)
  size_t cycles_broken = 0;    // successor cycles the reference would have dropped
  size_t spotted_tiles = 0;    // tiles decoded as a spotter's words (words_from), where the model decodes those otherwise
  data::PolygonReport polygons;  // words resampled, and degenerate polygons fed as given
  std::string polygon_points;    // the policy used
};

// Whether a tile's words are a text spotter's: it has words, and every one carries a numeric "score".
bool spotted_words(const maptext::Tile& tile);

// A model and its tokenizer, loaded once, linking one tile at a time.
class ModelLinker {
 public:
  ModelLinker(const std::string& model_dir, const ModelLinkOptions& options);
  // A model already in memory (light train's, validating as `light link` will link with the folder it
  // saves) and its tokenizer; options.device and threads are the model's own then.
  ModelLinker(model::Predictor model, text::BpeTokenizer tokenizer, const ModelLinkOptions& options);
  ~ModelLinker();
  // The tile's words linked afresh (its grouping ignored); `image` is the tile's image. Adds to `report`.
  maptext::Tile link(const maptext::Tile& tile, const image::RgbImage& image, ModelLinkReport& report);
  // The same from the image file: a map read through several windows is decoded and resized to the
  // windows' scale in strips (GDAL), never held at full size; the same phrases as link().
  maptext::Tile link_file(const maptext::Tile& tile, const std::string& image_path, ModelLinkReport& report);
  // With ModelLinkOptions::judge_rows: the rows kept so far, JSON lines (link/line_judge.h write_judge_rows).
  const std::string& judge_rows() const;

 private:
  maptext::Tile link_image(const maptext::Tile& tile, int width, int height, const image::RgbImage& image,
                           const image::RgbImage* at_scale, ModelLinkReport& report);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Links the words of every tile (grouping of the input ignored). Words the model does not see
// (illegible, truncated, without area) are kept as one-word phrases.
maptext::Dataset link_with_model(const maptext::Dataset& data, const std::string& model_dir, const std::string& images_dir,
                                 const ModelLinkOptions& options, ModelLinkReport* report);
// The same with a linker already loaded.
maptext::Dataset link_with_model(const maptext::Dataset& data, ModelLinker& linker, const std::string& images_dir, bool progress,
                                 ModelLinkReport* report);

}  // namespace light::link

// The spotter: a map image in, its words out (a 16-point polygon in reading order, the text, a score),
// through the stages its settings name (spot/spot_options.h; a spotter folder's spotter.json,
// spot/spotter_config.h). The detector's probability map is computed in windows (bounded memory on a
// map of any size) and its text lines found (spot/text_boxes: db_boxes, bend, spaced_letters,
// line_pieces), again enlarged where the lettering is small (enlarged, small_lettering), then with the
// image turned a quarter (turned; everywhere, or where the upright reading saw something off the level lines);
// letters standing alone that the detector does not see are looked for in the ink (lone_glyphs), each
// line straightened and read (spot/line_crops, spot/reading: upside_down, lone_letters, reading),
// short words turned to their baseline (baseline), spaced words joined (spaced_words) and each line's
// outline fitted across to its lettering (ink_fit, spot/ink_extent).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "light/image/resize.h"
#include "light/maptext.h"
#include "light/model/predictor.h"
#include "light/spot/spot_options.h"
#include "light/spot/text_boxes.h"

namespace light::spot {

struct SpottedWord {
  std::vector<maptext::Point> polygon;  // 16 points: the lower edge from the word's start, the upper edge back
  std::string text;
  double score = 0;
};

class Spotter {
 public:
  // A spotter folder (detector.safetensors, recognizer.safetensors, keys.txt, and spotter.json or
  // not) with its own settings (spotter_settings(dir)), or with `options` instead.
  explicit Spotter(const std::string& dir, const model::PredictorOptions& runtime = {});
  Spotter(const std::string& dir, const model::PredictorOptions& runtime, const SpotOptions& options);
  ~Spotter();
  Spotter(Spotter&&) noexcept;
  Spotter& operator=(Spotter&&) noexcept;

  std::vector<SpottedWord> spot(const image::RgbImage& image);
  // The detector's text lines alone (and their probability map's size is the image's).
  std::vector<TextBox> lines(const image::RgbImage& image);
  const SpotOptions& options() const;
  // How likely the recogniser finds each of `texts` as the reading of the word under `polygon` (16
  // points, as spot() gives), in natural logarithms, -infinity for a text it cannot write: a word
  // weighed against the names it may be (geo/word_rereading).
  std::vector<double> text_log_likelihoods(const image::RgbImage& image, const std::vector<maptext::Point>& polygon,
                                           const std::vector<std::string>& texts);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// (image key, path) of every map image to spot: a file alone (key: its name), or a folder's images
// (.png, .jpg, .jpeg, .tif, .tiff, .bmp, .webp, .jp2, in its subfolders too; keys: paths relative to
// it), sorted. Throws light::Error naming `images` when it is neither or holds no image.
std::vector<std::pair<std::string, std::string>> list_map_images(const std::string& images);

// One map's words as a MapText tile named `key`: every word its own group with "text" and "score".
maptext::Tile spot_tile(Spotter& spotter, const image::RgbImage& image, const std::string& key);

// MapText predictions of those images: one tile each (its key), every word its own group with
// "text" and "score". A progress line (maps, words) on standard error when `progress`.
maptext::Dataset spot_images(Spotter& spotter, const std::vector<std::pair<std::string, std::string>>& images, bool progress);

// The bundled spotter folder (models/spotter beside the binary's share folder or in the source tree).
std::string default_spotter_dir();

}  // namespace light::spot

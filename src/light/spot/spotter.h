// The spotter: a map image in, its words out (a 16-point polygon in reading order, the text, a score).
// The detector's probability map is computed in windows (bounded memory on a map of any size), its
// text lines found (spot/text_boxes), again enlarged where the lowest lines found are much smaller
// than the rest (a plan's street names), then with the image turned a quarter where the upright
// reading saw something other than level lines (steep lettering is found better so), letters standing
// alone that the detector does not see looked for in the ink (spot/lone_glyphs), each line rectified
// to 48 px high and read (spot/reading; in batches of one width), steep lines also upside down, and
// every line split into its words, each line's outline then fitted across to its lettering
// (spot/ink_extent).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "light/image/resize.h"
#include "light/maptext.h"
#include "light/model/predictor.h"
#include "light/spot/baseline.h"
#include "light/spot/ink_extent.h"
#include "light/spot/lone_glyphs.h"
#include "light/spot/spaced_words.h"
#include "light/spot/text_boxes.h"

namespace light::spot {

struct SpotOptions {
  std::string alphabet = "latin";  // latin | all (spot/reading Dictionary::allowed)
  TextBoxOptions boxes;
  // The detector reads the image resized by `scale`; 0: at 1, then, when the median line found is
  // lower than auto_height pixels, again enlarged to make it so (at most max_scale).
  double scale = 0;
  double auto_height = 28;
  double max_scale = 3;
  // Enlarged so, lettering that was already large is lost: the lines read at 1 that the enlargement
  // makes higher than `large_height` times auto_height are kept (spot/text_boxes merge_large_lines;
  // 0: not), replacing what the enlarged reading made of them where it found only pieces lower than
  // `piece_height` times theirs.
  double large_height = 2;
  double piece_height = 0.7;
  // Lettering much smaller than most of a map's (a plan's street names among its districts' names)
  // stays too small for the detector at the scale the median line sets. Where the lowest
  // `small_quantile` of the lines found would need `small_trigger` times that scale or more to be
  // auto_height pixels high, the image is read again so enlarged (at most `max_small_scale`), and the
  // lines found there no higher than `small_height` times auto_height that overlap none found before
  // are added (spot/text_boxes add_unseen_lines; small_quantile 0: not; with `scale` 0 only).
  // Lettering so small is read less surely: their words are kept from `small_min_score`. Not by
  // default (`light spot --small-lettering`: 0.1): the map is read once more, enlarged, which costs
  // time (docs/spotter.md "Speed and memory").
  double small_quantile = 0;
  static constexpr double small_lettering = 0.1;  // the small_quantile `light spot --small-lettering` sets
  void read_small_lettering() { small_quantile = small_lettering; }  // as `--small-lettering` asks
  double small_trigger = 1.25;
  double max_small_scale = 4;
  double small_height = 1.5;
  double small_min_score = 0.8;  // the words read on those lines are kept from this mean probability (read less surely)
  // The image is also read turned a quarter where the upright reading's probability reaches
  // `unsettled` outside the level lines it found (0: everywhere), and the steep lines found so are
  // kept (Spotter::lines).
  bool turned_pass = true;
  double unsettled = 0.1;
  int window = 1536;       // detector window side (pixels of the resized image; a multiple of 32)
  int overlap = 192;       // windows overlap by this much
  int batch = 16;          // crops read together (at most; only crops of one padded width are)
  double min_score = 0.5;  // words whose characters' mean probability is below are dropped
  double flip_angle = 60;  // lines steeper than this (degrees) are also read upside down
  // A box less than 1.5 times as long as high (a letter alone: a block's letter, a sheet's figure) is
  // read along its side nearer level, and also with the paper about it: grown `letter_context` times
  // along and `letter_across` times across (1: not), keeping what is read on the box. The more
  // confident reading wins; with the paper's, the word's polygon is the box grown `letter_grow` times.
  double letter_context = 3;
  double letter_across = 1.4;
  double letter_grow = 1.15;
  // Letters standing alone that the detector did not see, looked for in the ink (spot/lone_glyphs.h)
  // and read with the paper about them: kept when read as one or two letters or figures with a mean
  // probability of at least `glyph_score` (0: not looked for).
  LoneGlyphOptions glyphs;
  double glyph_score = 0.9;
  double glyph_read = 1.45;  // the box read is the candidate's grown so many times (as high as the detector's box of a letter)
  double glyph_turn = 30;   // and read turned either way by so many degrees (0: level only)
  // Each word's upper and lower edges fitted to its lettering's ink (spot/ink_extent.h; false: the
  // line box's own, as the detector found it).
  bool ink_fit = true;
  InkExtentOptions ink;
  // A word read alone on a short box (less than baseline.max_length times as long as high: "St.",
  // "Co.", a pair of letters found in the ink) turns to the direction its letters' lowest points
  // line up along (spot/baseline.h; max_turn 0: never).
  BaselineOptions baseline;
  SpacedWordOptions spaced;  // pieces of a letter-spaced word, read, joined (spot/spaced_words.h; gap 0: never)
};

struct SpottedWord {
  std::vector<maptext::Point> polygon;  // 16 points: the lower edge from the word's start, the upper edge back
  std::string text;
  double score = 0;
};

class Spotter {
 public:
  // A spotter folder (detector.safetensors, recognizer.safetensors, keys.txt).
  Spotter(const std::string& dir, const model::PredictorOptions& runtime = {}, const SpotOptions& options = {});
  ~Spotter();
  Spotter(Spotter&&) noexcept;
  Spotter& operator=(Spotter&&) noexcept;

  std::vector<SpottedWord> spot(const image::RgbImage& image);
  // The detector's text lines alone (and their probability map's size is the image's).
  std::vector<TextBox> lines(const image::RgbImage& image);

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

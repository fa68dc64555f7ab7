// Scale windows: square parts of a tile or map sized from its words' own heights, so that the model
// sees words at the scale it was trained on whatever the tile's size and lettering. A model trained
// with `window_word_height` h sees every window scaled to 0..1000 (boxes) and to its image size, with
// the tile's median word height at h of the window's side. Inference covers a tile with overlapping
// windows and takes each word's successor from the window in which it is most central; training takes
// one random window per tile and step.
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "light/data/inputs.h"
#include "light/data/sparse_rows.h"
#include "light/image/resize.h"
#include "light/maptext.h"

namespace light::data {

// The median reading-frame height (geometry::reading_frame) of the tile's words that have an area,
// in pixels; 0 when there is none.
double median_word_height(const maptext::Tile& tile);

// A window's side in pixels: the tile's median word height over `word_height` (a fraction of the
// side); 0 when the tile has no word with an area.
double window_side(const maptext::Tile& tile, double word_height);

// Square windows of `side` pixels covering a width x height tile: along each axis one window when the
// tile is no longer than a side (it reaches beyond the tile), else evenly spaced windows from edge to
// edge whose starts lie at most `stride` x side apart (stride in (0, 1]).
std::vector<Region> plan_regions(int width, int height, double side, double stride = 0.5);

// The window side the model reads a width x height tile with: the smallest side in [side, slack x
// side] whose plan_regions (at `stride`) has the fewest windows. Words then come at most 1/slack of
// the trained scale, inside the training's jitter (exp(-0.35) = 1/1.42); a 2000 px tile with
// 1050 px windows is read through 4 windows of 1333 px instead of 9 (a third less work).
double fewest_windows_side(int width, int height, double side, double slack, double stride = 0.5);

// How central the point (x, y) lies in `region` clipped to the tile: its distance to the nearest
// clipped edge over the region's side (0 on an edge, 0.5 at the centre of a window inside the tile).
// An edge that is the tile's own does not count against it: no word lies beyond it.
double centrality(const Region& region, int width, int height, double x, double y);

// A training window: centred on one of `centres` drawn at random, moved by up to a quarter side in x
// and y, its side `side` x exp(u), u uniform in [-scale_jitter, scale_jitter].
Region random_region(const std::vector<maptext::Point>& centres, double side, double scale_jitter, std::mt19937_64& rng);

// The centre of each word's box (in the tile's own frame) for the words the model sees (select_words:
// not illegible or truncated, with an area), in file order.
std::vector<maptext::Point> word_centres(const maptext::Tile& tile);

// The model's pixel values of one window: the region cut from `image` (which holds the tile at
// `scale` times its size; white beyond the tile), resized to size x size (PIL bilinear) and normalised.
std::vector<float> region_pixels(const image::RgbImage& image, double scale, const Region& region, int size);

// One window as inference runs it: the model inputs, the pixels, and for each of its words the tile
// word it is (an index into the tile's model-order words) and how central it lies there.
struct InferenceWindow {
  TileInputs inputs;
  std::vector<float> pixels;
  std::vector<size_t> index;
  std::vector<double> centre;
};

// A tile at most this many window sides long is read as one window.
inline constexpr double kOneWindowSlack = 1.3;
// The most windows of a tile the model reads in one forward (link::ModelLinker, validation): one
// forward shares each operation's overhead; the cap bounds the memory a whole map's windows take.
inline constexpr size_t kWindowsPerForward = 16;

// The windows in the batches the model reads them in, at most kWindowsPerForward a batch: fn(first,
// inputs, pixels) for each, `first` the index of the batch's first window.
void for_each_window_batch(const std::vector<InferenceWindow>& windows,
                           const std::function<void(size_t first, const std::vector<const TileInputs*>& inputs,
                                                    const std::vector<const std::vector<float>*>& pixels)>& fn);

// Every window the model reads for a tile whose model-order words are `words` (select_words, test
// order): with word_height > 0, the scale windows of plan_regions (stride 0.5; a tile smaller than
// a window: one window of the full side centred on it, white around the tile; one window of the
// tile's longer side when that is at most kOneWindowSlack window sides, else windows of
// fewest_windows_side with that slack), else the whole tile;
// each cut into token windows (plan_windows) when its words do not fit `length` tokens. A word's
// centrality is its scale window's times its token window's. `image` holds the tile at `scale` times
// its size; width and height are the tile's size in pixels. Several scale windows' pixels are crops
// of the image resized once to their scale (region_pixels crops first: training's windows).
// The scale windows a tile of width x height is read through: their side (0: the whole tile, one
// window) and regions (one region: the tile read as one window).
// The most scale windows a tile or map is read through (words a fraction of a pixel high would ask
// for millions): the side grows to keep within it.
inline constexpr double kMaxInferenceWindows = 4096;
struct InferencePlan {
  double side = 0;
  std::vector<Region> regions;
};
InferencePlan plan_inference(const maptext::Tile& tile, int width, int height, double word_height);

// The same windows one at a time, each made only when fn takes it (a whole map's windows are never
// all in memory). `at_scale` (several windows only): the image already resized to the windows' scale
// (lround(width x f) x lround(height x f), f = image_size / side; `image` is then not read), so that a
// whole map need never be decoded at full size.
void for_each_inference_window(const maptext::Tile& tile, int width, int height, const std::vector<ModelWord>& words,
                               const image::RgbImage& image, double scale, const Tokenize& tokenize, int length, const SpecialIds& special,
                               double word_height, int image_size, const std::function<void(InferenceWindow&&)>& fn,
                               const image::RgbImage* at_scale = nullptr);
// ... and in the batches of for_each_window_batch (kWindowsPerForward windows, in order), each batch
// freed before the next is made. Returns the number of windows.
size_t for_each_inference_window_batch(const maptext::Tile& tile, int width, int height, const std::vector<ModelWord>& words,
                                       const image::RgbImage& image, double scale, const Tokenize& tokenize, int length,
                                       const SpecialIds& special, double word_height, int image_size,
                                       const std::function<void(const std::vector<InferenceWindow>& batch)>& fn,
                                       const image::RgbImage* at_scale = nullptr);
std::vector<InferenceWindow> inference_windows(const maptext::Tile& tile, int width, int height, const std::vector<ModelWord>& words,
                                               const image::RgbImage& image, double scale, const Tokenize& tokenize, int length,
                                               const SpecialIds& special, double word_height, int image_size);

// Successor probabilities of a whole tile from its windows': each word's rows from the window in
// which it is most central (ties: the first window). Words in the tile's model order, 0..n-1. Memory
// grows with the words and their windows' sizes, not with the square of a map's words.
//
// With `other_windows` > 0, a word's rows also reach the words that window does not hold: each such
// word's entries taken from the window, among those holding both, in which the word is most central,
// times `other_windows`. A name spread wider than a quarter of a window (a county's name across a
// region, a street's name along its street) often has its next word outside the window its first
// word is most central in; the model, which reads both words in another window, links them there. 0 (released checkpoints): the most central window's words only.
class WindowMerge {
 public:
  explicit WindowMerge(size_t words, double other_windows = 0.0);
  // One window: `index[a]` the tile word of the window's a-th word, `centre[a]` its centrality there,
  // probs and bi_probs the window's [m x m] rows (m = index.size()).
  void add(const std::vector<size_t>& index, const std::vector<double>& centre, const std::vector<float>& probs,
           const std::vector<float>& bi_probs);
  // The tile's rows (entries outside a word's window are 0); a word no window held ends alone
  // (probability 1 on itself). Each word's own entries ("no successor", "no predecessor") are
  // multiplied by `self_bias` (model config's no_successor_bias).
  void finish(SparseRows& probs, SparseRows& bi_probs, double self_bias = 1.0) const;

 private:
  // A word's entries for another word from the window holding both in which the word is most central.
  struct Other {  // 16 bytes with its index: a whole map's words hold a few hundred each
    float centre, p, q;
  };
  size_t n_;
  std::vector<double> best_;
  SparseRows P_, Q_;
  double other_windows_;
  std::vector<std::vector<std::pair<int, Other>>> other_;  // per word, by the other word's index
};

}  // namespace light::data

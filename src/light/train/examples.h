// The training and validation tiles as `light train` holds them (train/trainer.cpp): each tile's
// image read once (at the scale its smallest window needs, with scale windows), and the model inputs
// of a batch of them: one random window per tile and its pixels. No LibTorch here.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "light/data/inputs.h"
#include "light/data/tile_image.h"
#include "light/image/resize.h"
#include "light/maptext.h"
#include "light/model/config.h"

namespace light::train {

struct Example {
  const maptext::Tile* tile;
  data::TileImage image;  // size and pixel values (whole tiles)
  // Scale windows: the tile at `scale` times its size (enough pixels for the smallest window), the
  // window side in pixels, and the words' centres.
  image::RgbImage scaled;
  double scale = 1.0, side = 0.0;
  std::vector<maptext::Point> centres;
  bool usable = true;  // has a word the model sees
};

// The tiles of `data` with their images from `images` (`source` names the set in messages); with
// `skip`, tiles without a usable word are left out (training), else kept (validation: their words
// stay alone). light::Error when no tile has a usable word.
std::vector<Example> load_examples(const maptext::Dataset& data, const std::string& images, const std::string& source,
                                   int image_size, double window_word_height, double scale_jitter, bool skip, bool progress);

// The model inputs of a batch of tiles. Training shuffles each tile's words: `first` is the batch's
// first tile's index in the step (ranks > 0 start further on), so that each tile's word order (and
// window) depends on its place in the whole step, not on the rank that takes it. With scale windows
// each tile gives one random window (data/scale_windows.h) and its pixels. With `polygon_noise` > 0
// the words' polygons are moved as a spotter's differ from exact ones, with `hand_noise` > 0 as boxes
// drawn by hand sit on their lettering (data/polygon_noise.h), both seeded as the word order.
struct BatchInputs {
  std::vector<data::TileInputs> ins;
  std::vector<std::vector<float>> window_pixels;  // scale windows only
};

BatchInputs batch_inputs(const std::vector<const Example*>& ex, const data::Tokenize& tok, const data::SpecialIds& special,
                         int max_length, uint64_t seed, size_t first, const model::ModelConfig& config, double scale_jitter,
                         double polygon_noise = 0.0, double hand_noise = 0.0);

}  // namespace light::train

#include "light/train/examples.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "light/data/polygon_noise.h"
#include "light/data/scale_windows.h"
#include "light/error.h"
#include "light/util/parallel.h"

namespace light::train {

std::vector<Example> load_examples(const maptext::Dataset& data, const std::string& images, const std::string& source,
                                   int image_size, double window_word_height, double scale_jitter, bool skip, bool progress) {
  std::vector<Example> out(data.size());
  parallel_for(data.size(), 0, [&](size_t k, int) {
    const maptext::Tile& tile = data[k];
    Example& e = out[k];
    e.tile = &tile;
    if (window_word_height > 0) {
      const image::RgbImage full = image::read_rgb(data::find_tile_image(images, tile.image));
      e.image.width = full.width, e.image.height = full.height;
      e.side = data::window_side(tile, window_word_height);
      e.centres = data::word_centres(tile);
      e.scale = std::min(1.0, image_size / (e.side * std::exp(-scale_jitter)));
      e.scaled = e.scale < 1.0 ? image::pil_resize_bilinear(full, std::max(1, static_cast<int>(std::lround(full.width * e.scale))),
                                                            std::max(1, static_cast<int>(std::lround(full.height * e.scale))))
                               : full;
      if (e.scale < 1.0) e.scale = static_cast<double>(e.scaled.width) / full.width;
    } else {
      e.image = data::load_tile_image(images, tile.image, image_size);
    }
    e.usable = !data::select_words(tile, e.image.width, e.image.height, {}).empty();
  });
  size_t unusable = 0;
  for (const Example& e : out) unusable += !e.usable;
  if (unusable == out.size()) throw Error(source + ": no tile with a usable word (all illegible, truncated or without area)");
  if (unusable > 0 && progress) {
    const auto first = std::find_if(out.begin(), out.end(), [](const Example& e) { return !e.usable; });
    std::fprintf(stderr, "%s: %zu tile(s) without a usable word (all illegible, truncated or without area), first \"%s\": %s\n",
                 source.c_str(), unusable, first->tile->image.c_str(), skip ? "not trained on" : "their words stay alone");
  }
  if (skip) out.erase(std::remove_if(out.begin(), out.end(), [](const Example& e) { return !e.usable; }), out.end());
  return out;
}



BatchInputs batch_inputs(const std::vector<const Example*>& ex, const data::Tokenize& tok, const data::SpecialIds& special,
                         int max_length, uint64_t seed, size_t first, const model::ModelConfig& config, double scale_jitter,
                         double polygon_noise, double hand_noise) {
  BatchInputs b;
  for (size_t k = 0; k < ex.size(); ++k) {
    data::SelectOptions so;
    so.sort = false;
    so.shuffle_seed = seed * 1000003ull + first + k + 1;
    data::Region region;
    if (ex[k]->side > 0) {
      std::mt19937_64 rng(so.shuffle_seed * 31 + 7);
      region = data::random_region(ex[k]->centres, ex[k]->side, scale_jitter, rng);
      so.region = &region;
    }
    const maptext::Tile* tile = ex[k]->tile;
    maptext::Tile moved;
    if (polygon_noise > 0 || hand_noise > 0) {
      moved = *tile;
      data::jitter_word_polygons(moved, polygon_noise, so.shuffle_seed * 131 + 11);
      data::jitter_word_polygons_by_hand(moved, hand_noise, so.shuffle_seed * 137 + 13);
      tile = &moved;
    }
    const auto words = data::select_words(*tile, ex[k]->image.width, ex[k]->image.height, so);
    b.ins.push_back(data::layout_tokens(words, tok, max_length, 0, SIZE_MAX, special));
    if (ex[k]->side > 0) {
      b.ins.back().aspect = 1.0;
      b.window_pixels.push_back(data::region_pixels(ex[k]->scaled, ex[k]->scale, region, config.layoutlmv3.input_size));
    } else {
      b.ins.back().aspect = static_cast<double>(ex[k]->image.width) / ex[k]->image.height;
    }
  }
  return b;
}

}  // namespace light::train

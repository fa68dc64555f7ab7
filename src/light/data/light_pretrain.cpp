#include "light/data/light_pretrain.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "light/maptext.h"
#include "light/error.h"

namespace light::data {

MlmResult mask_tokens(const std::vector<int64_t>& ids, const std::vector<uint8_t>& maskable, double p, int64_t mask_id,
                      std::mt19937_64& rng) {
  if (ids.size() != maskable.size()) throw Error("mask_tokens: input_ids and maskable differ in length");
  std::uniform_real_distribution<double> U(0.0, 1.0);
  MlmResult r{ids, std::vector<int64_t>(ids.size(), kIgnoreLabel), std::vector<uint8_t>(ids.size(), 0)};
  for (size_t i = 0; i < ids.size(); ++i)
    if (maskable[i] && U(rng) < p) {
      r.input_ids[i] = mask_id;
      r.labels[i] = ids[i];
      r.masked[i] = 1;
    }
  return r;
}

std::vector<uint8_t> mask_patches(int grid, double ratio, std::mt19937_64& rng) {
  const size_t n = static_cast<size_t>(grid) * grid;
  const size_t count = std::min(n, static_cast<size_t>(std::ceil(ratio * static_cast<double>(n) - 1e-9)));
  std::vector<size_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  for (size_t k = 0; k < count; ++k) std::swap(idx[k], idx[k + std::uniform_int_distribution<size_t>(0, n - 1 - k)(rng)]);
  std::vector<uint8_t> masked(n, 0);
  for (size_t k = 0; k < count; ++k) masked[idx[k]] = 1;
  return masked;
}

void zero_patches(std::vector<float>& pixels, int channels, int size, int grid, const std::vector<uint8_t>& patch_masked) {
  const int ps = size / grid;
  for (int p = 0; p < grid * grid; ++p) {
    if (!patch_masked[static_cast<size_t>(p)]) continue;
    const int py = p / grid, px = p % grid;
    for (int c = 0; c < channels; ++c)
      for (int y = py * ps; y < (py + 1) * ps; ++y)
        std::fill_n(&pixels[(static_cast<size_t>(c) * size + y) * size + px * ps], ps, 0.0f);
  }
}

int word_patch(int64_t x0, int64_t y0, int64_t x1, int64_t y1, int grid) {
  const double cx = static_cast<double>(x0 + x1) / 2000.0, cy = static_cast<double>(y0 + y1) / 2000.0;
  const int gx = std::clamp(static_cast<int>(cx * grid), 0, grid - 1), gy = std::clamp(static_cast<int>(cy * grid), 0, grid - 1);
  return gx + grid * gy;
}

std::vector<int64_t> wpa_labels(const std::vector<uint8_t>& maskable, const std::vector<uint8_t>& mlm_masked,
                                const std::vector<int>& token_patch, const std::vector<uint8_t>& patch_masked) {
  std::vector<int64_t> out(maskable.size(), kIgnoreLabel);
  for (size_t i = 0; i < maskable.size(); ++i)
    if (maskable[i] && !mlm_masked[i]) out[i] = patch_masked.at(static_cast<size_t>(token_patch[i])) ? 0 : 1;
  return out;
}

LightPretrainSample make_light_pretrain_sample(const PolyTile& tile, const std::vector<float>& pixels, const Tokenize& tokenize,
                                              const SpecialIds& special, const PatchCodebook* codebook,
                                              const LightPretrainOptions& opt, std::mt19937_64& rng) {
  const int grid = opt.grid;
  if (pixels.size() % 3 != 0) throw Error("make_light_pretrain_sample: pixel values are not 3 channels");
  const int size = static_cast<int>(std::lround(std::sqrt(static_cast<double>(pixels.size() / 3))));
  if (static_cast<size_t>(3 * size * size) != pixels.size() || size % grid != 0)
    throw Error("make_light_pretrain_sample: pixel values are not a square image of whole patches");
  // Words: vertex dropout, then the fine-tuning rules for boxes, polygons and texts, in a random order.
  maptext::Tile t;
  t.image = tile.image;
  for (size_t i = 0; i < tile.polygons.size(); ++i) {
    maptext::Word w;
    w.vertices = tile.polygons[i];
    if (opt.vertex_dropout) vertex_dropout(w.vertices, rng);
    w.text = i < tile.texts.size() ? tile.texts[i] : std::string();
    t.groups.push_back({w});
  }
  SelectOptions so;
  so.sort = false;
  so.shuffle_seed = rng() | 1;
  const std::vector<ModelWord> words = select_words(t, tile.width, tile.height, so);
  const TileInputs in = layout_tokens(words, tokenize, opt.max_length, 0, SIZE_MAX, special);

  LightPretrainSample s;
  const size_t T = static_cast<size_t>(in.real_tokens);
  s.tokens = in.real_tokens;
  s.words = in.words.size();
  s.left_out = in.beyond_window.size();
  s.bbox.assign(in.bbox.begin(), in.bbox.begin() + static_cast<long>(4 * T));
  s.polygons.assign(T * kPolygonValues, kPolygonPad);
  std::vector<uint8_t> maskable(T, 0);
  std::vector<int> token_patch(T, -1);
  const size_t n = in.words.size();  // first_token_indices holds one entry per word in the window
  for (size_t k = 0; k < n; ++k) {
    const size_t begin = static_cast<size_t>(in.first_token_indices[k]);
    const size_t end = k + 1 < n ? static_cast<size_t>(in.first_token_indices[k + 1]) : T - 1;
    for (size_t i = begin; i < end; ++i) {
      maskable[i] = 1;
      std::copy_n(&in.polygons[i * kPolygonValues], kPolygonValues, &s.polygons[i * kPolygonValues]);
      token_patch[i] = word_patch(in.bbox[4 * i], in.bbox[4 * i + 1], in.bbox[4 * i + 2], in.bbox[4 * i + 3], grid);
    }
  }
  const std::vector<int64_t> ids(in.input_ids.begin(), in.input_ids.begin() + static_cast<long>(T));
  MlmResult mlm = mask_tokens(ids, maskable, opt.mlm_probability, opt.mask_id, rng);
  s.input_ids = std::move(mlm.input_ids);
  s.mlm_labels = std::move(mlm.labels);
  s.patch_masked = mask_patches(grid, opt.mim_ratio, rng);
  if (codebook) {
    const std::vector<int> codes = codebook->encode(pixels, 3, size);
    s.mim_labels.assign(codes.begin(), codes.end());
  }
  s.pixels = pixels;
  zero_patches(s.pixels, 3, size, grid, s.patch_masked);
  s.wpa_labels = wpa_labels(maskable, mlm.masked, token_patch, s.patch_masked);
  s.token_patch.assign(token_patch.begin(), token_patch.end());
  return s;
}

}  // namespace light::data

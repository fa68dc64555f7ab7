#include "light/data/light_pretrain.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "light/util/error.h"

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

}  // namespace light::data

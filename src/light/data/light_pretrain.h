// LIGHT-pretraining labels (docs/reference-notes.md §3.2), without LibTorch: masked language modelling (each
// non-special token replaced by <mask> with probability 0.3), masked image modelling (exactly
// ceil(0.4 x 196) of the 14 x 14 patches, their pixels zeroed) and word-patch alignment (does the
// patch under a word's box centre stay visible?). The model side (heads, losses, the loop) builds on
// these; the reference's visual-token off-by-one is a model-side matter (patch p is visual token
// p + 1, after the visual CLS).
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "light/data/inputs.h"
#include "light/data/patch_codebook.h"
#include "light/data/poly_pretrain.h"

namespace light::data {

inline constexpr int64_t kIgnoreLabel = -100;
inline constexpr int64_t kRobertaMaskId = 50264;

struct MlmResult {
  std::vector<int64_t> input_ids;  // with <mask> at the masked positions
  std::vector<int64_t> labels;     // the original id at masked positions, -100 elsewhere
  std::vector<uint8_t> masked;
};
// `maskable[i]`: token i is a word token (not <s>, </s>, <pad>). Each is masked independently with
// probability `p` (no 80/10/10 split, no whole-word masking: as the reference).
MlmResult mask_tokens(const std::vector<int64_t>& input_ids, const std::vector<uint8_t>& maskable, double p,
                      int64_t mask_id, std::mt19937_64& rng);

// Exactly ceil(ratio x grid²) distinct patches, chosen uniformly (row-major patch index).
std::vector<uint8_t> mask_patches(int grid, double ratio, std::mt19937_64& rng);
// Zeroes the masked patches of CHW pixel values (channels x size x size, patch = size / grid).
void zero_patches(std::vector<float>& pixels, int channels, int size, int grid, const std::vector<uint8_t>& patch_masked);

// The patch under a box centre: int(cx x grid) + grid x int(cy x grid), with the box in the model's
// 0–1000 coordinates (cx = (x0 + x1) / 2000); clamped into the grid.
int word_patch(int64_t x0, int64_t y0, int64_t x1, int64_t y1, int grid);

// Word-patch alignment labels per token: -100 for tokens that are not word tokens or are MLM-masked;
// otherwise 1 when the token's word patch is visible, 0 when it is masked. `token_patch[i]` is the
// patch of token i's word (ignored where not maskable).
std::vector<int64_t> wpa_labels(const std::vector<uint8_t>& maskable, const std::vector<uint8_t>& mlm_masked,
                                const std::vector<int>& token_patch, const std::vector<uint8_t>& patch_masked);

struct LightPretrainOptions {
  int max_length = 512;          // tokens per sample (the reference's tokenizer max length)
  double mlm_probability = 0.3;  // per word token
  double mim_ratio = 0.4;        // of the grid² patches
  int grid = 14;                 // patches per side (input_size / patch_size)
  bool vertex_dropout = true;    // on 16-point polygons, as pretraining the polygon encoder
  int64_t mask_id = kRobertaMaskId;
};

// One tile's LIGHT-pretraining sample, T = its real tokens (<s>, word tokens, </s>).
struct LightPretrainSample {
  int tokens = 0;
  size_t words = 0, left_out = 0;  // words in the sample; words beyond max_length (left out)
  std::vector<int64_t> input_ids;  // [T] with <mask> at the MLM positions
  std::vector<int64_t> bbox;       // [T, 4] 0–1000
  std::vector<float> polygons;     // [T, 32]; -100 (fully masked) for <s> and </s>, as the reference
  std::vector<int64_t> mlm_labels; // [T] original id at masked positions, else -100
  std::vector<int64_t> wpa_labels; // [T] 1 / 0 / -100 (see wpa_labels)
  std::vector<int64_t> token_patch;  // [T] the patch under the token's word box centre; -1 for <s>, </s>
  std::vector<float> pixels;       // [3, S, S] with the masked patches zeroed
  std::vector<uint8_t> patch_masked;  // [grid²]
  std::vector<int64_t> mim_labels;    // [grid²] the image tokenizer's code of every unmasked patch (empty without one)
};

// The sample of one tile (docs/reference-notes.md §3.2): vertex dropout, the words in a random order with
// their boxes and polygons (select_words's rules), tokens up to max_length — where the reference
// rejects a tile whose words do not all fit and draws another, the words that fit are kept (a random
// subset, since the order is random) and the rest counted in left_out — then MLM, MIM and WPA.
// `pixels` are the tile's unmasked pixel values ([3, S, S], S = grid x patch). `codebook` may be null
// (no MIM targets). A tile without usable words gives <s> </s> and no MLM/WPA labels.
LightPretrainSample make_light_pretrain_sample(const PolyTile& tile, const std::vector<float>& pixels, const Tokenize& tokenize,
                                              const SpecialIds& special, const PatchCodebook* codebook,
                                              const LightPretrainOptions& options, std::mt19937_64& rng);

}  // namespace light::data

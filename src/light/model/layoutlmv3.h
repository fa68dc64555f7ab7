// LayoutLMv3 (Hugging Face transformers 4.49, eager attention) as LIGHT uses it: text embeddings
// (word + token type + RoBERTa positions + six 2-D layout tables), the visual patch embedding, and
// the encoder whose attention adds 1-D (token order) and 2-D (box x0 and y1) relative-position biases.
#pragma once
#include <torch/torch.h>

#include "light/model/config.h"
#include "light/model/transformer.h"

namespace light::model {

struct LayoutLMv3TextEmbeddingsImpl : torch::nn::Module {
  explicit LayoutLMv3TextEmbeddingsImpl(const LayoutLMv3Config& c);
  // input_ids [B, T], bbox [B, T, 4] (0..1000) -> [B, T, H]
  torch::Tensor forward(const torch::Tensor& input_ids, const torch::Tensor& bbox);
  torch::nn::Embedding word_embeddings{nullptr}, token_type_embeddings{nullptr}, position_embeddings{nullptr},
      x_position_embeddings{nullptr}, y_position_embeddings{nullptr}, h_position_embeddings{nullptr},
      w_position_embeddings{nullptr};
  torch::nn::LayerNorm LayerNorm{nullptr};
  int pad_token_id;
  double dropout;  // after the LayerNorm, in training
};
TORCH_MODULE(LayoutLMv3TextEmbeddings);

struct PatchEmbedImpl : torch::nn::Module {
  explicit PatchEmbedImpl(const LayoutLMv3Config& c);
  torch::nn::Conv2d proj{nullptr};
};
TORCH_MODULE(PatchEmbed);

struct LayoutLMv3EncoderImpl : torch::nn::Module {
  explicit LayoutLMv3EncoderImpl(const LayoutLMv3Config& c);
  // The summed attention bias [B, heads, S, S] for 1-D positions [S] and boxes [B, S, 4].
  torch::Tensor attention_bias(const torch::Tensor& positions, const torch::Tensor& boxes) const;
  // The same bias computed in one pass over the pairs (CPU, float32 tables, no gradient); with `keep`
  // [B, S] (1: a real token) or a divisor, bias / divide + the additive mask instead.
  torch::Tensor attention_bias_cpu(const torch::Tensor& positions, const torch::Tensor& boxes, const torch::Tensor& keep = {},
                                   double divide = 1.0) const;
  // Inference (no gradient): bias / divide plus the additive mask of `keep` [B, S] (0 where kept, the
  // lowest float where not), what every layer adds to its scores: [B, heads, S, S].
  torch::Tensor scores_bias(const torch::Tensor& positions, const torch::Tensor& boxes, const torch::Tensor& keep, double divide) const;
  torch::nn::ModuleList layer;
  torch::nn::Linear rel_pos_bias{nullptr}, rel_pos_x_bias{nullptr}, rel_pos_y_bias{nullptr};
  LayoutLMv3Config config;
};
TORCH_MODULE(LayoutLMv3Encoder);

// Boxes of the visual tokens on the 0..1000 scale: the CLS [1, 1, 999, 999], then the patch grid
// (edges floor(1000 k / grid)), row by row. [grid*grid + 1, 4] int64.
torch::Tensor visual_bbox(int grid);

}  // namespace light::model

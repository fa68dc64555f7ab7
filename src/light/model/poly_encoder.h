// LIGHT's polygon encoder: each word's polygon (32 values, x/W and y/H, padded with -100) becomes
// one vector. Coordinates are embedded by a scalar linear map, a CLS token is prepended, two
// absolute position tables are added (the module's own and BERT's), and a BERT encoder (LayerNorm
// eps 1e-12) attends over the unmasked coordinates (negative values are masked; zeros are not);
// the CLS output, LayerNorm'ed, is the polygon embedding. Names follow the checkpoint
// (light.poly_encoder.cls_token, .coord_embedding, .position_embedding, .encoder.*, .norm).
#pragma once
#include <torch/torch.h>

#include "light/model/config.h"
#include "light/model/transformer.h"

namespace light::model {

struct BertEmbeddingsImpl : torch::nn::Module {  // used with inputs_embeds: no word table needed
  BertEmbeddingsImpl(const PolyEncoderConfig& c);
  torch::nn::Embedding position_embeddings{nullptr}, token_type_embeddings{nullptr};
  torch::nn::LayerNorm LayerNorm{nullptr};
};
TORCH_MODULE(BertEmbeddings);

struct BertEncoderImpl : torch::nn::Module {
  BertEncoderImpl(const PolyEncoderConfig& c);
  torch::nn::ModuleList layer;
};
TORCH_MODULE(BertEncoder);

struct BertModelImpl : torch::nn::Module {
  BertModelImpl(const PolyEncoderConfig& c);
  BertEmbeddings embeddings{nullptr};
  BertEncoder encoder{nullptr};
};
TORCH_MODULE(BertModel);

struct PolyEncoderImpl : torch::nn::Module {
  explicit PolyEncoderImpl(const PolyEncoderConfig& c);
  // polygons [P, 32] -> [P, H]. `cls_prenorm` (optional) receives the CLS state before `norm`.
  // Without gradients on the CPU, the polygons are split among LibTorch's threads, each running the
  // encoder on its share alone (the many small per-polygon products do not spread over threads).
  torch::Tensor forward(const torch::Tensor& polygons, torch::Tensor* cls_prenorm = nullptr);
  torch::Tensor cls_token;
  torch::nn::Linear coord_embedding{nullptr};
  torch::nn::Embedding position_embedding{nullptr};
  BertModel encoder{nullptr};
  torch::nn::LayerNorm norm{nullptr};
  PolyEncoderConfig config;

 private:
  torch::Tensor encode(const torch::Tensor& polygons, torch::Tensor* cls_prenorm);
};
TORCH_MODULE(PolyEncoder);

// Every token's state (CLS first) of a polygon BERT trunk, [P, 1 + C, H]: values [P, C] embedded by
// `coord_embedding`, the CLS prepended, both position tables and token type 0 added, LayerNorm, the
// layers with the keys where `key_valid` [P, C] is false masked. Shared by LIGHT's encoder (which
// masks values < 0) and polygon pretraining (which masks only the -100 padding, as the reference).
torch::Tensor poly_token_states(const torch::Tensor& cls_token, torch::nn::Linear& coord_embedding,
                                torch::nn::Embedding& position_embedding, BertModel& encoder, const torch::Tensor& values,
                                const torch::Tensor& key_valid, double hidden_dropout, bool training);

}  // namespace light::model

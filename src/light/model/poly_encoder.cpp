#include "light/model/poly_encoder.h"

#include <limits>

namespace light::model {

BertEmbeddingsImpl::BertEmbeddingsImpl(const PolyEncoderConfig& c) {
  position_embeddings = register_module("position_embeddings", torch::nn::Embedding(c.max_position_embeddings, c.emb_dim));
  token_type_embeddings = register_module("token_type_embeddings", torch::nn::Embedding(c.type_vocab_size, c.emb_dim));
  LayerNorm = register_module("LayerNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.emb_dim}).eps(c.bert_layer_norm_eps)));
}

BertEncoderImpl::BertEncoderImpl(const PolyEncoderConfig& c) {
  layer = register_module("layer", torch::nn::ModuleList());
  for (int i = 0; i < c.num_hidden_layers; ++i)
    layer->push_back(TransformerLayer(c.emb_dim, c.num_attention_heads, c.intermediate_size, c.bert_layer_norm_eps,
                                      AttentionStyle::Bert));
}

BertModelImpl::BertModelImpl(const PolyEncoderConfig& c) {
  embeddings = register_module("embeddings", BertEmbeddings(c));
  encoder = register_module("encoder", BertEncoder(c));
}

PolyEncoderImpl::PolyEncoderImpl(const PolyEncoderConfig& c) : config(c) {
  cls_token = register_parameter("cls_token", torch::zeros({1, 1, c.emb_dim}));
  coord_embedding = register_module("coord_embedding", torch::nn::Linear(torch::nn::LinearOptions(1, c.emb_dim).bias(false)));
  position_embedding = register_module("position_embedding", torch::nn::Embedding(c.num_coords + 1, c.emb_dim));
  encoder = register_module("encoder", BertModel(c));
  norm = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.emb_dim}).eps(c.final_layer_norm_eps)));
}

torch::Tensor PolyEncoderImpl::forward(const torch::Tensor& polygons, torch::Tensor* cls_prenorm) {
  const int64_t P = polygons.size(0), C = polygons.size(1), H = config.emb_dim;
  const int64_t S = C + 1;
  torch::Tensor x = coord_embedding(polygons.unsqueeze(-1));                 // [P, C, H]
  x = torch::cat({cls_token.expand({P, 1, H}), x}, 1);                      // [P, S, H]
  x = x + position_embedding->weight.slice(0, 0, S).unsqueeze(0);
  // BERT embeddings with inputs_embeds: + token type 0, + its own absolute positions, LayerNorm.
  auto& emb = encoder->embeddings;
  x = x + emb->token_type_embeddings->weight[0];
  x = x + emb->position_embeddings->weight.slice(0, 0, S).unsqueeze(0);
  x = emb->LayerNorm(x);
  // Keys: the CLS and every coordinate >= 0 (negative values, the -100 padding included, are masked).
  const torch::Tensor keep = torch::cat({torch::ones({P, 1}, polygons.options()), (polygons >= 0).to(polygons.dtype())}, 1);
  const torch::Tensor mask = ((1.0 - keep) * std::numeric_limits<float>::lowest()).view({P, 1, 1, S});
  // Only the CLS output is used: the last layer computes the CLS query alone (same values).
  const size_t layers = encoder->encoder->layer->size();
  for (size_t i = 0; i < layers; ++i)
    x = encoder->encoder->layer[i]->as<TransformerLayerImpl>()->forward(x, torch::Tensor(), mask, i + 1 == layers ? 1 : 0);
  const torch::Tensor cls = x.select(1, 0);
  if (cls_prenorm) *cls_prenorm = cls;
  return norm(cls);
}

}  // namespace light::model

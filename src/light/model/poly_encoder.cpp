#include "light/model/poly_encoder.h"

#include <limits>
#include <set>


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
                                      AttentionStyle::Bert, c.hidden_dropout, c.attention_dropout));
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
  // Masked coordinates (negative values, the -100 padding included) are never attended by any query,
  // so they cannot affect the CLS output: each polygon runs on the CLS and its valid coordinates only,
  // every token keeping its absolute positions. Polygons are grouped by their number of valid values.
  const int64_t P = polygons.size(0), H = config.emb_dim;
  const torch::Tensor valid = polygons >= 0;
  const torch::Tensor counts = valid.sum(1).to(torch::kCPU);
  torch::Tensor out = torch::empty({P, H}, polygons.options());
  torch::Tensor pre = cls_prenorm ? torch::empty({P, H}, polygons.options()) : torch::Tensor();
  auto& emb = encoder->embeddings;
  const size_t layers = encoder->encoder->layer->size();
  std::set<int64_t> distinct;
  for (int64_t i = 0; i < P; ++i) distinct.insert(counts[i].item<int64_t>());
  for (const int64_t n : distinct) {
    const torch::Tensor rows = torch::nonzero(counts.eq(n)).flatten().to(polygons.device());
    const int64_t G = rows.size(0);
    // Positions (1-based: 0 is the CLS) and values of each polygon's valid coordinates.
    const torch::Tensor cols = torch::nonzero(valid.index_select(0, rows)).select(1, 1).view({G, n});
    const torch::Tensor values = polygons.index_select(0, rows).gather(1, cols);
    torch::Tensor x = torch::cat({cls_token.expand({G, 1, H}), coord_embedding(values.unsqueeze(-1))}, 1);  // [G, 1+n, H]
    const torch::Tensor positions = torch::cat({torch::zeros({G, 1}, cols.options()), cols + 1}, 1);
    // The module's and BERT's absolute positions and token type 0, then BERT's LayerNorm.
    x = x + position_embedding(positions);
    x = x + emb->token_type_embeddings->weight[0];
    x = x + emb->position_embeddings(positions);
    x = emb->LayerNorm(x);
    if (config.hidden_dropout > 0 && is_training()) x = torch::dropout(x, config.hidden_dropout, true);
    // Only the CLS output is used: the last layer computes the CLS query alone (same values).
    for (size_t i = 0; i < layers; ++i)
      x = encoder->encoder->layer[i]->as<TransformerLayerImpl>()->forward(x, torch::Tensor(), torch::Tensor(), i + 1 == layers ? 1 : 0);
    const torch::Tensor cls = x.select(1, 0);
    out.index_copy_(0, rows, norm(cls));
    if (cls_prenorm) pre.index_copy_(0, rows, cls);
  }
  if (cls_prenorm) *cls_prenorm = pre;
  return out;
}

torch::Tensor poly_token_states(const torch::Tensor& cls_token, torch::nn::Linear& coord_embedding,
                                torch::nn::Embedding& position_embedding, BertModel& encoder, const torch::Tensor& values,
                                const torch::Tensor& key_valid, double hidden_dropout, bool training) {
  const int64_t P = values.size(0), C = values.size(1), H = cls_token.size(-1);
  torch::Tensor x = torch::cat({cls_token.expand({P, 1, H}), coord_embedding(values.unsqueeze(-1))}, 1);  // [P, 1+C, H]
  const torch::Tensor positions = torch::arange(C + 1, values.options().dtype(torch::kInt64));
  auto& emb = encoder->embeddings;
  x = x + position_embedding(positions) + emb->token_type_embeddings->weight[0] + emb->position_embeddings(positions);
  x = emb->LayerNorm(x);
  if (hidden_dropout > 0 && training) x = torch::dropout(x, hidden_dropout, true);
  const torch::Tensor valid = torch::cat({torch::ones({P, 1}, key_valid.options().dtype(torch::kBool)), key_valid.to(torch::kBool)}, 1);
  const torch::Tensor mask = torch::zeros({P, 1, 1, C + 1}, x.options())
                                 .masked_fill(valid.logical_not().view({P, 1, 1, C + 1}), std::numeric_limits<float>::lowest());
  for (const auto& layer : *encoder->encoder->layer) x = layer->as<TransformerLayerImpl>()->forward(x, torch::Tensor(), mask);
  return x;
}

}  // namespace light::model

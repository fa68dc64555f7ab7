#include "light/model/layoutlmv3.h"

#include "light/model/dropout.h"
#include "light/model/relative_position.h"

namespace light::model {

namespace {
torch::nn::Embedding table(int n, int d) { return torch::nn::Embedding(n, d); }

// Bucket lookup for every relative distance in [-range, range].
torch::Tensor bucket_table(int64_t range, int buckets, int max_distance) {
  std::vector<int64_t> t(static_cast<size_t>(2 * range + 1));
  for (int64_t r = -range; r <= range; ++r) t[static_cast<size_t>(r + range)] = relative_position_bucket(r, buckets, max_distance);
  return torch::tensor(t, torch::kLong);
}
}  // namespace

LayoutLMv3TextEmbeddingsImpl::LayoutLMv3TextEmbeddingsImpl(const LayoutLMv3Config& c)
    : pad_token_id(c.pad_token_id), dropout(c.hidden_dropout) {
  word_embeddings = register_module("word_embeddings", table(c.vocab_size, c.hidden_size));
  token_type_embeddings = register_module("token_type_embeddings", table(c.type_vocab_size, c.hidden_size));
  position_embeddings = register_module("position_embeddings", table(c.max_position_embeddings, c.hidden_size));
  x_position_embeddings = register_module("x_position_embeddings", table(c.max_2d_position_embeddings, c.coordinate_size));
  y_position_embeddings = register_module("y_position_embeddings", table(c.max_2d_position_embeddings, c.coordinate_size));
  h_position_embeddings = register_module("h_position_embeddings", table(c.max_2d_position_embeddings, c.shape_size));
  w_position_embeddings = register_module("w_position_embeddings", table(c.max_2d_position_embeddings, c.shape_size));
  LayerNorm = register_module("LayerNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.hidden_size}).eps(c.layer_norm_eps)));
}

torch::Tensor LayoutLMv3TextEmbeddingsImpl::forward(const torch::Tensor& ids, const torch::Tensor& bbox) {
  // RoBERTa positions: non-pad tokens count up from pad_id + 1; pads get pad_id.
  const torch::Tensor not_pad = ids.ne(pad_token_id).to(torch::kLong);
  const torch::Tensor positions = torch::cumsum(not_pad, 1) * not_pad + pad_token_id;
  torch::Tensor e = word_embeddings(ids) + token_type_embeddings->weight[0];
  e = e + position_embeddings(positions);
  const auto x0 = bbox.select(2, 0), y0 = bbox.select(2, 1), x1 = bbox.select(2, 2), y1 = bbox.select(2, 3);
  const torch::Tensor spatial = torch::cat({x_position_embeddings(x0), y_position_embeddings(y0), x_position_embeddings(x1),
                                            y_position_embeddings(y1), h_position_embeddings(torch::clamp(y1 - y0, 0, 1023)),
                                            w_position_embeddings(torch::clamp(x1 - x0, 0, 1023))},
                                           -1);
  const torch::Tensor out = LayerNorm(e + spatial);
  return dropout > 0 && is_training() ? train_dropout(out, dropout) : out;
}

PatchEmbedImpl::PatchEmbedImpl(const LayoutLMv3Config& c) {
  proj = register_module("proj", torch::nn::Conv2d(torch::nn::Conv2dOptions(c.num_channels, c.hidden_size, c.patch_size).stride(c.patch_size)));
}

LayoutLMv3EncoderImpl::LayoutLMv3EncoderImpl(const LayoutLMv3Config& c) : config(c) {
  layer = register_module("layer", torch::nn::ModuleList());
  for (int i = 0; i < c.num_hidden_layers; ++i)
    layer->push_back(TransformerLayer(c.hidden_size, c.num_attention_heads, c.intermediate_size, c.layer_norm_eps,
                                      AttentionStyle::LayoutLMv3, c.hidden_dropout, c.attention_dropout));
  auto nobias = [](int in, int out) { return torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(false)); };
  rel_pos_bias = register_module("rel_pos_bias", nobias(c.rel_pos_bins, c.num_attention_heads));
  rel_pos_x_bias = register_module("rel_pos_x_bias", nobias(c.rel_2d_pos_bins, c.num_attention_heads));
  rel_pos_y_bias = register_module("rel_pos_y_bias", nobias(c.rel_2d_pos_bins, c.num_attention_heads));
}

torch::Tensor LayoutLMv3EncoderImpl::attention_bias(const torch::Tensor& positions, const torch::Tensor& boxes) const {
  // r = key - query. One-hot times the table equals a gather of the table's columns.
  const int64_t range1 = positions.max().item<int64_t>() - positions.min().item<int64_t>();
  const torch::Tensor r1 = positions.unsqueeze(0) - positions.unsqueeze(1);  // [S, S]
  const torch::Tensor b1 = bucket_table(range1, config.rel_pos_bins, config.max_rel_pos)
                               .to(positions.device())
                               .index_select(0, (r1 + range1).flatten())
                               .view_as(r1);
  // The bias tables are gathered without gradient, as transformers >= 4.42 does: they stay frozen in
  // training, which keeps fine-tuned weights comparable with the reference's (unless
  // train_relative_bias: training from scratch).
  auto table = [&](const torch::nn::Linear& lin) { return config.train_relative_bias ? lin->weight.t() : lin->weight.detach().t(); };
  const torch::Tensor w1 = table(rel_pos_bias);  // [bins, heads]
  const torch::Tensor bias1 = w1.index_select(0, b1.flatten()).view({1, r1.size(0), r1.size(1), -1}).permute({0, 3, 1, 2});
  const int64_t range2 = std::max<int64_t>(1, boxes.max().item<int64_t>() - boxes.min().item<int64_t>());
  const torch::Tensor t2 = bucket_table(range2, config.rel_2d_pos_bins, config.max_rel_2d_pos).to(boxes.device());
  auto bias2d = [&](const torch::Tensor& coord, const torch::nn::Linear& lin) {  // coord [B, S]
    const torch::Tensor r = coord.unsqueeze(1) - coord.unsqueeze(2);           // [B, S, S]
    const torch::Tensor b = t2.index_select(0, (r + range2).flatten());
    return table(lin).index_select(0, b).view({r.size(0), r.size(1), r.size(2), -1}).permute({0, 3, 1, 2});
  };
  const torch::Tensor bias2 = bias2d(boxes.select(2, 0), rel_pos_x_bias) + bias2d(boxes.select(2, 3), rel_pos_y_bias);
  return bias1 + bias2;
}

torch::Tensor visual_bbox(int grid) {
  std::vector<int64_t> v{1, 1, 999, 999};
  for (int r = 0; r < grid; ++r)
    for (int c = 0; c < grid; ++c) {
      v.push_back(1000 * c / grid);
      v.push_back(1000 * r / grid);
      v.push_back(1000 * (c + 1) / grid);
      v.push_back(1000 * (r + 1) / grid);
    }
  return torch::tensor(v, torch::kLong).view({grid * grid + 1, 4});
}

}  // namespace light::model

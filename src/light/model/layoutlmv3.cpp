#include "light/model/layoutlmv3.h"

#include <ATen/Parallel.h>

#include <limits>
#include <stdexcept>

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

namespace {
// Each head's bias for every relative distance in [-range, range]: bucket and table in one lookup.
// weight: a Linear(bins -> heads)'s [heads, bins]. [heads][2 range + 1].
std::vector<float> head_tables(const torch::Tensor& weight, int64_t range, int buckets, int max_distance) {
  const torch::Tensor w = weight.detach().to(torch::kCPU).to(torch::kFloat32).contiguous();
  const int64_t heads = w.size(0), bins = w.size(1), R = 2 * range + 1;
  std::vector<float> t(static_cast<size_t>(heads * R));
  const float* p = w.data_ptr<float>();
  for (int64_t r = -range; r <= range; ++r) {
    const int64_t k = relative_position_bucket(r, buckets, max_distance);
    for (int64_t h = 0; h < heads; ++h) t[static_cast<size_t>(h * R + r + range)] = p[h * bins + k];
  }
  return t;
}
}  // namespace

torch::Tensor LayoutLMv3EncoderImpl::attention_bias_cpu(const torch::Tensor& positions, const torch::Tensor& boxes,
                                                        const torch::Tensor& keep, double divide) const {
  const torch::Tensor pos = positions.to(torch::kLong).contiguous(), box = boxes.to(torch::kLong).contiguous();
  const int64_t B = box.size(0), S = pos.size(0), heads = config.num_attention_heads;
  const int64_t* p = pos.data_ptr<int64_t>();
  const int64_t* bx = box.data_ptr<int64_t>();
  int64_t pmin = p[0], pmax = p[0], cmin = bx[0], cmax = bx[0];
  for (int64_t i = 0; i < S; ++i) pmin = std::min(pmin, p[i]), pmax = std::max(pmax, p[i]);
  for (int64_t i = 0; i < box.numel(); ++i) cmin = std::min(cmin, bx[i]), cmax = std::max(cmax, bx[i]);
  const int64_t range1 = pmax - pmin, range2 = std::max<int64_t>(1, cmax - cmin);
  const std::vector<float> t1 = head_tables(rel_pos_bias->weight, range1, config.rel_pos_bins, config.max_rel_pos);
  const std::vector<float> tx = head_tables(rel_pos_x_bias->weight, range2, config.rel_2d_pos_bins, config.max_rel_2d_pos);
  const std::vector<float> ty = head_tables(rel_pos_y_bias->weight, range2, config.rel_2d_pos_bins, config.max_rel_2d_pos);
  torch::Tensor out = torch::empty({B, heads, S, S}, torch::kFloat32);
  float* o = out.data_ptr<float>();
  // The additive mask of each key: -0 (as (1 - 1) x lowest) where kept, the lowest float elsewhere.
  std::vector<float> mask(static_cast<size_t>(B * S), -0.0f);
  if (keep.defined()) {
    const torch::Tensor k = keep.to(torch::kCPU).to(torch::kFloat32).contiguous();
    if (k.numel() != B * S) throw std::runtime_error("attention_bias_cpu: one keep flag a token expected");
    for (int64_t i = 0; i < B * S; ++i) mask[static_cast<size_t>(i)] = (1.0f - k.data_ptr<float>()[i]) * std::numeric_limits<float>::lowest();
  }
  const float div = static_cast<float>(divide);
  at::parallel_for(0, B * heads, 1, [&](int64_t begin, int64_t end) {
    std::vector<int64_t> x(static_cast<size_t>(S)), y(static_cast<size_t>(S));
    for (int64_t k = begin; k < end; ++k) {
      const int64_t b = k / heads, h = k % heads;
      for (int64_t i = 0; i < S; ++i) x[static_cast<size_t>(i)] = bx[(b * S + i) * 4], y[static_cast<size_t>(i)] = bx[(b * S + i) * 4 + 3];
      const float* T1 = t1.data() + h * (2 * range1 + 1) + range1;
      const float* TX = tx.data() + h * (2 * range2 + 1) + range2;
      const float* TY = ty.data() + h * (2 * range2 + 1) + range2;
      float* ok = o + k * S * S;
      const float* M = mask.data() + b * S;
      for (int64_t i = 0; i < S; ++i) {
        const int64_t pi = p[i], xi = x[static_cast<size_t>(i)], yi = y[static_cast<size_t>(i)];
        float* row = ok + i * S;
        // bias1 + (bias_x + bias_y), as the tensor path adds them; / 1 and + -0 leave a value as it is.
        for (int64_t j = 0; j < S; ++j)
          row[j] = (T1[p[j] - pi] + (TX[x[static_cast<size_t>(j)] - xi] + TY[y[static_cast<size_t>(j)] - yi])) / div + M[j];
      }
    }
  });
  return out;
}

torch::Tensor LayoutLMv3EncoderImpl::scores_bias(const torch::Tensor& positions, const torch::Tensor& boxes, const torch::Tensor& keep,
                                                 double divide) const {
  if (positions.device().is_cpu() && boxes.device().is_cpu() && rel_pos_bias->weight.scalar_type() == torch::kFloat32)
    return attention_bias_cpu(positions, boxes, keep, divide);
  const torch::Tensor mask = ((1.0 - keep) * std::numeric_limits<float>::lowest()).view({keep.size(0), 1, 1, keep.size(1)});
  return (attention_bias(positions, boxes) / divide + mask).contiguous();
}

torch::Tensor LayoutLMv3EncoderImpl::attention_bias(const torch::Tensor& positions, const torch::Tensor& boxes) const {
  // Without a gradient for the tables (inference, or tables kept frozen) on the CPU: one pass.
  const bool tables_learn = torch::GradMode::is_enabled() && config.train_relative_bias && rel_pos_bias->weight.requires_grad();
  if (!tables_learn && positions.device().is_cpu() && boxes.device().is_cpu() && rel_pos_bias->weight.scalar_type() == torch::kFloat32)
    return attention_bias_cpu(positions, boxes);
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

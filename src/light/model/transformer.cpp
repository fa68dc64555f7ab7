#include "light/model/transformer.h"

#include <cmath>

namespace light::model {

SelfAttentionImpl::SelfAttentionImpl(int hidden, int h) : heads(h), head_dim(hidden / h) {
  query = register_module("query", torch::nn::Linear(hidden, hidden));
  key = register_module("key", torch::nn::Linear(hidden, hidden));
  value = register_module("value", torch::nn::Linear(hidden, hidden));
}

DenseNormImpl::DenseNormImpl(int in, int out, double eps) {
  dense = register_module("dense", torch::nn::Linear(in, out));
  LayerNorm = register_module("LayerNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({out}).eps(eps)));
}

torch::Tensor DenseNormImpl::forward(const torch::Tensor& x, const torch::Tensor& residual) {
  return LayerNorm(dense(x) + residual);
}

AttentionImpl::AttentionImpl(int hidden, int heads, double eps) {
  self = register_module("self", SelfAttention(hidden, heads));
  output = register_module("output", DenseNorm(hidden, hidden, eps));
}

IntermediateImpl::IntermediateImpl(int hidden, int ffn) { dense = register_module("dense", torch::nn::Linear(hidden, ffn)); }

TransformerLayerImpl::TransformerLayerImpl(int hidden, int heads, int ffn, double eps, AttentionStyle s, double hd, double ad)
    : style(s), hidden_dropout(hd), attention_dropout(ad) {
  attention = register_module("attention", Attention(hidden, heads, eps));
  intermediate = register_module("intermediate", Intermediate(hidden, ffn));
  output = register_module("output", DenseNorm(ffn, hidden, eps));
}

torch::Tensor TransformerLayerImpl::forward(const torch::Tensor& x, const torch::Tensor& bias, const torch::Tensor& mask,
                                           int64_t query_rows) {
  auto& sa = attention->self;
  const int64_t B = x.size(0), S = x.size(1), h = sa->heads, d = sa->head_dim;
  const int64_t Q = query_rows > 0 ? std::min(query_rows, S) : S;
  const torch::Tensor xq = Q == S ? x : x.slice(1, 0, Q);
  auto split = [&](const torch::Tensor& t, int64_t n) { return t.view({B, n, h, d}).permute({0, 2, 1, 3}); };
  const torch::Tensor q = split(sa->query(xq), Q), k = split(sa->key(x), S), v = split(sa->value(x), S);
  const double scale = std::sqrt(static_cast<double>(d));
  torch::Tensor probs;
  if (style == AttentionStyle::LayoutLMv3) {
    torch::Tensor scores = torch::matmul(q / scale, k.transpose(-1, -2));
    if (bias.defined()) scores = scores + (Q == S ? bias : bias.slice(2, 0, Q)) / scale;
    if (mask.defined()) scores = scores + mask;
    // CogView PB-relax: (s / 32 - max(s / 32)) * 32, then softmax.
    const double alpha = 32.0;
    const torch::Tensor scaled = scores / alpha;
    const torch::Tensor mx = std::get<0>(scaled.max(-1, /*keepdim=*/true));
    probs = torch::softmax((scaled - mx) * alpha, -1);
  } else {
    torch::Tensor scores = torch::matmul(q, k.transpose(-1, -2)) / scale;
    if (mask.defined()) scores = scores + mask;
    probs = torch::softmax(scores, -1);
  }
  if (attention_dropout > 0 && is_training()) probs = torch::dropout(probs, attention_dropout, true);
  const torch::Tensor ctx = torch::matmul(probs, v).permute({0, 2, 1, 3}).reshape({B, Q, h * d});
  auto drop = [&](const torch::Tensor& t) {
    return hidden_dropout > 0 && is_training() ? torch::dropout(t, hidden_dropout, true) : t;
  };
  const torch::Tensor att = attention->output->LayerNorm(drop(attention->output->dense(ctx)) + xq);
  const torch::Tensor inter = torch::gelu(intermediate->dense(att));
  return output->LayerNorm(drop(output->dense(inter)) + att);
}

}  // namespace light::model

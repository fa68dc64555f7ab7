#include "light/model/transformer.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>

#include "light/model/dropout.h"
#include "light/model/gemm.h"

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
  return LayerNorm(linear(dense, x) + residual);
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
  const int64_t S = x.size(1);
  const int64_t Q = query_rows > 0 ? std::min(query_rows, S) : S;
  const torch::Tensor xq = Q == S ? x : x.slice(1, 0, Q);
  return forward_projected(linear(sa->query, xq), linear(sa->key, x), linear(sa->value, x), xq, bias, mask);
}

torch::Tensor TransformerLayerImpl::forward_projected(const torch::Tensor& query, const torch::Tensor& key,
                                                     const torch::Tensor& value, const torch::Tensor& xq,
                                                     const torch::Tensor& bias, const torch::Tensor& mask) {
  auto& sa = attention->self;
  const int64_t B = key.size(0), S = key.size(1), Q = query.size(1), h = sa->heads, d = sa->head_dim;
  auto split = [&](const torch::Tensor& t, int64_t n) { return t.view({B, n, h, d}).permute({0, 2, 1, 3}); };
  const torch::Tensor q = split(query, Q), k = split(key, S), v = split(value, S);
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
  if (attention_dropout > 0 && is_training()) probs = train_dropout(probs, attention_dropout);
  return finish(torch::matmul(probs, v).permute({0, 2, 1, 3}).reshape({B, Q, h * d}), xq);
}

namespace {
// softmax(alpha q k^T + bias) v for every (batch item, head), a block of query rows at a time so
// that a block's scores stay in the core's cache: no [B, heads, Q, S] score tensor is written out
// and read back (the slowest part of attention here, where memory is slow). q [B, Q, h, d], k and v
// [B, S, h, d] (any strides with a unit last one: the products read them in place); bias
// [B, h, Q, S]. Returns the context [B, Q, h * d], heads side by side.
torch::Tensor blocked_attention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, const torch::Tensor& bias,
                                double alpha) {
  const int64_t B = q.size(0), Q = q.size(1), h = q.size(2), d = q.size(3);
  constexpr int64_t kBlock = 128;  // 128 query rows x ~500 keys: a quarter of a MB of scores
  const int64_t blocks = (Q + kBlock - 1) / kBlock;
  torch::Tensor ctx = torch::empty({B, Q, h, d}, q.options());
  at::parallel_for(0, B * h * blocks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t b = t / (h * blocks), head = t / blocks % h, r0 = t % blocks * kBlock, r1 = std::min(Q, r0 + kBlock);
      torch::Tensor scores = bias[b][head].slice(0, r0, r1).clone();  // [rows, S]
      gemm_into(scores, q[b].slice(0, r0, r1).select(1, head), k[b].select(1, head), true, alpha, 1.0);
      at::_softmax_out(scores, scores, -1, false);
      torch::Tensor out = ctx[b].slice(0, r0, r1).select(1, head);  // [rows, d], rows h * d apart
      gemm_into(out, scores, v[b].select(1, head), false, 1.0, 0.0);
    }
  });
  return ctx.view({B, Q, h * d});
}
}  // namespace

torch::Tensor TransformerLayerImpl::forward_inference(const torch::Tensor& x, const torch::Tensor& scores_bias, const torch::Tensor& rows) {
  auto& sa = attention->self;
  const int64_t B = x.size(0), H = x.size(2), h = sa->heads, d = sa->head_dim;
  auto project = [&](std::vector<torch::nn::Linear*> lins, const torch::Tensor& in) {  // [B, n, parts, h, d]
    std::vector<torch::Tensor> w, b;
    for (auto* l : lins) w.push_back((*l)->weight), b.push_back((*l)->bias);
    return addmm_weight(torch::cat(b), in.reshape({-1, H}), torch::cat(w)).view({B, in.size(1), static_cast<int64_t>(lins.size()), h, d});
  };
  torch::Tensor q, k, v, xq = x;
  if (!rows.defined()) {
    const torch::Tensor qkv = project({&sa->query, &sa->key, &sa->value}, x);
    q = qkv.select(2, 0), k = qkv.select(2, 1), v = qkv.select(2, 2);
  } else {
    xq = x.gather(1, rows.unsqueeze(-1).expand({B, rows.size(1), H}));
    q = project({&sa->query}, xq).select(2, 0);
    const torch::Tensor kv = project({&sa->key, &sa->value}, x);
    k = kv.select(2, 0), v = kv.select(2, 1);
  }
  return finish(blocked_attention(q, k, v, scores_bias.contiguous(), 1.0 / std::sqrt(static_cast<double>(d))), xq);
}

namespace {
// The rows a block of finish_inference holds: its 4H-wide intermediate (1 MB at H = 256) stays in a
// core's cache from the product that makes it, through the GELU, to the product that reads it.
constexpr int64_t kFinishBlock = 256;
}  // namespace

torch::Tensor TransformerLayerImpl::finish(const torch::Tensor& context, const torch::Tensor& xq) {
  if (!is_training() && !torch::GradMode::is_enabled() && context.device().is_cpu() && context.numel() / context.size(-1) >= 2 * kFinishBlock)
    return finish_inference(context, xq);
  auto drop = [&](const torch::Tensor& t) {
    return hidden_dropout > 0 && is_training() ? train_dropout(t, hidden_dropout) : t;
  };
  const torch::Tensor att = attention->output->LayerNorm(drop(linear(attention->output->dense, context)) + xq);
  const torch::Tensor inter = torch::gelu(linear(intermediate->dense, att));
  return output->LayerNorm(drop(linear(output->dense, inter)) + att);
}

torch::Tensor TransformerLayerImpl::finish_inference(const torch::Tensor& context, const torch::Tensor& xq) {
  const int64_t H = xq.size(-1), n = xq.numel() / H;
  const torch::Tensor c = context.reshape({n, context.size(-1)}), x = xq.reshape({n, H});
  torch::Tensor out = torch::empty({n, H}, xq.options());
  auto& d1 = attention->output->dense;
  auto& d2 = intermediate->dense;
  auto& d3 = output->dense;
  const int64_t blocks = (n + kFinishBlock - 1) / kFinishBlock;
  // Each block on one thread (a product inside a parallel region runs on its own thread): the
  // blocks, not the products, are shared among the threads.
  at::parallel_for(0, blocks, 1, [&](int64_t begin, int64_t end) {
    const torch::NoGradGuard no_grad;  // the mode is the thread's own: the caller's does not reach the pool's threads
    for (int64_t b = begin; b < end; ++b) {
      const int64_t r0 = b * kFinishBlock, r1 = std::min(n, r0 + kFinishBlock);
      torch::Tensor att = addmm_weight(d1->bias, c.slice(0, r0, r1), d1->weight);
      att = attention->output->LayerNorm(att.add_(x.slice(0, r0, r1)));
      torch::Tensor inter = addmm_weight(d2->bias, att, d2->weight);
      torch::gelu_(inter);
      torch::Tensor o = addmm_weight(d3->bias, inter, d3->weight).add_(att);
      out.slice(0, r0, r1).copy_(output->LayerNorm(o));
    }
  });
  return out.view(xq.sizes());
}

}  // namespace light::model

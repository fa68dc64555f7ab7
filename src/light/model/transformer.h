// A post-LayerNorm transformer layer named as Hugging Face names it
// (attention.self.{query,key,value}, attention.output.{dense,LayerNorm}, intermediate.dense,
// output.{dense,LayerNorm}), in its two flavours: LayoutLMv3's (query scaled before the product,
// relative-position bias, CogView "PB-relax" softmax) and BERT's.
#pragma once
#include <torch/torch.h>

#include "light/model/gemm.h"  // linear

namespace light::model {

struct SelfAttentionImpl : torch::nn::Module {
  SelfAttentionImpl(int hidden, int heads);
  torch::nn::Linear query{nullptr}, key{nullptr}, value{nullptr};
  int heads, head_dim;
};
TORCH_MODULE(SelfAttention);

struct DenseNormImpl : torch::nn::Module {  // attention.output and output: dense + LayerNorm(x + residual)
  DenseNormImpl(int in, int out, double eps);
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& residual);
  torch::nn::Linear dense{nullptr};
  torch::nn::LayerNorm LayerNorm{nullptr};
};
TORCH_MODULE(DenseNorm);

struct AttentionImpl : torch::nn::Module {
  AttentionImpl(int hidden, int heads, double eps);
  SelfAttention self{nullptr};
  DenseNorm output{nullptr};
};
TORCH_MODULE(Attention);

struct IntermediateImpl : torch::nn::Module {
  IntermediateImpl(int hidden, int ffn);
  torch::nn::Linear dense{nullptr};
};
TORCH_MODULE(Intermediate);

enum class AttentionStyle { LayoutLMv3, Bert };

struct TransformerLayerImpl : torch::nn::Module {
  TransformerLayerImpl(int hidden, int heads, int ffn, double eps, AttentionStyle style, double hidden_dropout = 0.0,
                       double attention_dropout = 0.0);
  // x [B, S, H]; bias [B or 1, heads, S, S] added to the scores (LayoutLMv3 only; may be undefined);
  // mask [B, 1, 1, S] additive (0 or float32 min; may be undefined). With query_rows = q > 0, only
  // the first q positions are computed as queries (keys and values still come from all of x): the
  // output is [B, q, H], identical to the first q rows of the full result.
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& bias, const torch::Tensor& mask, int64_t query_rows = 0);
  // The same from the projections already made: query [B, Q, H], key and value [B, S, H] (the
  // outputs of attention.self.{query,key,value}, biases included) and the residual xq [B, Q, H].
  torch::Tensor forward_projected(const torch::Tensor& query, const torch::Tensor& key, const torch::Tensor& value,
                                  const torch::Tensor& xq, const torch::Tensor& bias, const torch::Tensor& mask);
  // Inference (eval mode, no gradient): `scores_bias` [B, heads, Q, S] is the bias over
  // sqrt(head_dim) plus the mask, made once for all layers; one product makes the query, key and
  // value; the plain softmax (PB-relax only shifts the scores before it: the same probabilities up
  // to float rounding). rows [B, W]: the tokens whose outputs are made (queries; undefined: all,
  // Q = S), each from every token's keys and values. [B, Q, H].
  torch::Tensor forward_inference(const torch::Tensor& x, const torch::Tensor& scores_bias, const torch::Tensor& rows = {});
  // The rest of the layer after the attention: context [B, Q, H] (heads concatenated, before
  // attention.output.dense), residual xq [B, Q, H].
  torch::Tensor finish(const torch::Tensor& context, const torch::Tensor& xq);
  // finish in eval mode without gradients, a block of rows at a time (every step of it is row by
  // row): the same result, without writing the [B * Q, 4H] intermediate out to memory.
  torch::Tensor finish_inference(const torch::Tensor& context, const torch::Tensor& xq);
  Attention attention{nullptr};
  Intermediate intermediate{nullptr};
  DenseNorm output{nullptr};
  AttentionStyle style;
  double hidden_dropout, attention_dropout;
};
TORCH_MODULE(TransformerLayer);

}  // namespace light::model

// PaddleOCR's PP-OCRv4 mobile text recogniser: PP-LCNetV3 (scale 0.95, recogniser strides), the
// SVTR sequence encoder of its CTC branch (two global-attention blocks of width 120) and the CTC
// head. Input: a text line's crop, BGR, (x/255 - 0.5)/0.5, [B, 3, 48, W]; output: per-step class
// logits [B, W/8, C] (class 0 the CTC blank). Module names follow PaddleOCR's (backbone.*,
// head.ctc_encoder.encoder.{conv1,conv2,svtr_block.K,norm,conv3,conv4,conv1x1}, head.ctc_head.fc).
#pragma once
#include <torch/torch.h>

#include <string>
#include <vector>

#include "light/model/pplcnetv3.h"

namespace light::model {

// conv (no bias) -> batch norm -> swish.
struct ConvBNSwishImpl : torch::nn::Module {
  ConvBNSwishImpl(int64_t in, int64_t out, std::pair<int64_t, int64_t> kernel);
  torch::Tensor forward(const torch::Tensor& x) {
    if (!folded) return torch::silu(norm(conv(x)));
    torch::Tensor y = conv(x);
    return torch::silu_(y);
  }
  void append_ordered(OrderedTensors& out, const std::string& name);
  void fold_for_inference();
  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d norm{nullptr};
  bool folded = false;
};
TORCH_MODULE(ConvBNSwish);

struct SVTRAttentionImpl : torch::nn::Module {  // global multi-head self-attention
  SVTRAttentionImpl(int64_t dim, int64_t heads);
  torch::Tensor forward(const torch::Tensor& x);  // [B, N, dim]
  torch::nn::Linear qkv{nullptr}, proj{nullptr};
  int64_t heads;
};
TORCH_MODULE(SVTRAttention);

struct SVTRMlpImpl : torch::nn::Module {
  SVTRMlpImpl(int64_t dim, int64_t hidden);
  torch::Tensor forward(const torch::Tensor& x) { return fc2(torch::silu(fc1(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(SVTRMlp);

struct SVTRBlockImpl : torch::nn::Module {  // x + mixer(norm1(x)), then + mlp(norm2(.))
  SVTRBlockImpl(int64_t dim, int64_t heads, int64_t mlp_hidden);
  torch::Tensor forward(torch::Tensor x);
  void append_ordered(OrderedTensors& out, const std::string& name);
  torch::nn::LayerNorm norm1{nullptr}, norm2{nullptr};
  SVTRAttention mixer{nullptr};
  SVTRMlp mlp{nullptr};
};
TORCH_MODULE(SVTRBlock);

// EncoderWithSVTR (use_guide): the backbone's map is both kept (h) and, with no gradient flowing
// back through this path, reduced, attended over as a sequence, and widened again; concatenated
// with h, two more convolutions give [B, hidden, 1, W'].
struct EncoderWithSVTRImpl : torch::nn::Module {
  EncoderWithSVTRImpl(int64_t in, int64_t dims, int64_t depth, int64_t hidden);
  torch::Tensor forward(const torch::Tensor& x);
  void append_ordered(OrderedTensors& out, const std::string& name);
  ConvBNSwish conv1{nullptr}, conv2{nullptr}, conv3{nullptr}, conv4{nullptr}, conv1x1{nullptr};
  torch::nn::ModuleList svtr_block{nullptr};
  torch::nn::LayerNorm norm{nullptr};
};
TORCH_MODULE(EncoderWithSVTR);

struct SequenceEncoderImpl : torch::nn::Module {
  explicit SequenceEncoderImpl(int64_t in);
  EncoderWithSVTR encoder{nullptr};
};
TORCH_MODULE(SequenceEncoder);

struct CTCHeadImpl : torch::nn::Module {
  CTCHeadImpl(int64_t in, int64_t classes);
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(CTCHead);

struct RecHeadImpl : torch::nn::Module {  // PaddleOCR's MultiHead, its CTC branch (the one exported)
  RecHeadImpl(int64_t in, int64_t classes);
  SequenceEncoder ctc_encoder{nullptr};
  CTCHead ctc_head{nullptr};
};
TORCH_MODULE(RecHead);

struct TextRecognizerImpl : torch::nn::Module {
  explicit TextRecognizerImpl(int64_t classes = 6625);
  torch::Tensor forward(const torch::Tensor& images);  // [B, 3, 48, W] -> logits [B, T, classes]
  // The logits of the classes `ids` alone ([K] int64, e.g. the blank and an alphabet's letters),
  // [B, T, K]: the CTC head's rows for them only (a twentieth of the work for the Latin alphabet).
  torch::Tensor forward(const torch::Tensor& images, const torch::Tensor& ids);
  torch::Tensor features(const torch::Tensor& images);  // the CTC head's input, [B, T, 120]
  OrderedTensors ordered_tensors();
  // For reading on a loaded, eval-mode model: batch norms and affines folded into the convolutions
  // (PPLCNetV3Impl::fold_for_inference) and the 4-D weights stored channels-last, which oneDNN
  // convolves without reordering (give it channels-last inputs too). The same outputs to float
  // rounding in about two thirds of the time. Call it on the model's device (folded biases are not
  // registered parameters: `to` no longer moves them); never train or save the model after.
  void prepare_for_inference();
  PPLCNetV3 backbone{nullptr};
  RecHead head{nullptr};
  int64_t classes;
};
TORCH_MODULE(TextRecognizer);

// A recogniser from a .safetensors file of its state; its class count is read from the file.
TextRecognizer load_text_recognizer(const std::string& path);

// `rec` with rows.size() classes more, put before its last class (the space, which stays last as a
// keys file's dictionary wants it): new class k starts as a copy of class rows[k]'s weights, its bias
// lowered by `bias_drop`, so that until it is trained the class it was copied from is read in its
// place. Every other weight as it was; `rec` is left unchanged.
TextRecognizer with_classes_added(TextRecognizer& rec, const std::vector<int64_t>& rows, double bias_drop);

}  // namespace light::model

// PP-LCNetV3, the backbone of PaddleOCR's PP-OCRv4 mobile detector and recognizer, in the
// re-parameterised form its released inference models hold: each LearnableRepLayer's branches fused
// into one convolution with a bias (reparam_conv), followed by a learnable affine (lab) and, unless
// it strides by 2, a hard-swish with its own affine (act.lab). Module names follow PaddleOCR's
// (ppocr/modeling/backbones/rec_lcnetv3.py): conv1.{conv,bn}, blocks2..blocks6.K.{dw_conv,se,pw_conv},
// layer_list.K (detector only).
#pragma once
#include <torch/torch.h>

#include <string>
#include <utility>
#include <vector>

namespace light::model {

// Tensors in the order an exported graph first uses them, each with its module path: how weights
// read from an ONNX file (io::read_onnx_model) are matched to modules.
using OrderedTensors = std::vector<std::pair<std::string, torch::Tensor>>;
void append_conv(OrderedTensors& out, const std::string& name, torch::nn::Conv2d& conv);
void append_conv(OrderedTensors& out, const std::string& name, torch::nn::ConvTranspose2d& conv);
void append_batch_norm(OrderedTensors& out, const std::string& name, torch::nn::BatchNorm2d& bn);

// Inference folding: a batch norm's running statistics and affine (eval mode) folded into the
// convolution before it, which gains a bias (set on the module, not registered: the state dict keeps
// its keys). The caller then skips the batch norm.
void fold_batch_norm(torch::nn::Conv2d& conv, const torch::nn::BatchNorm2d& bn);
void fold_batch_norm(torch::nn::ConvTranspose2d& conv, const torch::nn::BatchNorm2d& bn);
// Every 4-D parameter of `module` (convolution weights) stored channels-last.
void store_channels_last(torch::nn::Module& module);

// y = scale * x + bias, two learned scalars.
struct LearnableAffineBlockImpl : torch::nn::Module {
  LearnableAffineBlockImpl();
  torch::Tensor forward(const torch::Tensor& x) { return scale * x + bias; }
  torch::Tensor scale, bias;
};
TORCH_MODULE(LearnableAffineBlock);

struct ActImpl : torch::nn::Module {  // hard-swish, then a learnable affine
  ActImpl();
  torch::Tensor forward(const torch::Tensor& x) { return lab(torch::hardswish(x)); }
  LearnableAffineBlock lab{nullptr};
};
TORCH_MODULE(Act);

struct LearnableRepLayerImpl : torch::nn::Module {
  LearnableRepLayerImpl(int64_t in, int64_t out, int64_t kernel, std::pair<int64_t, int64_t> stride, int64_t groups);
  torch::Tensor forward(const torch::Tensor& x);
  void append_ordered(OrderedTensors& out, const std::string& name);
  // lab folded into reparam_conv; the activation then runs in place (inference only, see
  // PPLCNetV3Impl::fold_for_inference).
  void fold_for_inference();
  torch::nn::Conv2d reparam_conv{nullptr};
  LearnableAffineBlock lab{nullptr};
  Act act{nullptr};  // null where the layer strides by 2 in both directions
  bool folded = false;
  bool act_lab_folded = false;  // act.lab folded into the next convolution (a 1x1: exact)
};
TORCH_MODULE(LearnableRepLayer);

// Squeeze-and-excitation: x * hardsigmoid(conv2(relu(conv1(mean over the plane)))).
struct SELayerImpl : torch::nn::Module {
  SELayerImpl(int64_t channels, int64_t reduction, double slope);
  torch::Tensor forward(const torch::Tensor& x);
  void append_ordered(OrderedTensors& out, const std::string& name);
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  double slope;  // hardsigmoid(x) = clamp(slope * x + 0.5, 0, 1)
};
TORCH_MODULE(SELayer);

struct ConvBNLayerImpl : torch::nn::Module {  // a convolution without bias, then batch norm
  ConvBNLayerImpl(int64_t in, int64_t out, int64_t kernel, int64_t stride);
  torch::Tensor forward(const torch::Tensor& x) { return folded ? conv(x) : bn(conv(x)); }
  void fold_for_inference();
  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
  bool folded = false;
};
TORCH_MODULE(ConvBNLayer);

struct LCNetV3BlockImpl : torch::nn::Module {
  LCNetV3BlockImpl(int64_t in, int64_t out, std::pair<int64_t, int64_t> stride, int64_t dw_size, bool use_se);
  torch::Tensor forward(torch::Tensor x);
  void append_ordered(OrderedTensors& out, const std::string& name);
  void fold_for_inference();
  LearnableRepLayer dw_conv{nullptr}, pw_conv{nullptr};
  SELayer se{nullptr};
};
TORCH_MODULE(LCNetV3Block);

struct PPLCNetV3Options {
  double scale = 0.75;
  bool det = true;  // the detector's strides and its four 1x1 output convolutions (layer_list)
};

struct PPLCNetV3Impl : torch::nn::Module {
  explicit PPLCNetV3Impl(const PPLCNetV3Options& options);
  // det: the four feature maps (strides 4, 8, 16, 32) after layer_list; rec: the last stage's map.
  std::vector<torch::Tensor> forward(const torch::Tensor& x);
  void append_ordered(OrderedTensors& out, const std::string& name);
  // For inference on a loaded, eval-mode model: every affine that follows a convolution (batch
  // norms, LearnableRepLayer.lab, and act.lab before a 1x1 convolution) folded into that convolution,
  // and activations run in place: the same outputs (to float rounding) in fewer passes over memory.
  // The weights then differ from the checkpoint's: never train or save a folded model.
  void fold_for_inference();
  ConvBNLayer conv1{nullptr};
  std::vector<torch::nn::Sequential> blocks;  // blocks2 .. blocks6
  torch::nn::ModuleList layer_list{nullptr};
  std::vector<int64_t> out_channels;
  PPLCNetV3Options options;
};
TORCH_MODULE(PPLCNetV3);

// PaddleOCR's make_divisible (channel counts rounded to multiples of 16).
int64_t make_divisible(double v, int64_t divisor = 16);

}  // namespace light::model

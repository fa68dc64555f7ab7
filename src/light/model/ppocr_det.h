// PaddleOCR's PP-OCRv4 mobile text detector (DB: Differentiable Binarization): PP-LCNetV3 (scale
// 0.75, detector strides), the RSE feature pyramid (96 channels, shortcuts) and the DB head's
// probability branch. Input: an RGB image normalised with ImageNet's mean and std, [B, 3, H, W], H and
// W multiples of 32; output: the text probability map [B, 1, H, W]. Module names follow PaddleOCR's
// (backbone.*, neck.ins_conv.K / neck.inp_conv.K.{in_conv,se_block}, head.binarize.{conv1,conv_bn1,
// conv2,conv_bn2,conv3}); weights are imported from the released inference model (ONNX).
#pragma once
#include <torch/torch.h>

#include <string>
#include <vector>

#include "light/model/pplcnetv3.h"

namespace light::io {
struct OnnxModel;
}

namespace light::model {

// conv (no bias) -> squeeze-excitation (hardsigmoid slope 0.2) [-> + its input when shortcut].
struct RSELayerImpl : torch::nn::Module {
  RSELayerImpl(int64_t in, int64_t out, int64_t kernel, bool shortcut);
  torch::Tensor forward(const torch::Tensor& x);
  void append_ordered(OrderedTensors& out, const std::string& name);
  torch::nn::Conv2d in_conv{nullptr};
  SELayer se_block{nullptr};
  bool shortcut;
};
TORCH_MODULE(RSELayer);

struct RSEFPNImpl : torch::nn::Module {
  RSEFPNImpl(const std::vector<int64_t>& in_channels, int64_t out_channels);
  // Four maps (strides 4 to 32) -> [B, out_channels, H/4, W/4]: top-down sums (nearest 2x), each
  // level's 3x3 RSE layer to out/4 channels, upsampled to stride 4 and concatenated.
  torch::Tensor forward(const std::vector<torch::Tensor>& features);
  void append_ordered(OrderedTensors& out, const std::string& name);
  torch::nn::ModuleList ins_conv{nullptr}, inp_conv{nullptr};
};
TORCH_MODULE(RSEFPN);

// One DB branch (PaddleOCR's Head): 3x3 conv, BN, ReLU, 2x up-convolution, BN, ReLU, 2x up-convolution
// to one channel, then the logit (a sigmoid gives the probability).
struct DBBranchImpl : torch::nn::Module {
  explicit DBBranchImpl(int64_t in_channels);
  torch::Tensor forward(const torch::Tensor& x);  // [B, C, h, w] -> logits [B, 1, 4h, 4w]
  void append_ordered(OrderedTensors& out, const std::string& name);
  void fold_for_inference();  // both batch norms into the convolutions before them
  bool folded = false;
  torch::nn::Conv2d conv1{nullptr};
  torch::nn::BatchNorm2d conv_bn1{nullptr}, conv_bn2{nullptr};
  torch::nn::ConvTranspose2d conv2{nullptr}, conv3{nullptr};
};
TORCH_MODULE(DBBranch);

// The DB head as the released inference model holds it: the probability branch ("binarize") alone
// (training's threshold branch is not exported).
struct DBHeadImpl : torch::nn::Module {
  explicit DBHeadImpl(int64_t in_channels);
  DBBranch binarize{nullptr};
};
TORCH_MODULE(DBHead);

struct TextDetectorImpl : torch::nn::Module {
  TextDetectorImpl();
  torch::Tensor forward(const torch::Tensor& images);  // [B, 3, H, W] normalised -> probabilities [B, 1, H, W]
  torch::Tensor logits(const torch::Tensor& images);   // the same before the sigmoid (for training)
  // The neck's output [B, 96, H/4, W/4], which the DB head's branches read: head.binarize, and in
  // training the threshold branch ("thresh", a DBBranch of its own; train/detector_training).
  torch::Tensor features(const torch::Tensor& images);
  // For reading on a loaded, eval-mode model: batch norms and affines folded into the convolutions
  // (PPLCNetV3Impl::fold_for_inference) and the 4-D weights stored channels-last, which oneDNN
  // convolves without reordering (give it channels-last inputs too). The same outputs to float
  // rounding in about two thirds of the time. Call it on the model's device (folded biases are not
  // registered parameters: `to` no longer moves them); never train or save the model after.
  void prepare_for_inference();
  // Every learned tensor (parameters and batch-norm statistics) in the order the exported graph uses them.
  OrderedTensors ordered_tensors();
  PPLCNetV3 backbone{nullptr};
  RSEFPN neck{nullptr};
  DBHead head{nullptr};
};
TORCH_MODULE(TextDetector);

// Copies the released inference model's weights (io::read_onnx_model) into `model`, matching them in
// the order the graph uses them; throws light::Error naming the file and the first tensor whose
// count or shape differs.
void import_onnx_weights(const OrderedTensors& targets, const io::OnnxModel& onnx);

}  // namespace light::model

namespace light::model {
// A detector from a .safetensors file of its state (light import-ppocr, or a fine-tuned one), in eval mode.
TextDetector load_text_detector(const std::string& path);
}  // namespace light::model

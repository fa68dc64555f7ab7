#include "light/model/ppocr_det.h"

#include "light/error.h"
#include "light/io/onnx.h"
#include "light/model/checkpoint.h"

namespace light::model {

namespace nn = torch::nn;
namespace F = torch::nn::functional;

RSELayerImpl::RSELayerImpl(int64_t in, int64_t out, int64_t kernel, bool shortcut_) : shortcut(shortcut_) {
  in_conv = register_module("in_conv", nn::Conv2d(nn::Conv2dOptions(in, out, kernel).padding(kernel / 2).bias(false)));
  se_block = register_module("se_block", SELayer(out, 4, 0.2));
}

torch::Tensor RSELayerImpl::forward(const torch::Tensor& x) {
  const torch::Tensor y = in_conv(x);
  return shortcut ? y + se_block(y) : se_block(y);
}

void RSELayerImpl::append_ordered(OrderedTensors& out, const std::string& name) {
  append_conv(out, name + ".in_conv", in_conv);
  se_block->append_ordered(out, name + ".se_block");
}

RSEFPNImpl::RSEFPNImpl(const std::vector<int64_t>& in_channels, int64_t out_channels) {
  ins_conv = register_module("ins_conv", nn::ModuleList());
  inp_conv = register_module("inp_conv", nn::ModuleList());
  for (const int64_t c : in_channels) {
    ins_conv->push_back(RSELayer(c, out_channels, 1, true));
    inp_conv->push_back(RSELayer(out_channels, out_channels / 4, 3, true));
  }
}

namespace {
torch::Tensor upsample(const torch::Tensor& x, double factor) {
  return F::interpolate(x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{factor, factor}).mode(torch::kNearest));
}
}  // namespace

torch::Tensor RSEFPNImpl::forward(const std::vector<torch::Tensor>& c) {
  auto ins = [&](size_t k) { return ins_conv[k]->as<RSELayer>()->forward(c[k]); };
  auto inp = [&](size_t k, const torch::Tensor& x) { return inp_conv[k]->as<RSELayer>()->forward(x); };
  const torch::Tensor in5 = ins(3), in4 = ins(2), in3 = ins(1), in2 = ins(0);
  const torch::Tensor out4 = in4 + upsample(in5, 2);
  const torch::Tensor out3 = in3 + upsample(out4, 2);
  const torch::Tensor out2 = in2 + upsample(out3, 2);
  const torch::Tensor p5 = upsample(inp(3, in5), 8), p4 = upsample(inp(2, out4), 4), p3 = upsample(inp(1, out3), 2);
  return torch::cat({p5, p4, p3, inp(0, out2)}, 1);
}

void RSEFPNImpl::append_ordered(OrderedTensors& out, const std::string& name) {
  for (int k = 3; k >= 0; --k) ins_conv[k]->as<RSELayer>()->append_ordered(out, name + ".ins_conv." + std::to_string(k));
  for (int k = 3; k >= 0; --k) inp_conv[k]->as<RSELayer>()->append_ordered(out, name + ".inp_conv." + std::to_string(k));
}

DBBranchImpl::DBBranchImpl(int64_t in) {
  const int64_t mid = in / 4;
  conv1 = register_module("conv1", nn::Conv2d(nn::Conv2dOptions(in, mid, 3).padding(1).bias(false)));
  conv_bn1 = register_module("conv_bn1", nn::BatchNorm2d(nn::BatchNorm2dOptions(mid).eps(1e-5)));
  conv2 = register_module("conv2", nn::ConvTranspose2d(nn::ConvTranspose2dOptions(mid, mid, 2).stride(2)));
  conv_bn2 = register_module("conv_bn2", nn::BatchNorm2d(nn::BatchNorm2dOptions(mid).eps(1e-5)));
  conv3 = register_module("conv3", nn::ConvTranspose2d(nn::ConvTranspose2dOptions(mid, 1, 2).stride(2)));
}

torch::Tensor DBBranchImpl::forward(const torch::Tensor& x) {
  if (folded) return conv3(conv2(conv1(x).relu_()).relu_());
  torch::Tensor y = torch::relu(conv_bn1(conv1(x)));
  y = torch::relu(conv_bn2(conv2(y)));
  return conv3(y);
}

void DBBranchImpl::fold_for_inference() {
  if (folded) return;
  fold_batch_norm(conv1, conv_bn1);
  fold_batch_norm(conv2, conv_bn2);
  folded = true;
}

void DBBranchImpl::append_ordered(OrderedTensors& out, const std::string& name) {
  append_conv(out, name + ".conv1", conv1);
  append_batch_norm(out, name + ".conv_bn1", conv_bn1);
  append_conv(out, name + ".conv2", conv2);
  append_batch_norm(out, name + ".conv_bn2", conv_bn2);
  append_conv(out, name + ".conv3", conv3);
}

DBHeadImpl::DBHeadImpl(int64_t in) { binarize = register_module("binarize", DBBranch(in)); }

TextDetectorImpl::TextDetectorImpl() {
  backbone = register_module("backbone", PPLCNetV3(PPLCNetV3Options{0.75, true}));
  neck = register_module("neck", RSEFPN(backbone->out_channels, 96));
  head = register_module("head", DBHead(96));
}

torch::Tensor TextDetectorImpl::features(const torch::Tensor& images) { return neck(backbone(images)); }

torch::Tensor TextDetectorImpl::logits(const torch::Tensor& images) { return head->binarize(features(images)); }

torch::Tensor TextDetectorImpl::forward(const torch::Tensor& images) { return torch::sigmoid(logits(images)); }

void TextDetectorImpl::prepare_for_inference() {
  backbone->fold_for_inference();
  head->binarize->fold_for_inference();
  store_channels_last(*this);
}

OrderedTensors TextDetectorImpl::ordered_tensors() {
  OrderedTensors out;
  backbone->append_ordered(out, "backbone");
  neck->append_ordered(out, "neck");
  head->binarize->append_ordered(out, "head.binarize");
  return out;
}

void import_onnx_weights(const OrderedTensors& targets, const io::OnnxModel& onnx) {
  if (onnx.weights.size() != targets.size())
    throw Error(onnx.path + ": " + std::to_string(onnx.weights.size()) + " learned tensors, the model has " +
                std::to_string(targets.size()) + " (not the model this importer reads)");
  torch::NoGradGuard no_grad;
  for (size_t k = 0; k < targets.size(); ++k) {
    const io::OnnxWeight& w = onnx.weights[k];
    const torch::Tensor& t = targets[k].second;
    if (static_cast<int64_t>(w.values.size()) != t.numel())
      throw Error(onnx.path + ": tensor " + std::to_string(k) + " (\"" + w.name + "\", first used by " + w.first_use + ") has " +
                  std::to_string(w.values.size()) + " values; " + targets[k].first + " takes " + std::to_string(t.numel()));
    torch::Tensor v = torch::from_blob(const_cast<float*>(w.values.data()), {static_cast<int64_t>(w.values.size())}, torch::kFloat32);
    // Paddle's linear weights are [in, out] (x @ W); torch's are [out, in].
    if (w.first_use.rfind("MatMul:", 0) == 0 && w.shape.size() == 2 && t.dim() == 2) v = v.view({w.shape[0], w.shape[1]}).t();
    t.copy_(v.reshape(t.sizes()));
  }
}

TextDetector load_text_detector(const std::string& path) {
  TextDetector detector;
  const auto state = read_safetensors_state_dict(path);
  check_finite(state, path);
  load_state(*detector, state, path);
  detector->eval();
  return detector;
}

}  // namespace light::model

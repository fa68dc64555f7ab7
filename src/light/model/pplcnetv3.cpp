#include "light/model/pplcnetv3.h"

#include <array>
#include <cmath>

namespace light::model {

namespace nn = torch::nn;

int64_t make_divisible(double v, int64_t divisor) {
  int64_t n = std::max<int64_t>(divisor, static_cast<int64_t>(v + divisor / 2.0) / divisor * divisor);
  if (n < 0.9 * v) n += divisor;
  return n;
}

void append_conv(OrderedTensors& out, const std::string& name, nn::Conv2d& conv) {
  out.emplace_back(name + ".weight", conv->weight);
  if (conv->bias.defined()) out.emplace_back(name + ".bias", conv->bias);
}
void append_conv(OrderedTensors& out, const std::string& name, nn::ConvTranspose2d& conv) {
  out.emplace_back(name + ".weight", conv->weight);
  if (conv->bias.defined()) out.emplace_back(name + ".bias", conv->bias);
}
void append_batch_norm(OrderedTensors& out, const std::string& name, nn::BatchNorm2d& bn) {
  out.emplace_back(name + ".weight", bn->weight);
  out.emplace_back(name + ".bias", bn->bias);
  out.emplace_back(name + ".running_mean", bn->running_mean);
  out.emplace_back(name + ".running_var", bn->running_var);
}

namespace {
// The per-channel scale and shift a batch norm applies in eval mode.
std::pair<torch::Tensor, torch::Tensor> batch_norm_affine(const torch::nn::BatchNorm2d& bn) {
  const torch::Tensor g = bn->weight / torch::sqrt(bn->running_var + bn->options.eps());
  return {g, bn->bias - bn->running_mean * g};
}
}  // namespace

void fold_batch_norm(nn::Conv2d& conv, const nn::BatchNorm2d& bn) {
  torch::NoGradGuard no_grad;
  const auto [g, shift] = batch_norm_affine(bn);
  const torch::Tensor b = conv->bias.defined() ? conv->bias * g + shift : shift;
  conv->weight.mul_(g.view({-1, 1, 1, 1}));  // [out, in / groups, kh, kw]
  conv->bias = b.clone();
}

void fold_batch_norm(nn::ConvTranspose2d& conv, const nn::BatchNorm2d& bn) {
  torch::NoGradGuard no_grad;
  const auto [g, shift] = batch_norm_affine(bn);
  const torch::Tensor b = conv->bias.defined() ? conv->bias * g + shift : shift;
  conv->weight.mul_(g.view({1, -1, 1, 1}));  // [in, out / groups, kh, kw] (groups 1 here)
  conv->bias = b.clone();
}

void store_channels_last(nn::Module& module) {
  torch::NoGradGuard no_grad;
  for (torch::Tensor& p : module.parameters())
    if (p.dim() == 4) p.set_data(p.contiguous(torch::MemoryFormat::ChannelsLast));
}

LearnableAffineBlockImpl::LearnableAffineBlockImpl() {
  scale = register_parameter("scale", torch::ones({1}));
  bias = register_parameter("bias", torch::zeros({1}));
}

ActImpl::ActImpl() { lab = register_module("lab", LearnableAffineBlock()); }

LearnableRepLayerImpl::LearnableRepLayerImpl(int64_t in, int64_t out, int64_t kernel, std::pair<int64_t, int64_t> stride,
                                             int64_t groups) {
  reparam_conv = register_module(
      "reparam_conv", nn::Conv2d(nn::Conv2dOptions(in, out, kernel).stride({stride.first, stride.second}).padding((kernel - 1) / 2).groups(groups)));
  lab = register_module("lab", LearnableAffineBlock());
  // PaddleOCR: `if self.stride != 2: out = self.act(out)` (a (2, 1) stride is not 2).
  if (!(stride.first == 2 && stride.second == 2)) act = register_module("act", Act());
}

torch::Tensor LearnableRepLayerImpl::forward(const torch::Tensor& x) {
  if (!folded) {
    torch::Tensor y = lab(reparam_conv(x));
    return act ? act(y) : y;
  }
  torch::Tensor y = reparam_conv(x);
  if (!act) return y;
  torch::hardswish_(y);
  return act_lab_folded ? y : y.mul_(act->lab->scale).add_(act->lab->bias);
}

void LearnableRepLayerImpl::fold_for_inference() {
  if (folded) return;
  torch::NoGradGuard no_grad;
  reparam_conv->weight.mul_(lab->scale);
  reparam_conv->bias.mul_(lab->scale).add_(lab->bias);
  folded = true;
}

void LearnableRepLayerImpl::append_ordered(OrderedTensors& out, const std::string& name) {
  append_conv(out, name + ".reparam_conv", reparam_conv);
  out.emplace_back(name + ".lab.scale", lab->scale);
  out.emplace_back(name + ".lab.bias", lab->bias);
  if (act) {
    out.emplace_back(name + ".act.lab.scale", act->lab->scale);
    out.emplace_back(name + ".act.lab.bias", act->lab->bias);
  }
}

SELayerImpl::SELayerImpl(int64_t channels, int64_t reduction, double slope_) : slope(slope_) {
  conv1 = register_module("conv1", nn::Conv2d(nn::Conv2dOptions(channels, channels / reduction, 1)));
  conv2 = register_module("conv2", nn::Conv2d(nn::Conv2dOptions(channels / reduction, channels, 1)));
}

torch::Tensor SELayerImpl::forward(const torch::Tensor& x) {
  torch::Tensor s = conv2(torch::relu(conv1(x.mean({2, 3}, /*keepdim=*/true))));
  return x * (s * slope + 0.5).clamp(0, 1);
}

void SELayerImpl::append_ordered(OrderedTensors& out, const std::string& name) {
  append_conv(out, name + ".conv1", conv1);
  append_conv(out, name + ".conv2", conv2);
}

ConvBNLayerImpl::ConvBNLayerImpl(int64_t in, int64_t out, int64_t kernel, int64_t stride) {
  conv = register_module("conv", nn::Conv2d(nn::Conv2dOptions(in, out, kernel).stride(stride).padding((kernel - 1) / 2).bias(false)));
  bn = register_module("bn", nn::BatchNorm2d(nn::BatchNorm2dOptions(out).eps(1e-5)));
}

LCNetV3BlockImpl::LCNetV3BlockImpl(int64_t in, int64_t out, std::pair<int64_t, int64_t> stride, int64_t dw_size, bool use_se) {
  dw_conv = register_module("dw_conv", LearnableRepLayer(in, in, dw_size, stride, in));
  if (use_se) se = register_module("se", SELayer(in, 4, 1.0 / 6.0));
  pw_conv = register_module("pw_conv", LearnableRepLayer(in, out, 1, std::pair<int64_t, int64_t>{1, 1}, 1));
}

torch::Tensor LCNetV3BlockImpl::forward(torch::Tensor x) {
  x = dw_conv(x);
  if (se) x = se(x);
  return pw_conv(x);
}

void LCNetV3BlockImpl::fold_for_inference() {
  dw_conv->fold_for_inference();
  pw_conv->fold_for_inference();
  // pw_conv(a * h + b) = (a W) h + (bias + b * sum of W over its inputs): the 1x1 convolution takes
  // dw_conv's last affine exactly (no padding for it to reach).
  if (!se && dw_conv->act && !dw_conv->act_lab_folded) {
    torch::NoGradGuard no_grad;
    const torch::Tensor a = dw_conv->act->lab->scale, b = dw_conv->act->lab->bias;
    torch::Tensor& w = pw_conv->reparam_conv->weight;
    pw_conv->reparam_conv->bias.add_(w.sum({1, 2, 3}) * b);
    w.mul_(a);
    dw_conv->act_lab_folded = true;
  }
}

void ConvBNLayerImpl::fold_for_inference() {
  if (folded) return;
  fold_batch_norm(conv, bn);
  folded = true;
}

void LCNetV3BlockImpl::append_ordered(OrderedTensors& out, const std::string& name) {
  dw_conv->append_ordered(out, name + ".dw_conv");
  if (se) se->append_ordered(out, name + ".se");
  pw_conv->append_ordered(out, name + ".pw_conv");
}

namespace {

struct BlockSpec {
  int64_t kernel, in, out;
  std::pair<int64_t, int64_t> stride;
  bool se;
};
using Stage = std::vector<BlockSpec>;

// PaddleOCR's NET_CONFIG_det and NET_CONFIG_rec: kernel, in, out, stride, squeeze-excitation.
std::array<Stage, 5> net_config(bool det) {
  const std::pair<int64_t, int64_t> s1{1, 1}, s2{2, 2}, s21{2, 1}, s12{1, 2};
  return {Stage{{3, 16, 32, s1, false}},
          Stage{{3, 32, 64, det ? s2 : s1, false}, {3, 64, 64, s1, false}},
          Stage{{3, 64, 128, det ? s2 : s21, false}, {3, 128, 128, s1, false}},
          Stage{{3, 128, 256, det ? s2 : s12, false}, {5, 256, 256, s1, false}, {5, 256, 256, s1, false}, {5, 256, 256, s1, false},
                {5, 256, 256, s1, false}},
          Stage{{5, 256, 512, det ? s2 : s21, true}, {5, 512, 512, s1, true}, {5, 512, 512, det ? s1 : s21, false},
                {5, 512, 512, s1, false}}};
}

}  // namespace

PPLCNetV3Impl::PPLCNetV3Impl(const PPLCNetV3Options& o) : options(o) {
  const double scale = o.scale;
  conv1 = register_module("conv1", ConvBNLayer(3, make_divisible(16 * scale), 3, 2));
  const auto config = net_config(o.det);
  for (size_t s = 0; s < config.size(); ++s) {
    nn::Sequential stage;
    for (const BlockSpec& b : config[s])
      stage->push_back(LCNetV3Block(make_divisible(b.in * scale), make_divisible(b.out * scale), b.stride, b.kernel, b.se));
    blocks.push_back(register_module("blocks" + std::to_string(s + 2), stage));
  }
  if (o.det) {
    const std::array<int64_t, 4> mv_c{16, 24, 56, 480};
    layer_list = register_module("layer_list", nn::ModuleList());
    for (size_t k = 0; k < 4; ++k) {
      const int64_t in = make_divisible(config[k + 1].back().out * scale);
      const auto out = static_cast<int64_t>(mv_c[k] * scale);
      layer_list->push_back(nn::Conv2d(nn::Conv2dOptions(in, out, 1)));
      out_channels.push_back(out);
    }
  } else {
    out_channels.push_back(make_divisible(512 * scale));
  }
}

std::vector<torch::Tensor> PPLCNetV3Impl::forward(const torch::Tensor& input) {
  torch::Tensor x = conv1(input);
  x = blocks[0]->forward(x);
  std::vector<torch::Tensor> outs;
  for (size_t s = 1; s < blocks.size(); ++s) {
    x = blocks[s]->forward(x);
    outs.push_back(x);
  }
  if (options.det) {
    for (size_t k = 0; k < 4; ++k) outs[k] = layer_list[k]->as<nn::Conv2d>()->forward(outs[k]);
    return outs;
  }
  return {x};
}

void PPLCNetV3Impl::fold_for_inference() {
  conv1->fold_for_inference();
  for (auto& stage : blocks)
    for (size_t b = 0; b < stage->size(); ++b) stage[b]->as<LCNetV3Block>()->fold_for_inference();
}

void PPLCNetV3Impl::append_ordered(OrderedTensors& out, const std::string& name) {
  append_conv(out, name + ".conv1.conv", conv1->conv);
  append_batch_norm(out, name + ".conv1.bn", conv1->bn);
  for (size_t s = 0; s < blocks.size(); ++s)
    for (size_t b = 0; b < blocks[s]->size(); ++b)
      blocks[s][b]->as<LCNetV3Block>()->append_ordered(out, name + ".blocks" + std::to_string(s + 2) + "." + std::to_string(b));
  if (options.det)
    for (size_t k = 0; k < 4; ++k) {
      nn::Conv2d conv(std::dynamic_pointer_cast<nn::Conv2dImpl>(layer_list->ptr(k)));
      append_conv(out, name + ".layer_list." + std::to_string(k), conv);
    }
}

}  // namespace light::model

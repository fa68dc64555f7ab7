#include "light/model/ppocr_rec.h"

#include "light/error.h"
#include "light/model/checkpoint.h"

namespace light::model {

namespace nn = torch::nn;

ConvBNSwishImpl::ConvBNSwishImpl(int64_t in, int64_t out, std::pair<int64_t, int64_t> k) {
  conv = register_module("conv", nn::Conv2d(nn::Conv2dOptions(in, out, {k.first, k.second})
                                                .padding({(k.first - 1) / 2, (k.second - 1) / 2})
                                                .bias(false)));
  norm = register_module("norm", nn::BatchNorm2d(nn::BatchNorm2dOptions(out).eps(1e-5)));
}

void ConvBNSwishImpl::fold_for_inference() {
  if (folded) return;
  fold_batch_norm(conv, norm);
  folded = true;
}

void ConvBNSwishImpl::append_ordered(OrderedTensors& out, const std::string& name) {
  append_conv(out, name + ".conv", conv);
  append_batch_norm(out, name + ".norm", norm);
}

SVTRAttentionImpl::SVTRAttentionImpl(int64_t dim, int64_t heads_) : heads(heads_) {
  qkv = register_module("qkv", nn::Linear(dim, 3 * dim));
  proj = register_module("proj", nn::Linear(dim, dim));
}

torch::Tensor SVTRAttentionImpl::forward(const torch::Tensor& x) {
  const int64_t B = x.size(0), N = x.size(1), C = x.size(2), d = C / heads;
  const torch::Tensor qkv_ = qkv(x).reshape({B, N, 3, heads, d}).permute({2, 0, 3, 1, 4});  // [3, B, h, N, d]
  const torch::Tensor q = qkv_[0] * (1.0 / std::sqrt(static_cast<double>(d))), k = qkv_[1], v = qkv_[2];
  const torch::Tensor attn = torch::softmax(q.matmul(k.transpose(2, 3)), -1);
  return proj(attn.matmul(v).transpose(1, 2).reshape({B, N, C}));
}

SVTRMlpImpl::SVTRMlpImpl(int64_t dim, int64_t hidden) {
  fc1 = register_module("fc1", nn::Linear(dim, hidden));
  fc2 = register_module("fc2", nn::Linear(hidden, dim));
}

SVTRBlockImpl::SVTRBlockImpl(int64_t dim, int64_t heads, int64_t mlp_hidden) {
  norm1 = register_module("norm1", nn::LayerNorm(nn::LayerNormOptions({dim}).eps(1e-5)));
  mixer = register_module("mixer", SVTRAttention(dim, heads));
  norm2 = register_module("norm2", nn::LayerNorm(nn::LayerNormOptions({dim}).eps(1e-5)));
  mlp = register_module("mlp", SVTRMlp(dim, mlp_hidden));
}

torch::Tensor SVTRBlockImpl::forward(torch::Tensor x) {
  x = x + mixer(norm1(x));
  return x + mlp(norm2(x));
}

namespace {
void append_linear(OrderedTensors& out, const std::string& name, nn::Linear& l) {
  out.emplace_back(name + ".weight", l->weight);
  out.emplace_back(name + ".bias", l->bias);
}
void append_layer_norm(OrderedTensors& out, const std::string& name, nn::LayerNorm& l) {
  out.emplace_back(name + ".weight", l->weight);
  out.emplace_back(name + ".bias", l->bias);
}
}  // namespace

void SVTRBlockImpl::append_ordered(OrderedTensors& out, const std::string& name) {
  append_layer_norm(out, name + ".norm1", norm1);
  append_linear(out, name + ".mixer.qkv", mixer->qkv);
  append_linear(out, name + ".mixer.proj", mixer->proj);
  append_layer_norm(out, name + ".norm2", norm2);
  append_linear(out, name + ".mlp.fc1", mlp->fc1);
  append_linear(out, name + ".mlp.fc2", mlp->fc2);
}

EncoderWithSVTRImpl::EncoderWithSVTRImpl(int64_t in, int64_t dims, int64_t depth, int64_t hidden) {
  conv1 = register_module("conv1", ConvBNSwish(in, in / 8, std::pair<int64_t, int64_t>{1, 3}));
  conv2 = register_module("conv2", ConvBNSwish(in / 8, hidden, std::pair<int64_t, int64_t>{1, 1}));
  svtr_block = register_module("svtr_block", nn::ModuleList());
  for (int64_t k = 0; k < depth; ++k) svtr_block->push_back(SVTRBlock(hidden, 8, hidden * 2));
  norm = register_module("norm", nn::LayerNorm(nn::LayerNormOptions({hidden}).eps(1e-6)));
  conv3 = register_module("conv3", ConvBNSwish(hidden, in, std::pair<int64_t, int64_t>{1, 1}));
  conv4 = register_module("conv4", ConvBNSwish(2 * in, in / 8, std::pair<int64_t, int64_t>{1, 3}));
  conv1x1 = register_module("conv1x1", ConvBNSwish(in / 8, dims, std::pair<int64_t, int64_t>{1, 1}));
}

torch::Tensor EncoderWithSVTRImpl::forward(const torch::Tensor& x) {
  const torch::Tensor h = x;
  torch::Tensor z = conv2(conv1(x.detach()));  // use_guide: no gradient back through this path
  const int64_t B = z.size(0), C = z.size(1), H = z.size(2), W = z.size(3);
  z = z.flatten(2).transpose(1, 2);
  for (size_t k = 0; k < svtr_block->size(); ++k) z = svtr_block[k]->as<SVTRBlock>()->forward(z);
  z = norm(z).reshape({B, H, W, C}).permute({0, 3, 1, 2});
  z = conv3(z);
  return conv1x1(conv4(torch::cat({h, z}, 1)));
}

void EncoderWithSVTRImpl::append_ordered(OrderedTensors& out, const std::string& name) {
  conv1->append_ordered(out, name + ".conv1");
  conv2->append_ordered(out, name + ".conv2");
  for (size_t k = 0; k < svtr_block->size(); ++k)
    svtr_block[k]->as<SVTRBlock>()->append_ordered(out, name + ".svtr_block." + std::to_string(k));
  append_layer_norm(out, name + ".norm", norm);
  conv3->append_ordered(out, name + ".conv3");
  conv4->append_ordered(out, name + ".conv4");
  conv1x1->append_ordered(out, name + ".conv1x1");
}

SequenceEncoderImpl::SequenceEncoderImpl(int64_t in) { encoder = register_module("encoder", EncoderWithSVTR(in, 120, 2, 120)); }

CTCHeadImpl::CTCHeadImpl(int64_t in, int64_t classes) { fc = register_module("fc", nn::Linear(in, classes)); }

RecHeadImpl::RecHeadImpl(int64_t in, int64_t classes) {
  ctc_encoder = register_module("ctc_encoder", SequenceEncoder(in));
  ctc_head = register_module("ctc_head", CTCHead(120, classes));
}

TextRecognizerImpl::TextRecognizerImpl(int64_t classes_) : classes(classes_) {
  backbone = register_module("backbone", PPLCNetV3(PPLCNetV3Options{0.95, false}));
  head = register_module("head", RecHead(backbone->out_channels[0], classes));
}

torch::Tensor TextRecognizerImpl::features(const torch::Tensor& images) {
  torch::Tensor x = backbone(images)[0];
  // PP-LCNetV3's recogniser output: average pooling over 3 x 2 (the height of a 48 px crop is 3 here).
  x = is_training() ? torch::adaptive_avg_pool2d(x, {1, 40}) : torch::avg_pool2d(x, {3, 2});
  x = head->ctc_encoder->encoder(x);  // [B, 120, 1, T]
  return x.squeeze(2).transpose(1, 2);
}

torch::Tensor TextRecognizerImpl::forward(const torch::Tensor& images) { return head->ctc_head->fc(features(images)); }

torch::Tensor TextRecognizerImpl::forward(const torch::Tensor& images, const torch::Tensor& ids) {
  const auto& fc = head->ctc_head->fc;
  return torch::nn::functional::linear(features(images), fc->weight.index_select(0, ids), fc->bias.index_select(0, ids));
}

void TextRecognizerImpl::prepare_for_inference() {
  backbone->fold_for_inference();
  auto& e = head->ctc_encoder->encoder;
  for (ConvBNSwish* c : {&e->conv1, &e->conv2, &e->conv3, &e->conv4, &e->conv1x1}) (*c)->fold_for_inference();
  store_channels_last(*this);
}

OrderedTensors TextRecognizerImpl::ordered_tensors() {
  OrderedTensors out;
  backbone->append_ordered(out, "backbone");
  head->ctc_encoder->encoder->append_ordered(out, "head.ctc_encoder.encoder");
  append_linear(out, "head.ctc_head.fc", head->ctc_head->fc);
  return out;
}

TextRecognizer load_text_recognizer(const std::string& path) {
  const auto state = read_safetensors_state_dict(path);
  check_finite(state, path);
  const auto it = state.find("head.ctc_head.fc.bias");
  if (it == state.end() || it->second.dim() != 1) throw Error(path + ": no tensor \"head.ctc_head.fc.bias\" (not a text recogniser)");
  TextRecognizer rec(it->second.size(0));
  load_state(*rec, state, path);
  rec->eval();
  return rec;
}

TextRecognizer with_classes_added(TextRecognizer& rec, const std::vector<int64_t>& rows, double bias_drop) {
  torch::NoGradGuard no_grad;
  const int64_t before = rec->classes, added = static_cast<int64_t>(rows.size());
  for (const int64_t r : rows)
    if (r < 0 || r >= before) throw Error("with_classes_added: class " + std::to_string(r) + " is not the recogniser's");
  TextRecognizer out(before + added);
  auto from = rec->named_parameters(true), to = out->named_parameters(true);
  for (const auto& p : from) {
    if (p.key() == "head.ctc_head.fc.weight" || p.key() == "head.ctc_head.fc.bias") continue;
    to[p.key()].copy_(p.value());
  }
  auto from_buffers = rec->named_buffers(true), to_buffers = out->named_buffers(true);
  for (const auto& b : from_buffers) to_buffers[b.key()].copy_(b.value());
  const auto& fc = rec->head->ctc_head->fc;
  const torch::Tensor source = torch::tensor(rows, torch::kLong);
  const torch::Tensor kept = torch::arange(before - 1), space = torch::tensor(std::vector<int64_t>{before - 1}, torch::kLong);
  out->head->ctc_head->fc->weight.copy_(
      torch::cat({fc->weight.index_select(0, kept), fc->weight.index_select(0, source), fc->weight.index_select(0, space)}));
  out->head->ctc_head->fc->bias.copy_(
      torch::cat({fc->bias.index_select(0, kept), fc->bias.index_select(0, source) - bias_drop, fc->bias.index_select(0, space)}));
  out->eval();
  return out;
}

}  // namespace light::model

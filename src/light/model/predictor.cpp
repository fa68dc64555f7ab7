#include "light/model/predictor.h"

#include <torch/torch.h>

#include "light/model/checkpoint.h"
#include "light/model/device.h"
#include "light/model/light.h"

namespace light::model {

struct Predictor::Impl {
  LightTextLinking net{nullptr};
  torch::Device device = torch::kCPU;
  int threads = 0;
};

Predictor::Predictor(const std::string& model_path, const PredictorOptions& options) : impl_(std::make_unique<Impl>()) {
  set_threads(options.threads);
  impl_->threads = options.threads;
  impl_->device = pick_device(options.device);
  impl_->net = load_model(model_path);
  impl_->net->to(impl_->device);
  impl_->net->eval();
}

Predictor::Predictor(std::shared_ptr<LightTextLinkingImpl> net, const PredictorOptions& options) : impl_(std::make_unique<Impl>()) {
  impl_->threads = options.threads;
  impl_->device = pick_device(options.device);
  impl_->net = LightTextLinking(std::move(net));
}

Predictor::~Predictor() = default;
Predictor::Predictor(Predictor&&) noexcept = default;
Predictor& Predictor::operator=(Predictor&&) noexcept = default;

const ModelConfig& Predictor::config() const { return impl_->net->config; }

void Predictor::use_own_threads() const { use_threads(impl_->threads); }

SuccessorProbs successor_probs(const TileOutputs& t) {
  const torch::Tensor p = t.probs.to(torch::kCPU).contiguous(), q = t.bi_probs.to(torch::kCPU).contiguous();
  SuccessorProbs s;
  s.n = static_cast<int>(p.size(0));
  s.probs.assign(p.data_ptr<float>(), p.data_ptr<float>() + p.numel());
  s.bi_probs.assign(q.data_ptr<float>(), q.data_ptr<float>() + q.numel());
  return s;
}

SuccessorProbs Predictor::successors(const data::TileInputs& window, const std::vector<float>& pixels) {
  return successors(std::vector<const data::TileInputs*>{&window}, std::vector<const std::vector<float>*>{&pixels}).at(0);
}

std::vector<SuccessorProbs> Predictor::successors(const std::vector<const data::TileInputs*>& windows,
                                                  const std::vector<const std::vector<float>*>& pixels) {
  torch::NoGradGuard no_grad;
  use_threads(impl_->threads);
  BatchOptions bo;
  bo.labels = false;
  const Batch b = make_batch(windows, pixels, impl_->net->config, impl_->device, bo);
  const Outputs o = impl_->net->forward(b, /*keep_layers=*/false, /*words_only=*/true);
  std::vector<SuccessorProbs> out;
  for (const TileOutputs& t : o.tiles) out.push_back(successor_probs(t));
  return out;
}

namespace {
io::Tensor to_io(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kCPU).to(torch::kFloat32).contiguous();
  std::vector<float> values(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
  std::vector<int64_t> shape(c.sizes().begin(), c.sizes().end());
  if (shape.empty()) shape = {1};
  return io::Tensor::f32(shape, values);
}
}  // namespace

std::map<std::string, io::Tensor> Predictor::outputs(const data::TileInputs& window, const std::vector<float>& pixels) {
  torch::NoGradGuard no_grad;
  const Batch b = make_batch({&window}, {&pixels}, impl_->net->config, impl_->device);
  const Outputs o = impl_->net->forward(b);
  const TileOutputs& r = o.tiles[0];
  std::map<std::string, io::Tensor> out;
  out["text_embeddings"] = to_io(o.text_embeddings[0]);
  out["poly_embeddings"] = to_io(o.poly_embeddings[0]);
  out["fused_embeddings"] = to_io(o.fused_embeddings[0]);
  out["visual_embeddings"] = to_io(o.visual_embeddings[0]);
  out["final_hidden_text"] = to_io(o.final_hidden_text[0]);
  out["first_token_hidden"] = to_io(r.first_token_hidden);
  out["word_embeddings"] = to_io(r.word_embeddings);
  out["logits"] = to_io(r.logits);
  out["bi_logits"] = to_io(r.bi_logits);
  out["probs"] = to_io(r.probs);
  out["bi_probs"] = to_io(r.bi_probs);
  if (r.base_loss.defined()) {
    out["base_loss"] = to_io(r.base_loss);
    out["bidirection_loss"] = to_io(r.bidirection_loss);
    out["focal_loss"] = to_io(r.focal_loss);
  }
  return out;
}

}  // namespace light::model

#include "light/model/spotter_models.h"

#include <torch/torch.h>

#include "light/error.h"
#include "light/model/device.h"
#include "light/model/ppocr_det.h"
#include "light/model/ppocr_rec.h"

namespace light::model {

struct SpotterModels::Impl {
  TextDetector detector{nullptr};
  TextRecognizer recognizer{nullptr};
  torch::Device device = torch::kCPU;
  torch::Tensor allowed_ids;  // the classes read (int64), cached for the last `allowed`
  std::vector<bool> allowed;
  int threads = 0;

  // The recogniser's logits of [b, 3, h, w] crops over the allowed classes alone (the others' never
  // computed): [b, T, K].
  torch::Tensor read(const std::vector<float>& crops, int b, int h, int w, const std::vector<bool>& allowed_now, int classes) {
    use_threads(threads);
    const torch::Tensor x = torch::from_blob(const_cast<float*>(crops.data()), {b, 3, h, w}, torch::kFloat32)
                                .to(device)
                                .contiguous(torch::MemoryFormat::ChannelsLast);
    if (!allowed_now.empty() && static_cast<int>(allowed_now.size()) != classes)
      throw Error("the recogniser's allowed classes do not match its classes");
    if (allowed_now != allowed || !allowed_ids.defined()) {
      std::vector<int64_t> ids;
      for (int c = 0; c < classes; ++c)
        if (c == 0 || allowed_now.empty() || allowed_now[c]) ids.push_back(c);
      allowed = allowed_now;
      allowed_ids = torch::tensor(ids, torch::kLong).to(device);
    }
    return recognizer->forward(x, allowed_ids);
  }
};

SpotterModels::SpotterModels(const std::string& dir, const PredictorOptions& options) : impl_(std::make_unique<Impl>()) {
  set_threads(options.threads);
  impl_->threads = options.threads;
  impl_->device = pick_device(options.device);
  impl_->detector = load_text_detector(dir + "/detector.safetensors");
  impl_->recognizer = load_text_recognizer(dir + "/recognizer.safetensors");
  impl_->detector->to(impl_->device);
  impl_->recognizer->to(impl_->device);
  // Affines folded into the convolutions, weights and inputs channels-last: the same probabilities
  // (to float rounding) in about two thirds of the time (docs/spotter.md, "Speed and memory").
  impl_->detector->prepare_for_inference();
  impl_->recognizer->prepare_for_inference();
}

SpotterModels::~SpotterModels() = default;
SpotterModels::SpotterModels(SpotterModels&&) noexcept = default;
SpotterModels& SpotterModels::operator=(SpotterModels&&) noexcept = default;

int SpotterModels::classes() const { return static_cast<int>(impl_->recognizer->classes); }

std::vector<float> SpotterModels::text_probability(const std::vector<float>& image, int h, int w) {
  if (h <= 0 || w <= 0 || h % 32 || w % 32 || image.size() != static_cast<size_t>(3) * h * w)
    throw Error("text_probability: expected [3, h, w] with h and w multiples of 32");
  torch::NoGradGuard no_grad;
  use_threads(impl_->threads);
  const torch::Tensor x = torch::from_blob(const_cast<float*>(image.data()), {1, 3, h, w}, torch::kFloat32)
                              .to(impl_->device)
                              .contiguous(torch::MemoryFormat::ChannelsLast);
  const torch::Tensor p = impl_->detector->forward(x).to(torch::kCPU).contiguous();
  return std::vector<float>(p.data_ptr<float>(), p.data_ptr<float>() + p.numel());
}

std::vector<StepClasses> SpotterModels::read_lines(const std::vector<float>& crops, int b, int h, int w, const std::vector<bool>& allowed,
                                                   int space_class) {
  if (b <= 0 || h < 8 || w < 8 || crops.size() != static_cast<size_t>(b) * 3 * h * w)
    throw Error("read_lines: expected [b, 3, h, w] crops");
  torch::NoGradGuard no_grad;
  const torch::Tensor all = torch::softmax(impl_->read(crops, b, h, w, allowed, classes()), -1);  // [b, T, K]
  const auto best = all.max(-1);
  int64_t space_at = all.size(2) - 1;  // the last allowed class is the last class
  if (space_class >= 0) {
    const torch::Tensor at = (impl_->allowed_ids == space_class).nonzero();
    if (at.size(0) != 1) throw Error("read_lines: the space's class " + std::to_string(space_class) + " is not one the recogniser may read");
    space_at = at[0][0].item<int64_t>();
  }
  const torch::Tensor space = all.select(2, space_at).to(torch::kCPU).contiguous();
  const torch::Tensor ids_k = std::get<1>(best);
  const torch::Tensor cls = impl_->allowed_ids.index_select(0, ids_k.flatten()).view_as(ids_k);
  const torch::Tensor probs = std::get<0>(best).to(torch::kCPU).contiguous(), ids = cls.to(torch::kCPU).to(torch::kInt).contiguous();
  std::vector<StepClasses> out(static_cast<size_t>(b));
  const int T = static_cast<int>(probs.size(1));
  for (int i = 0; i < b; ++i) {
    out[i].steps = T;
    out[i].ids.assign(ids.data_ptr<int>() + i * T, ids.data_ptr<int>() + (i + 1) * T);
    out[i].probs.assign(probs.data_ptr<float>() + i * T, probs.data_ptr<float>() + (i + 1) * T);
    out[i].space.assign(space.data_ptr<float>() + i * T, space.data_ptr<float>() + (i + 1) * T);
  }
  return out;
}

std::vector<StepLogProbs> SpotterModels::read_log_probs(const std::vector<float>& crops, int b, int h, int w, const std::vector<bool>& allowed) {
  if (b <= 0 || h < 8 || w < 8 || crops.size() != static_cast<size_t>(b) * 3 * h * w)
    throw Error("read_log_probs: expected [b, 3, h, w] crops");
  torch::NoGradGuard no_grad;
  const torch::Tensor all = torch::log_softmax(impl_->read(crops, b, h, w, allowed, classes()), -1).to(torch::kCPU).contiguous();
  const torch::Tensor ids = impl_->allowed_ids.to(torch::kCPU).to(torch::kInt).contiguous();
  const std::vector<int> columns(ids.data_ptr<int>(), ids.data_ptr<int>() + ids.numel());
  const int T = static_cast<int>(all.size(1)), K = static_cast<int>(all.size(2));
  std::vector<StepLogProbs> out(static_cast<size_t>(b));
  for (int i = 0; i < b; ++i) {
    out[i].steps = T;
    out[i].classes = columns;
    const float* p = all.data_ptr<float>() + static_cast<size_t>(i) * T * K;
    out[i].log_probs.assign(p, p + static_cast<size_t>(T) * K);
  }
  return out;
}

}  // namespace light::model

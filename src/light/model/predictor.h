// A trained LIGHT model behind a plain interface (no LibTorch in this header): loaded once, it turns
// one window of a tile's model inputs into successor probabilities, or into every named output the
// parity fixtures hold. The linking pipelines (link/) and `light forward` use it.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "light/data/inputs.h"
#include "light/io/safetensors.h"
#include "light/model/config.h"

namespace light::model {

struct PredictorOptions {
  std::string device = "cpu";  // cpu | cuda
  int threads = 0;             // LibTorch intra-op threads (0 = all cores)
};

// probs[i * n + j]: the probability that word j follows word i (row softmax); bi_probs[i * n + j]:
// that j precedes i. Words in the window's model order.
struct SuccessorProbs {
  int n = 0;
  std::vector<float> probs, bi_probs;
};

struct LightTextLinkingImpl;

class Predictor {
 public:
  // A model folder or weights file (model::load_model), in eval mode on options.device.
  explicit Predictor(const std::string& model_path, const PredictorOptions& options = {});
  // A model in memory, shared (a training run's, in the mode and on the device the run keeps it).
  Predictor(std::shared_ptr<LightTextLinkingImpl> net, const PredictorOptions& options);
  ~Predictor();
  Predictor(Predictor&&) noexcept;
  Predictor& operator=(Predictor&&) noexcept;

  const ModelConfig& config() const;
  // Makes this model's thread count (PredictorOptions::threads) the process's, as every forward does:
  // a caller whose own work before the forward runs on OpenMP too (the per-window resize of
  // link/model_linking) calls it first, so that work runs with this model's count, not another's.
  void use_own_threads() const;
  // One window (data::layout_tokens) of a tile whose pixels are [3, S, S], S = config().layoutlmv3.input_size.
  SuccessorProbs successors(const data::TileInputs& window, const std::vector<float>& pixels);
  // Several windows (each with its pixels) in one forward: the same probabilities as one at a time,
  // up to float rounding, with each operation's overhead shared and larger matrix products.
  std::vector<SuccessorProbs> successors(const std::vector<const data::TileInputs*>& windows,
                                         const std::vector<const std::vector<float>*>& pixels);
  // Every intermediate output of one window, float32, by the parity fixtures' names (text_embeddings,
  // ..., probs, bi_probs; base_loss, bidirection_loss, focal_loss from the window's labels).
  std::map<std::string, io::Tensor> outputs(const data::TileInputs& window, const std::vector<float>& pixels);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace light::model

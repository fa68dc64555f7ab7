#include "light/train/init_weights.h"

#include <torch/torch.h>

#include <filesystem>
#include <set>

#include "light/model/checkpoint.h"
#include "light/model/light.h"
#include "light/model/poly_pretrain.h"
#include "light/train/run_folder.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/json.h"

namespace light::train {

namespace fs = std::filesystem;

std::string resolve_weights_file(const std::string& init) {
  fs::path p(init);
  if (fs::is_directory(p) && !fs::exists(p / "config.json")) {
    if (fs::exists(p / "final/model.safetensors")) p /= "final";
    else if (const std::string last = completed_folder((p / "last").string(), "model.safetensors"); !last.empty()) p = last;
  }
  if (fs::is_directory(p))
    for (const char* name : {"model.safetensors", "best_model.pth", "final_model.pth", "model.pth"})
      if (fs::exists(p / name)) return (p / name).string();
  return p.string();
}

InitWeights read_init(const std::string& init) {
  InitWeights w;
  if (init.empty() || init == "none") return w;
  const fs::path p(init);
  if (fs::is_directory(p) && fs::exists(p / "config.json")) {
    const std::string cfg = (p / "config.json").string();
    const auto j = parse_json(read_file(cfg), cfg);
    if (j.is_object() && j.contains("model_type") && j["model_type"] == "layoutlmv3") {
      w.kind = InitWeights::HuggingFace;
      w.path = init;
      return w;
    }
  }
  w.path = resolve_weights_file(init);
  w.state = model::read_state_dict(w.path);
  w.kind = InitWeights::Light;
  if (model::is_poly_pretrain_state(w.state)) {
    w.kind = InitWeights::Poly;
    w.state = model::poly_trunk_for_light(w.state);
  }
  return w;
}

void initialise(torch::nn::Module& net, model::LightModelImpl& light, const model::ModelConfig& config, const InitWeights& w) {
  if (w.kind == InitWeights::None) return;
  if (w.kind == InitWeights::HuggingFace) {
    model::load_layoutlmv3_backbone(light, config, w.path);
    return;
  }
  torch::NoGradGuard no_grad;
  size_t loaded = 0;
  std::set<std::string> names;
  for (auto& prm : net.named_parameters()) {
    names.insert(prm.key());
    auto it = w.state.find(prm.key());
    if (it == w.state.end()) continue;
    const torch::Tensor& from = it->second;
    torch::Tensor to = prm.value();
    // A pairwise head widened (--head pairwise-lettering, pairwise-lines: more pair features, the
    // geometry layer's columns; --head-hidden: more hidden units, rows of geometry, from and to and
    // columns of out): the checkpoint's block first; the new features' columns and the new units'
    // out weights zero, so the widened head scores as the checkpoint's did. New units' other
    // weights keep their fresh initialisation: they learn once out gives them a say.
    const bool pair_head = prm.key().rfind("successor_pair.", 0) == 0 || prm.key().rfind("predecessor_pair.", 0) == 0;
    bool widened = pair_head && from.dim() == to.dim() && from.sizes() != to.sizes();
    for (int64_t d = 0; widened && d < from.dim(); ++d) widened = from.size(d) <= to.size(d);
    if (widened) {
      torch::Tensor block = to;
      for (int64_t d = 0; d < from.dim(); ++d) block = block.slice(d, 0, from.size(d));
      block.copy_(from);
      const std::string& k = prm.key();
      const auto ends = [&](const std::string& tail) { return k.size() > tail.size() && k.compare(k.size() - tail.size(), tail.size(), tail) == 0; };
      if (ends("geometry.weight")) to.slice(0, 0, from.size(0)).slice(1, from.size(1)).zero_();
      if (ends("out.weight")) to.slice(1, from.size(1)).zero_();
      ++loaded;
      continue;
    }
    if (from.sizes() != to.sizes())
      throw Error(w.path + ": \"" + prm.key() + "\" has another shape than this model's (--config)");
    to.copy_(from);
    ++loaded;
  }
  if (loaded == 0) throw Error(w.path + ": no parameter of this model found (--init)");
  if (w.kind == InitWeights::Poly)  // every trunk tensor must have found its place
    for (const auto& [k, v] : w.state)
      if (!names.count(k)) throw Error(w.path + ": \"" + k + "\" has no place in this model's polygon encoder (--init)");
}

bool sinusoid_layout(const std::string& choice, const InitWeights& w, const std::string& option) {
  if (choice == "sinusoid") return true;
  if (choice == "random") return false;
  if (choice == "auto") return w.kind == InitWeights::None || w.kind == InitWeights::Poly;
  throw Error(option + ": expected auto, sinusoid or random, got \"" + choice + "\"");
}

}  // namespace light::train

// Loading weights into LIGHT: a state dict (name -> tensor) from a checkpoint file, and a strict
// load into the module tree that lists every missing, unexpected and mis-shaped key in one error.
#pragma once

#include <map>
#include <string>

#include "light/model/light.h"

namespace light::model {

// Reads every tensor of a .safetensors file as a CPU float32 (F16/BF16/F64 converted) or int64 tensor.
std::map<std::string, torch::Tensor> read_safetensors_state_dict(const std::string& path);

// Reads a torch.save checkpoint (zip format): a bare state dict, or a wrapped one
// ({"model_state_dict": ...}); "module." prefixes are removed.
std::map<std::string, torch::Tensor> read_pth_state_dict(const std::string& path);

// Either format, by extension (.safetensors, else PyTorch zip).
std::map<std::string, torch::Tensor> read_state_dict(const std::string& path);
// Throws light::Error naming `path` and the tensor when a floating-point weight is NaN or infinite.
void check_finite(const std::map<std::string, torch::Tensor>& state, const std::string& path);

// Every parameter of `module` (CPU float32) into a .safetensors file, written atomically.
void write_parameters(torch::nn::Module& module, const std::string& path);

// A model folder `dir` (created): model.safetensors (the parameters of `module`), config.json, the
// tokenizer's files found in `tokenizer_dir` (tokenizer.json, vocab.json, merges.txt; none when it is
// empty), and each (source file, name) of `extra_files`.
void write_model_folder(torch::nn::Module& module, const ModelConfig& config, const std::string& dir,
                        const std::string& tokenizer_dir = "",
                        const std::vector<std::pair<std::string, std::string>>& extra_files = {});

// Keys a checkpoint may hold that no light module needs: non-persistent buffers (…position_ids,
// …token_type_ids) and the polygon BERT's unused word table and pooler.
bool unused_checkpoint_key(const std::string& key);

// Copies `state` into `module`'s parameters, strictly. Tolerated: buffers Hugging Face does not need
// (…position_ids, …token_type_ids), and the polygon BERT's unused word table and pooler.
void load_state_dict(torch::nn::Module& module, const std::map<std::string, torch::Tensor>& state, const std::string& source);

// Models with batch norm (the spotter's): parameters and floating-point buffers (running statistics),
// written to a .safetensors file with `metadata` (atomically), and loaded strictly as load_state_dict.
void write_state(torch::nn::Module& module, const std::string& path, const std::map<std::string, std::string>& metadata = {});
void load_state(torch::nn::Module& module, const std::map<std::string, torch::Tensor>& state, const std::string& source);

// Initialises model->light from a Hugging Face LayoutLMv3 folder (config.json + model.safetensors or
// pytorch_model.bin; keys with or without "layoutlmv3."). Every backbone parameter must be present;
// the 1-D position and token-type tables, whose sizes differ from layoutlmv3-base's (514 and 1), are
// re-initialised as the reference does (normal, std 0.02, padding row zero) and listed.
struct BackboneReport {
  size_t loaded = 0;
  std::vector<std::string> reinitialised;
};
BackboneReport load_layoutlmv3_backbone(LightTextLinking& model, const std::string& hf_dir);
// The same into any module's `light` part (e.g. the pretraining model's).
BackboneReport load_layoutlmv3_backbone(LightModelImpl& light, const ModelConfig& config, const std::string& hf_dir);

// A model: a folder with config.json (sizes) and model.safetensors or best_model.pth; or a bare
// weights file (.safetensors / .pth), with the config.json beside it or, failing that, the released
// LIGHT model's sizes.
LightTextLinking load_model(const std::string& path);

}  // namespace light::model

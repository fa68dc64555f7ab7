// Where a run's weights start (--init): nothing, a Hugging Face LayoutLMv3 folder, a LIGHT model or
// pretraining run, or a polygon-pretraining checkpoint; and how the 2-D layout tables start.
#pragma once
#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>

#include <map>
#include <string>

#include "light/model/config.h"

namespace light::model {
struct LightModelImpl;
}

namespace light::train {

// The weights file --init names: a file itself; in a folder, the first of model.safetensors,
// best_model.pth, final_model.pth, model.pth; a `light pretrain-poly` run folder (no config.json)
// stands for its final/, else its last completed checkpoint.
std::string resolve_weights_file(const std::string& init);

// What --init names, read once: nothing, a Hugging Face LayoutLMv3 folder (the backbone), a LIGHT
// model or weights file (fine-tuned, a `light pretrain` run, or a pretraining checkpoint's "light."
// part), or a polygon-pretraining checkpoint or `light pretrain-poly` run (light's or the
// reference's), whose trunk initialises the polygon encoder.
struct InitWeights {
  enum Kind { None, HuggingFace, Light, Poly } kind = None;
  std::string path;
  std::map<std::string, torch::Tensor> state;
};
InitWeights read_init(const std::string& init);

// Copies the weights into `net` by parameter name (a Hugging Face backbone into its LIGHT trunk
// `light`); shapes must agree. A polygon trunk must place every tensor; other weights at least one.
void initialise(torch::nn::Module& net, model::LightModelImpl& light, const model::ModelConfig& config, const InitWeights& w);
// Whether the 2-D layout tables start as sinusoids (model::init_layout_tables_sinusoid): "sinusoid",
// "random" (Hugging Face's N(0, 0.02), the reference's), or "auto" (sinusoid when the transformer
// starts from random weights: no --init, or a polygon-encoder checkpoint alone). Throws for another
// value, naming `option`.
bool sinusoid_layout(const std::string& choice, const InitWeights& w, const std::string& option);

}  // namespace light::train

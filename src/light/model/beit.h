// BEiT's image tokenizer for masked image modelling, as the reference uses it
// (`BeitForMaskedImageModeling`, e.g. microsoft/beit-base-patch16-224-pt22k): patch embedding and a
// visual CLS, pre-LayerNorm transformer layers with layer scale (lambda_1, lambda_2) and one relative
// position bias shared by all layers, two final LayerNorms and the lm_head; a patch's visual token is
// the argmax of its 8192 logits. Eval mode only (the reference computes its targets under no_grad).
// Checkpoints with Hugging Face transformers 4's names (beit.encoder.layer.N.attention.attention.query,
// as the released BEiT models have) and 5's (beit.layers.N.attention.q_proj) both load; inside, the
// names are LibTorch's (layers.N.q_proj, ...).
#pragma once
#include <torch/torch.h>

#include <string>

namespace light::model {

struct BeitConfig {
  int vocab_size = 8192, hidden_size = 768, num_hidden_layers = 12, num_attention_heads = 12, intermediate_size = 3072,
      image_size = 224, patch_size = 16, num_channels = 3;
  double layer_norm_eps = 1e-12;
};

struct BeitLayerImpl : torch::nn::Module {
  explicit BeitLayerImpl(const BeitConfig& c);
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& bias);
  torch::nn::LayerNorm layernorm_before{nullptr}, layernorm_after{nullptr};
  torch::nn::Linear q_proj{nullptr}, k_proj{nullptr}, v_proj{nullptr}, o_proj{nullptr}, fc1{nullptr}, fc2{nullptr};
  torch::Tensor lambda_1, lambda_2;
  int heads;
};
TORCH_MODULE(BeitLayer);

struct BeitImageTokenizerImpl : torch::nn::Module {
  explicit BeitImageTokenizerImpl(const BeitConfig& c);
  // pixel_values [B, 3, S, S] (LayoutLMv3's normalisation, which BEiT's processor shares) -> logits [B, patches, vocab].
  torch::Tensor logits(const torch::Tensor& pixel_values);
  // The visual token of every patch, [B, patches] (argmax of the logits).
  torch::Tensor codes(const torch::Tensor& pixel_values);

  torch::Tensor cls_token, relative_position_bias_table, relative_position_index;
  torch::nn::Conv2d projection{nullptr};
  torch::nn::ModuleList layers{nullptr};
  torch::nn::LayerNorm beit_layernorm{nullptr}, layernorm{nullptr};
  torch::nn::Linear lm_head{nullptr};
  BeitConfig config;
};
TORCH_MODULE(BeitImageTokenizer);

// Whether `dir` is a Hugging Face BEiT folder (config.json with "model_type": "beit").
bool is_beit_folder(const std::string& dir);
// Loads a BEiT folder (config.json + model.safetensors or pytorch_model.bin), strictly: every
// parameter must be there with its shape; light::Error names the file and the keys otherwise.
BeitImageTokenizer load_beit(const std::string& dir);

}  // namespace light::model

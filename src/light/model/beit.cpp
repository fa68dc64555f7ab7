#include "light/model/beit.h"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "light/model/checkpoint.h"
#include "light/error.h"
#include "light/util/json.h"
#include "light/util/fs.h"

namespace light::model {

namespace {
torch::nn::Linear linear(int in, int out, bool bias = true) { return torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(bias)); }
torch::nn::LayerNorm norm(const BeitConfig& c) {
  return torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.hidden_size}).eps(c.layer_norm_eps));
}
}  // namespace

BeitLayerImpl::BeitLayerImpl(const BeitConfig& c) : heads(c.num_attention_heads) {
  const int H = c.hidden_size;
  layernorm_before = register_module("layernorm_before", norm(c));
  layernorm_after = register_module("layernorm_after", norm(c));
  q_proj = register_module("q_proj", linear(H, H));
  k_proj = register_module("k_proj", linear(H, H, false));
  v_proj = register_module("v_proj", linear(H, H));
  o_proj = register_module("o_proj", linear(H, H));
  fc1 = register_module("fc1", linear(H, c.intermediate_size));
  fc2 = register_module("fc2", linear(c.intermediate_size, H));
  lambda_1 = register_parameter("lambda_1", torch::ones({H}));
  lambda_2 = register_parameter("lambda_2", torch::ones({H}));
}

torch::Tensor BeitLayerImpl::forward(const torch::Tensor& x, const torch::Tensor& bias) {
  const int64_t B = x.size(0), S = x.size(1), H = x.size(2), d = H / heads;
  const torch::Tensor h = layernorm_before(x);
  auto split = [&](const torch::Tensor& t) { return t.view({B, S, heads, d}).transpose(1, 2); };
  const torch::Tensor q = split(q_proj(h)), k = split(k_proj(h)), v = split(v_proj(h));
  const torch::Tensor scores = torch::matmul(q, k.transpose(-1, -2)) * (1.0 / std::sqrt(static_cast<double>(d))) + bias;
  const torch::Tensor ctx = torch::matmul(torch::softmax(scores, -1), v).transpose(1, 2).reshape({B, S, H});
  const torch::Tensor y = x + lambda_1 * o_proj(ctx);
  return y + lambda_2 * fc2(torch::gelu(fc1(layernorm_after(y))));
}

BeitImageTokenizerImpl::BeitImageTokenizerImpl(const BeitConfig& c) : config(c) {
  const int H = c.hidden_size, g = c.image_size / c.patch_size;
  cls_token = register_parameter("cls_token", torch::zeros({1, 1, H}));
  projection = register_module("projection",
                               torch::nn::Conv2d(torch::nn::Conv2dOptions(c.num_channels, H, c.patch_size).stride(c.patch_size)));
  const int64_t distances = (2 * g - 1) * (2 * g - 1) + 3;
  relative_position_bias_table =
      register_parameter("relative_position_bias_table", torch::zeros({distances, c.num_attention_heads}));
  layers = register_module("layers", torch::nn::ModuleList());
  for (int i = 0; i < c.num_hidden_layers; ++i) layers->push_back(BeitLayer(c));
  beit_layernorm = register_module("beit_layernorm", norm(c));
  layernorm = register_module("layernorm", norm(c));
  lm_head = register_module("lm_head", linear(H, c.vocab_size));
  // BEiT's relative position index: patch pairs by their (dy, dx), then CLS-to-token, token-to-CLS
  // and CLS-to-CLS as the table's last three rows.
  const int64_t N = static_cast<int64_t>(g) * g;
  torch::Tensor idx = torch::zeros({N + 1, N + 1}, torch::kLong);
  auto a = idx.accessor<int64_t, 2>();
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < N; ++j) {
      const int64_t dy = i / g - j / g + (g - 1), dx = i % g - j % g + (g - 1);
      a[i + 1][j + 1] = dy * (2 * g - 1) + dx;
    }
  for (int64_t j = 0; j <= N; ++j) a[0][j] = distances - 3;
  for (int64_t i = 0; i <= N; ++i) a[i][0] = distances - 2;
  a[0][0] = distances - 1;
  relative_position_index = register_buffer("relative_position_index", idx);
}

torch::Tensor BeitImageTokenizerImpl::logits(const torch::Tensor& px) {
  const int64_t B = px.size(0);
  torch::Tensor x = projection(px).flatten(2).transpose(1, 2);
  x = torch::cat({cls_token.expand({B, 1, x.size(2)}), x}, 1);
  const int64_t S = x.size(1);
  const torch::Tensor bias = relative_position_bias_table.index_select(0, relative_position_index.flatten())
                                 .view({S, S, -1})
                                 .permute({2, 0, 1})
                                 .unsqueeze(0);
  for (const auto& layer : *layers) x = layer->as<BeitLayerImpl>()->forward(x, bias);
  x = layernorm(beit_layernorm(x));
  return lm_head(x.slice(1, 1));
}

torch::Tensor BeitImageTokenizerImpl::codes(const torch::Tensor& px) {
  torch::NoGradGuard no_grad;
  return logits(px).argmax(-1);
}

bool is_beit_folder(const std::string& dir) {
  const std::filesystem::path p = std::filesystem::path(dir) / "config.json";
  if (!std::filesystem::is_regular_file(p)) return false;
  try {
    return parse_json(read_file(p.string()), p.string()).value("model_type", "") == "beit";
  } catch (const std::exception&) {
    return false;
  }
}

BeitImageTokenizer load_beit(const std::string& dir) {
  namespace fs = std::filesystem;
  const std::string cfg_path = (fs::path(dir) / "config.json").string();
  if (!is_beit_folder(dir)) throw Error(dir + ": not a BEiT folder (config.json with \"model_type\": \"beit\")");
  BeitConfig c;
  try {
    const auto j = parse_json(read_file(cfg_path), cfg_path);
    c.vocab_size = j.value("vocab_size", c.vocab_size), c.hidden_size = j.value("hidden_size", c.hidden_size);
    c.num_hidden_layers = j.value("num_hidden_layers", c.num_hidden_layers);
    c.num_attention_heads = j.value("num_attention_heads", c.num_attention_heads);
    c.intermediate_size = j.value("intermediate_size", c.intermediate_size), c.image_size = j.value("image_size", c.image_size);
    c.patch_size = j.value("patch_size", c.patch_size), c.num_channels = j.value("num_channels", c.num_channels);
    c.layer_norm_eps = j.value("layer_norm_eps", c.layer_norm_eps);
    if (!j.value("use_shared_relative_position_bias", false) || j.value("use_absolute_position_embeddings", false) ||
        j.value("use_relative_position_bias", false) || j.value("hidden_act", std::string("gelu")) != "gelu")
      throw Error(cfg_path + ": only the pretraining BEiT layout is supported (use_shared_relative_position_bias, no absolute "
                             "positions, no per-layer relative bias, gelu), as microsoft/beit-base-patch16-224-pt22k has");
  } catch (const nlohmann::json::exception& e) {
    throw Error(cfg_path + ": " + e.what());
  }
  fs::path weights;
  for (const char* name : {"model.safetensors", "pytorch_model.bin"})
    if (weights.empty() && fs::exists(fs::path(dir) / name)) weights = fs::path(dir) / name;
  if (weights.empty()) throw Error(dir + ": no model.safetensors or pytorch_model.bin");
  // transformers 4 names -> 5 names.
  const std::vector<std::pair<std::string, std::string>> renames = {
      {"beit.encoder.relative_position_bias.", "beit.shared_position_bias."}, {"beit.encoder.layer.", "beit.layers."},
      {".attention.attention.query.", ".attention.q_proj."}, {".attention.attention.key.", ".attention.k_proj."},
      {".attention.attention.value.", ".attention.v_proj."}, {".attention.output.dense.", ".attention.o_proj."},
      {".intermediate.dense.", ".mlp.fc1."}, {".output.dense.", ".mlp.fc2."}};
  const std::vector<std::pair<std::string, std::string>> internal = {
      {"beit.embeddings.patch_embeddings.", ""}, {"beit.embeddings.", ""}, {"beit.shared_position_bias.", ""},
      {"beit.layers.", "layers."}, {".attention.", "."}, {".mlp.", "."}, {"beit.layernorm.", "beit_layernorm."}};
  std::map<std::string, torch::Tensor> state;
  for (const auto& [key, v] : read_state_dict(weights.string())) {
    std::string k = key;
    if (k.find("relative_position_index") != std::string::npos || k == "beit.embeddings.mask_token") continue;  // rebuilt / unused
    for (const auto& [from, to] : renames)
      if (const auto at = k.find(from); at != std::string::npos) k.replace(at, from.size(), to);
    // transformers 5 names -> this module's (LibTorch names have no dots of their own).
    for (const auto& [from, to] : internal)
      if (const auto at = k.find(from); at != std::string::npos) k.replace(at, from.size(), to);
    state[k] = v;
  }
  BeitImageTokenizer m(c);
  load_state_dict(*m, state, weights.string());
  m->eval();
  return m;
}

}  // namespace light::model

#include "light/model/checkpoint.h"

#include <filesystem>

#include "light/io/safetensors.h"
#include "light/io/torch_pickle.h"
#include "light/error.h"

namespace light::model {

std::map<std::string, torch::Tensor> read_safetensors_state_dict(const std::string& path) {
  const io::SafeTensorsFile f(path);
  std::map<std::string, torch::Tensor> out;
  for (const auto& [name, v] : f.tensors()) {
    std::vector<int64_t> shape(v.shape.begin(), v.shape.end());
    torch::ScalarType t;
    switch (v.dtype) {
      case io::DType::F32: t = torch::kFloat32; break;
      case io::DType::F16: t = torch::kFloat16; break;
      case io::DType::BF16: t = torch::kBFloat16; break;
      case io::DType::F64: t = torch::kFloat64; break;
      case io::DType::I64: t = torch::kInt64; break;
      case io::DType::I32: t = torch::kInt32; break;
      default: throw Error(path + ": tensor \"" + name + "\": unsupported dtype " + io::dtype_name(v.dtype));
    }
    torch::Tensor x = torch::from_blob(const_cast<unsigned char*>(v.data), shape, t).clone();
    if (x.is_floating_point()) x = x.to(torch::kFloat32);
    out.emplace(name, std::move(x));
  }
  return out;
}

std::map<std::string, torch::Tensor> read_pth_state_dict(const std::string& path) {
  const io::PthFile f(path);
  std::map<std::string, torch::Tensor> out;
  for (const auto& [name, t] : f.tensors()) {
    torch::ScalarType st;
    switch (t.dtype) {
      case io::DType::F32: st = torch::kFloat32; break;
      case io::DType::F16: st = torch::kFloat16; break;
      case io::DType::BF16: st = torch::kBFloat16; break;
      case io::DType::F64: st = torch::kFloat64; break;
      case io::DType::I64: st = torch::kInt64; break;
      case io::DType::I32: st = torch::kInt32; break;
      case io::DType::U8: st = torch::kUInt8; break;
      case io::DType::BOOL: st = torch::kBool; break;
      default: throw Error(path + ": tensor \"" + name + "\": unsupported dtype " + io::dtype_name(t.dtype));
    }
    auto* base = const_cast<unsigned char*>(t.storage) + static_cast<size_t>(t.offset) * io::dtype_size(t.dtype);
    torch::Tensor x = torch::from_blob(base, t.shape, t.stride, st).clone();
    if (x.is_floating_point()) x = x.to(torch::kFloat32);
    out.emplace(name, std::move(x));
  }
  return out;
}

std::map<std::string, torch::Tensor> read_state_dict(const std::string& path) {
  const bool st = path.size() >= 12 && path.compare(path.size() - 12, 12, ".safetensors") == 0;
  std::map<std::string, torch::Tensor> state = st ? read_safetensors_state_dict(path) : read_pth_state_dict(path);
  check_finite(state, path);
  return state;
}

void check_finite(const std::map<std::string, torch::Tensor>& state, const std::string& path) {
  // A weight that is NaN or infinite would spread through every output: refused by name.
  for (const auto& [key, t] : state)
    if (t.is_floating_point() && t.numel() > 0 && !torch::isfinite(t).all().item<bool>())
      throw Error(path + ": tensor \"" + key + "\" holds NaN or infinite values (a diverged or damaged checkpoint)");
}

void write_parameters(torch::nn::Module& module, const std::string& path) {
  std::map<std::string, io::Tensor> t;
  for (const auto& p : module.named_parameters()) {
    const torch::Tensor c = p.value().detach().to(torch::kCPU).to(torch::kFloat32).contiguous();
    t[p.key()] = io::Tensor::f32(std::vector<int64_t>(c.sizes().begin(), c.sizes().end()),
                                 std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel()));
  }
  io::write_safetensors(path, t, {{"format", "pt"}});
}

void write_model_folder(torch::nn::Module& module, const ModelConfig& config, const std::string& dir,
                        const std::string& tokenizer_dir, const std::vector<std::pair<std::string, std::string>>& extra_files) {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  write_parameters(module, dir + "/model.safetensors");
  write_model_config(dir + "/config.json", config);
  if (!tokenizer_dir.empty())
    for (const char* f : {"tokenizer.json", "vocab.json", "merges.txt"})
      if (fs::exists(fs::path(tokenizer_dir) / f))
        fs::copy_file(fs::path(tokenizer_dir) / f, fs::path(dir) / f, fs::copy_options::overwrite_existing);
  for (const auto& [source, name] : extra_files) fs::copy_file(source, fs::path(dir) / name, fs::copy_options::overwrite_existing);
}

bool unused_checkpoint_key(const std::string& key) {
  auto ends = [&](const std::string& s) { return key.size() >= s.size() && key.compare(key.size() - s.size(), s.size(), s) == 0; };
  // The polygon BERT's word table and pooler, in LIGHT ("light.poly_encoder.encoder.…") and in
  // polygon-pretraining checkpoints ("encoder.…" at the top).
  auto bert_part = [&](const std::string& s) { return key.rfind(s, 0) == 0 || key.find("poly_encoder." + s) != std::string::npos; };
  return ends("position_ids") || ends("token_type_ids") || bert_part("encoder.embeddings.word_embeddings.") || bert_part("encoder.pooler.");
}

namespace {
std::string shape_str(const torch::Tensor& t) {
  std::string s = "[";
  for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + "]";
}
}  // namespace

namespace {
void load_tensors(const std::vector<std::pair<std::string, torch::Tensor>>& targets, const std::map<std::string, torch::Tensor>& state,
                  const std::string& source) {
  torch::NoGradGuard no_grad;
  std::vector<std::string> missing, mismatched, unexpected;
  std::set<std::string> used;
  for (const auto& [key, value] : targets) {
    auto it = state.find(key);
    if (it == state.end()) {
      missing.push_back(key);
      continue;
    }
    used.insert(key);
    if (it->second.sizes() != value.sizes()) {
      mismatched.push_back(key + " (checkpoint " + shape_str(it->second) + ", model " + shape_str(value) + ")");
      continue;
    }
    torch::Tensor(value).copy_(it->second);
  }
  for (const auto& kv : state)
    if (!used.count(kv.first) && !unused_checkpoint_key(kv.first)) unexpected.push_back(kv.first);
  if (missing.empty() && mismatched.empty() && unexpected.empty()) return;
  std::string msg = source + ": does not fit the model:";
  auto list = [&](const char* what, const std::vector<std::string>& keys) {
    if (keys.empty()) return;
    msg += std::string("\n  ") + what + " (" + std::to_string(keys.size()) + "):";
    for (size_t i = 0; i < keys.size() && i < 12; ++i) msg += "\n    " + keys[i];
    if (keys.size() > 12) msg += "\n    ... and " + std::to_string(keys.size() - 12) + " more";
  };
  list("shapes differ", mismatched);
  list("missing from the checkpoint", missing);
  list("not in the model", unexpected);
  throw Error(msg);
}

}  // namespace

void load_state_dict(torch::nn::Module& module, const std::map<std::string, torch::Tensor>& state, const std::string& source) {
  std::vector<std::pair<std::string, torch::Tensor>> targets;
  for (auto& p : module.named_parameters(/*recurse=*/true)) targets.emplace_back(p.key(), p.value());
  load_tensors(targets, state, source);
}

namespace {
// Parameters and floating-point buffers (batch-norm statistics; not num_batches_tracked).
std::vector<std::pair<std::string, torch::Tensor>> state_tensors(torch::nn::Module& module) {
  std::vector<std::pair<std::string, torch::Tensor>> out;
  for (auto& p : module.named_parameters(/*recurse=*/true)) out.emplace_back(p.key(), p.value());
  for (auto& b : module.named_buffers(/*recurse=*/true))
    if (b.value().is_floating_point()) out.emplace_back(b.key(), b.value());
  return out;
}
}  // namespace

void load_state(torch::nn::Module& module, const std::map<std::string, torch::Tensor>& state, const std::string& source) {
  load_tensors(state_tensors(module), state, source);
}

void write_state(torch::nn::Module& module, const std::string& path, const std::map<std::string, std::string>& metadata) {
  std::map<std::string, io::Tensor> t;
  for (const auto& [key, value] : state_tensors(module)) {
    const torch::Tensor c = value.detach().to(torch::kCPU).to(torch::kFloat32).contiguous();
    t[key] = io::Tensor::f32(std::vector<int64_t>(c.sizes().begin(), c.sizes().end()),
                             std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel()));
  }
  std::map<std::string, std::string> meta = metadata;
  meta["format"] = "pt";
  io::write_safetensors(path, t, meta);
}

BackboneReport load_layoutlmv3_backbone(LightTextLinking& model, const std::string& hf_dir) {
  return load_layoutlmv3_backbone(*model->light, model->config, hf_dir);
}

BackboneReport load_layoutlmv3_backbone(LightModelImpl& light, const ModelConfig& config, const std::string& hf_dir) {
  namespace fs = std::filesystem;
  const fs::path d(hf_dir);
  fs::path weights;
  for (const char* name : {"model.safetensors", "pytorch_model.bin"})
    if (weights.empty() && fs::exists(d / name)) weights = d / name;
  if (weights.empty()) throw Error(hf_dir + ": no model.safetensors or pytorch_model.bin");
  const auto state = read_state_dict(weights.string());
  std::map<std::string, torch::Tensor> mapped;
  for (const auto& [k, v] : state) {
    std::string key = k.rfind("layoutlmv3.", 0) == 0 ? k.substr(11) : k;
    mapped["light." + key] = v;
  }
  torch::NoGradGuard no_grad;
  BackboneReport report;
  std::vector<std::string> missing, mismatched;
  const int64_t pad = config.layoutlmv3.pad_token_id;
  for (auto& p : light.named_parameters(/*recurse=*/true)) {
    const std::string name = "light." + p.key();
    if (name.rfind("light.poly_encoder.", 0) == 0 || name.rfind("light.poly_layer_norm.", 0) == 0) continue;  // not LayoutLMv3
    auto it = mapped.find(name);
    const bool resizable = name == "light.embeddings.position_embeddings.weight" || name == "light.embeddings.token_type_embeddings.weight";
    if (it != mapped.end() && it->second.sizes() == p.value().sizes()) {
      p.value().copy_(it->second);
      ++report.loaded;
    } else if (resizable) {
      p.value().normal_(0.0, 0.02);
      if (name == "light.embeddings.position_embeddings.weight") p.value()[pad].zero_();
      report.reinitialised.push_back(name);
    } else if (it == mapped.end()) {
      missing.push_back(name);
    } else {
      mismatched.push_back(name + " (checkpoint " + shape_str(it->second) + ", model " + shape_str(p.value()) + ")");
    }
  }
  if (!missing.empty() || !mismatched.empty()) {
    std::string msg = weights.string() + ": not a LayoutLMv3 backbone of these sizes:";
    for (const auto& m : mismatched) msg += "\n  shapes differ: " + m;
    for (size_t i = 0; i < missing.size() && i < 12; ++i) msg += "\n  missing: " + missing[i];
    if (missing.size() > 12) msg += "\n  ... and " + std::to_string(missing.size() - 12) + " more missing";
    throw Error(msg);
  }
  return report;
}

LightTextLinking load_model(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  fs::path weights, config;
  if (fs::is_directory(p)) {
    for (const char* name : {"model.safetensors", "best_model.pth", "model.pth"})
      if (weights.empty() && fs::exists(p / name)) weights = p / name;
    if (weights.empty()) throw Error(path + ": no weights (expected model.safetensors or best_model.pth)");
    config = p / "config.json";
    if (!fs::exists(config)) throw Error(path + ": no config.json");
  } else if (fs::exists(p)) {
    weights = p;
    if (fs::exists(p.parent_path() / "config.json")) config = p.parent_path() / "config.json";
  } else {
    throw Error(path + ": no such model folder or weights file");
  }
  const ModelConfig c = config.empty() ? ModelConfig{} : read_model_config(config.string());
  LightTextLinking model(c);
  load_state_dict(*model, read_state_dict(weights.string()), weights.string());
  model->eval();
  return model;
}

}  // namespace light::model

#include "light/train/run_files.h"

#include <filesystem>
#include <map>
#include <sstream>

#include "light/io/safetensors.h"

namespace light::train {

namespace fs = std::filesystem;

void write_parameters(torch::nn::Module& module, const std::string& path) {
  std::map<std::string, io::Tensor> t;
  for (const auto& p : module.named_parameters()) {
    const torch::Tensor c = p.value().detach().to(torch::kCPU).to(torch::kFloat32).contiguous();
    t[p.key()] = io::Tensor::f32(std::vector<int64_t>(c.sizes().begin(), c.sizes().end()),
                                 std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel()));
  }
  io::write_safetensors(path, t, {{"format", "pt"}});
}

void swap_in(const std::string& tmp, const std::string& dir) {
  const std::string old = dir + ".old";
  fs::remove_all(old);
  if (fs::exists(dir)) fs::rename(dir, old);
  fs::rename(tmp, dir);
  fs::remove_all(old);
}

std::string completed_folder(const std::string& dir, const std::string& marker) {
  if (fs::exists(fs::path(dir) / marker)) return dir;
  if (fs::exists(fs::path(dir + ".old") / marker)) return dir + ".old";
  return "";
}

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

void save_cpu_rng(const std::string& path) {
  torch::Tensor rng = at::detail::getDefaultCPUGenerator().get_state();
  torch::save(rng, path);
}

void load_cpu_rng(const std::string& path) {
  torch::Tensor rng;
  torch::load(rng, path);
  at::Generator gen = at::detail::getDefaultCPUGenerator();
  gen.set_state(rng);
}

std::string first_lines(const std::string& text, long count) {
  std::istringstream in(text);
  std::string line, out;
  for (long k = 0; k < count && std::getline(in, line); ++k) out += line + "\n";
  return out;
}

}  // namespace light::train

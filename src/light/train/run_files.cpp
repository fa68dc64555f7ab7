#include "light/train/run_files.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <random>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "light/image/plot.h"
#include "light/io/safetensors.h"
#include "light/model/checkpoint.h"
#include "light/model/poly_pretrain.h"
#include "light/util/error.h"
#include "light/util/json.h"
#include "light/util/fs.h"


namespace light::train {

namespace fs = std::filesystem;

void swap_in(const std::string& tmp, const std::string& dir) {
  const std::string old = dir + ".old";
  remove_tree(old);
  if (fs::exists(dir)) fs::rename(dir, old);
  fs::rename(tmp, dir);
  remove_tree(old);
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

std::string absolute_path(const std::string& p) { return p.empty() ? p : fs::absolute(p).lexically_normal().string(); }

std::string path_or_name(const std::string& p) { return fs::exists(p) ? absolute_path(p) : p; }

void check_resume_world_size(int saved, int now, const std::string& options_path) {
  if (saved != now)
    throw Error(options_path + ": the run was started with --world-size " + std::to_string(saved) + "; resume it with the same");
}

namespace {
bool byte_level(const std::string& tokenizer) { return tokenizer == "bytes" && !fs::exists(tokenizer); }
}  // namespace

text::BpeTokenizer read_run_tokenizer(const std::string& tokenizer, const std::string& out_dir, bool resume) {
  if (!byte_level(tokenizer)) return text::BpeTokenizer::from_folder(tokenizer);
  const std::string own = out_dir + "/tokenizer";
  return resume && fs::exists(own + "/vocab.json") ? text::BpeTokenizer::from_folder(own) : text::BpeTokenizer::byte_level();
}

std::string run_tokenizer_folder(const std::string& tokenizer, const std::string& out_dir) {
  if (!byte_level(tokenizer)) return tokenizer;
  const std::string own = out_dir + "/tokenizer";
  return fs::exists(own + "/vocab.json") ? own : text::BpeTokenizer::write_byte_level(own);
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

void check_range(double value, double lo, double hi, const std::string& option) {
  if (!(std::isfinite(value) && value >= lo && value <= hi)) {
    std::ostringstream m;
    m << option << ": expected a number from " << lo << " to " << hi << ", got " << value;
    throw Error(m.str());
  }
}

void check_optimiser(double lr, double weight_decay, double warmup_ratio) {
  check_range(lr, 0, 1, "--lr");  // 0 freezes the weights (a dry run of the loop)
  check_range(weight_decay, 0, 1, "--weight-decay");
  check_range(warmup_ratio, 0, 1, "--warmup-ratio");
}

void check_finite_loss(double loss, const std::string& what, const std::string& at) {
  if (std::isfinite(loss)) return;
  std::ostringstream m;
  m << what << ": the loss is " << loss << " at " << at
    << "; the run stops (a lower --lr may help) and keeps its last checkpoint (--resume continues from it)";
  throw Error(m.str());
}

std::string first_lines(const std::string& text, long count) {
  std::istringstream in(text);
  std::string line, out;
  for (long k = 0; k < count && std::getline(in, line); ++k) out += line + "\n";
  return out;
}

void draw_loss_curves(const std::string& log_text, const std::vector<std::string>& names, const std::string& parts_title,
                      const std::string& path) {
  std::vector<image::Series> series;  // the total in black, the parts in the palette's colours
  for (size_t k = 0; k < names.size(); ++k) series.push_back({names[k], {}, {}, k == 0 ? 0x000000u : image::palette_colour(k - 1)});
  std::istringstream in(log_text);
  std::string line;
  while (std::getline(in, line)) {
    const auto j = parse_json(line, "log line");
    for (size_t k = 0; k < names.size(); ++k) {
      series[k].x.push_back(j["step"].get<double>());
      const double v = j.contains(names[k]) && j[names[k]].is_number() ? j[names[k]].get<double>() : NAN;
      series[k].y.push_back(v > 0 ? v : NAN);
    }
  }
  image::write_plot_png(path, {{"Total loss", "step", {series[0]}, -1, true},
                               {parts_title, "step", std::vector<image::Series>(series.begin() + 1, series.end()), -1, true}});
}

RunFolder::RunFolder(std::string dir, bool resume, bool overwrite, bool root)
    : dir_(std::move(dir)), resume_(resume), overwrite_(overwrite), root_(root) {
  if (dir_.empty()) throw Error("--out: a run folder is required");
  if (resume_ && overwrite_) throw Error("--overwrite: not with --resume (a resumed run keeps its folder)");
  // Every rank checks, before the ranks meet (the training loops construct this first), so no rank
  // has written into the folder yet.
  if (!resume_) check_new_output_folder("--out", dir_, overwrite_, "continue the run with --resume " + dir_);
}

void RunFolder::create() {
  if (resume_) return;
  made_ = !fs::exists(dir_);
  if (overwrite_ && root_) clear_output_folder(dir_);
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw Error(dir_ + " (--out): cannot create the run folder: " + ec.message());
}

RunFolder::~RunFolder() {
  if (!active_ || resume_ || !root_) return;
  try {  // the setup's own error is the one to report
    if (made_) remove_tree(dir_);
    else clear_output_folder(dir_);
  } catch (const std::exception&) {
  }
}

size_t TileOrder::operator()(uint64_t g) {
  const uint64_t epoch = g / n_;
  if (epoch != epoch_) {
    order_.resize(n_);
    std::iota(order_.begin(), order_.end(), 0);
    std::mt19937_64 rng(seed_ * 7919 + epoch);
    std::shuffle(order_.begin(), order_.end(), rng);
    epoch_ = epoch;
  }
  return order_[g % n_];
}

void seed_step(uint64_t seed, long step, size_t world, int rank) {
  torch::manual_seed(seed * 1000033ull + static_cast<uint64_t>(step) * world + static_cast<uint64_t>(rank));
}

double warmup_decay(long step, long warmup, long total) {
  if (step < warmup) return static_cast<double>(step) / static_cast<double>(warmup);
  return std::max(0.0, static_cast<double>(total - step) / static_cast<double>(std::max(1L, total - warmup)));
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
    if (it->second.sizes() != prm.value().sizes())
      throw Error(w.path + ": \"" + prm.key() + "\" has another shape than this model's (--config)");
    prm.value().copy_(it->second);
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

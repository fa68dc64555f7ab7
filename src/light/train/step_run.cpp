#include "light/train/step_run.h"

#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <filesystem>

#include "light/error.h"
#include "light/image/run_curves.h"
#include "light/model/checkpoint.h"
#include "light/model/device.h"
#include "light/train/run_folder.h"
#include "light/train/schedule.h"
#include "light/util/progress.h"
#include "light/util/fs.h"
#include "light/util/json.h"

namespace light::train {

namespace fs = std::filesystem;

namespace {
c10::Device checked_start(const StepRunOptions& o, const std::string& command) {
  model::set_threads(o.threads);
  torch::manual_seed(o.seed);
  const c10::Device device = model::pick_device(o.device);
  if (o.max_steps <= 0 || o.batch_size <= 0 || o.log_every <= 0 || o.checkpoint_every <= 0)
    throw Error(command + ": --max-steps, --batch-size, --log-every and --checkpoint-every must be positive");
  check_optimiser(o.lr, o.weight_decay, o.warmup_ratio);
  return device;
}
}  // namespace

StepRunStart::StepRunStart(const StepRunOptions& o, const std::string& command)
    : device(checked_start(o, command)),
      run(o.out_dir, o.resume, o.overwrite, o.distributed.rank == 0),
      dp(o.distributed),
      root(dp.root()) {
  dp.barrier();
}

StepLog::StepLog(std::vector<std::string> names, std::string parts_title, std::string out_dir, bool root, bool count_empty)
    : names_(std::move(names)),
      parts_title_(std::move(parts_title)),
      log_path_(out_dir + "/log.jsonl"),
      curves_path_(out_dir + "/curves.png"),
      root_(root),
      count_empty_(count_empty),
      sums_(names_.size(), 0.0),
      first_loss_(NAN) {}

void StepLog::add(const std::vector<double>& losses) {
  for (size_t k = 0; k < sums_.size(); ++k) sums_[k] += losses[k];
  ++in_sums_;
}

void StepLog::after_step(long step, long every, long last, double lr, double seconds) {
  if (!(step % every == 0 || step == last) || in_sums_ == 0) return;
  nlohmann::ordered_json line = {{"step", step}};
  for (size_t k = 0; k < names_.size(); ++k) line[names_[k]] = sums_[k] / static_cast<double>(in_sums_);
  line["lr"] = lr;
  if (count_empty_) line["empty_batches"] = empty_batches_;
  line["seconds"] = seconds;
  if (std::isnan(first_loss_)) first_loss_ = line[names_[0]].get<double>();
  last_loss_ = line[names_[0]];
  log_text_ += line.dump() + "\n";
  ++log_lines_;
  if (root_) {
    write_file_atomic(log_path_, log_text_);
    image::draw_step_curves(log_text_, names_, parts_title_, curves_path_);
  }
  std::fill(sums_.begin(), sums_.end(), 0.0);
  in_sums_ = empty_batches_ = 0;
}

nlohmann::ordered_json StepLog::state(long step) const {
  nlohmann::ordered_json j = {{"step", step}, {"log_lines", log_lines_}, {"first_loss", first_loss_}, {"sums", sums_}, {"in_sums", in_sums_}};
  if (count_empty_) j["empty_batches"] = empty_batches_;
  return j;
}

long StepLog::restore(const nlohmann::json& j, const std::string& path) {
  long step = 0;
  try {
    step = j.at("step"), log_lines_ = j.at("log_lines");
    first_loss_ = j.at("first_loss").is_number() ? j.at("first_loss").get<double>() : NAN;
    sums_ = j.at("sums").get<std::vector<double>>(), in_sums_ = j.at("in_sums");
    if (count_empty_) empty_batches_ = j.at("empty_batches");
  } catch (const nlohmann::json::exception& e) {
    throw Error(path + ": " + e.what());
  }
  if (step < 0 || log_lines_ < 0 || in_sums_ < 0 || empty_batches_ < 0 || sums_.size() != names_.size())
    throw Error(path + ": not a state this run can have written (step " + std::to_string(step) + "); it was edited or damaged");
  log_text_ = first_lines(fs::exists(log_path_) ? read_file(log_path_) : "", log_lines_);
  return step;
}

long run_steps(const StepRunOptions& o, StepRunStart& start, StepLog& log, long step, const std::string& name,
               const ModelFolder& folder, torch::optim::Optimizer& optimizer, const std::function<void(long)>& one_step) {
  const size_t W = static_cast<size_t>(start.dp.world_size());
  const long warmup = std::lround(o.warmup_ratio * static_cast<double>(o.max_steps));
  const auto t0 = std::chrono::steady_clock::now();
  start.run.keep();  // from here on the folder holds a resumable run
  Progress bar(name, static_cast<size_t>(o.max_steps - step), "steps");
  long this_call = 0;
  while (step < o.max_steps) {
    // The step's samples and dropout are fixed by the seed, the step and the rank alone, so that a
    // resumed run repeats exactly what an uninterrupted one does.
    seed_step(o.seed, step, W, start.dp.rank());
    const double lr = o.lr * warmup_decay(step, warmup, o.max_steps);
    for (auto& g : optimizer.param_groups()) static_cast<torch::optim::AdamWOptions&>(g.options()).lr(lr);
    one_step(step);
    ++step;
    if (o.progress && start.root) bar.add();
    if (o.on_step) o.on_step(++this_call);
    log.after_step(step, o.log_every, o.max_steps, lr, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if ((step % o.checkpoint_every == 0 || step == o.max_steps) && start.root)
      write_last(o.out_dir, *folder.module, *folder.config, folder.tokenizer_dir, folder.extra_files, optimizer, log.state(step));
  }
  if (o.progress && start.root) bar.finish();
  if (start.root) write_final(o.out_dir, *folder.module, *folder.config, folder.tokenizer_dir, folder.extra_files);
  start.dp.barrier();
  return step;
}

void write_last(const std::string& out_dir, torch::nn::Module& module, const model::ModelConfig& config,
                const std::string& tokenizer_dir, const std::vector<std::pair<std::string, std::string>>& extra_files,
                torch::optim::Optimizer& optimizer, const nlohmann::ordered_json& state) {
  const std::string tmp = out_dir + "/last.tmp";
  remove_tree(tmp);
  model::write_model_folder(module, config, tmp, tokenizer_dir, extra_files);
  torch::save(optimizer, tmp + "/optimizer.pt");
  write_file_atomic(tmp + "/state.json", state.dump(1));
  swap_in(tmp, out_dir + "/last");
}

void write_final(const std::string& out_dir, torch::nn::Module& module, const model::ModelConfig& config,
                 const std::string& tokenizer_dir, const std::vector<std::pair<std::string, std::string>>& extra_files) {
  const std::string tmp = out_dir + "/final.tmp";
  remove_tree(tmp);
  model::write_model_folder(module, config, tmp, tokenizer_dir, extra_files);
  swap_in(tmp, out_dir + "/final");
}

nlohmann::json read_last(const std::string& out_dir, torch::nn::Module& module, torch::optim::Optimizer& optimizer,
                         std::string* state_path) {
  const std::string last = completed_folder(out_dir + "/last", "state.json");
  if (last.empty()) throw Error(out_dir + ": nothing to resume (no last/state.json)");
  model::load_state_dict(module, model::read_state_dict(last + "/model.safetensors"), last + "/model.safetensors");
  torch::load(optimizer, last + "/optimizer.pt");
  *state_path = last + "/state.json";
  return parse_json(read_file(*state_path), *state_path);
}

}  // namespace light::train

// What the two step-based loops (`light pretrain-poly`, `light pretrain`) share besides their model:
// the options every such run has, the running means of the losses between log lines (RUN/log.jsonl,
// RUN/curves.png), and RUN/last, the checkpoint with the counters that let a resumed run log exactly
// what an uninterrupted one would.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include <c10/core/Device.h>

#include "light/train/distributed.h"
#include "light/train/run_folder.h"
#include "light/train/run_options.h"

namespace torch {
namespace optim {
class Optimizer;
}
}  // namespace torch

namespace light::model {
struct ModelConfig;
}

namespace light::train {

// The start of a step-based run: LibTorch's threads and seed, the device, the options every such run
// checks (errors name `command`), and the run folder, which every rank checks before the ranks meet
// (so that none has written into it yet).
struct StepRunStart {
  StepRunStart(const StepRunOptions& options, const std::string& command);
  c10::Device device;
  RunFolder run;
  DataParallel dp;
  bool root;
};

// The options of a step-based run that both pretraining commands have, in their order.
template <class Options>
std::vector<RunOption<Options>> step_run_options() {
  using O = RunOption<Options>;
  return {O("--max-steps", "max_steps", &Options::max_steps, "Optimizer steps"),
          O("--lr", "lr", &Options::lr, "Peak AdamW learning rate (linear warm-up, then linear decay to 0)"),
          O("--warmup-ratio", "warmup_ratio", &Options::warmup_ratio, "Share of the steps spent warming up"),
          O("--weight-decay", "weight_decay", &Options::weight_decay, "AdamW weight decay"),
          O("--log-every", "log_every", &Options::log_every, "Steps per log.jsonl line"),
          O("--checkpoint-every", "checkpoint_every", &Options::checkpoint_every, "Steps between checkpoints (last/)"),
          O("--seed", "seed", &Options::seed, "Random seed"),
          O("--polygon-points", "polygon_points", &Options::polygon_points,
            "Word polygons of other than 16 points: resample (16 points along the outline) | keep (the reference's first 16)")
              .one_of({"resample", "keep"})
              .before("\"keep\""),
          O("--threads", nullptr, &Options::threads, "LibTorch threads (0 = all cores)").local(),
          O("--device", nullptr, &Options::device, "cpu | cuda").local()};
}

// `options` followed by step_run_options().
template <class Options>
std::vector<RunOption<Options>> with_step_run_options(std::vector<RunOption<Options>> options) {
  for (auto& o : step_run_options<Options>()) options.push_back(std::move(o));
  return options;
}

// The mean of each loss over the steps since the last log line. `names`: the log's loss keys, the
// total first; with `count_empty`, steps with nothing to learn from are counted and logged
// ("empty_batches").
class StepLog {
 public:
  StepLog(std::vector<std::string> names, std::string parts_title, std::string out_dir, bool root, bool count_empty);

  void add(const std::vector<double>& losses);  // one step's, in `names` order
  void add_empty() { ++empty_batches_; }
  // After `step` (counted from 1): a log line when one is due (every `every` steps, and at `last`) and
  // the run has a step to report; RUN/log.jsonl and RUN/curves.png rewritten by the root rank.
  void after_step(long step, long every, long last, double lr, double seconds);

  // The counters RUN/last keeps, and their return on --resume (the log cut to the lines they cover).
  nlohmann::ordered_json state(long step) const;
  // Returns the step the state was written at; light::Error naming `path` for a damaged state.
  long restore(const nlohmann::json& state, const std::string& path);

  double first_loss() const { return first_loss_; }
  double last_loss() const { return last_loss_; }

 private:
  std::vector<std::string> names_;
  std::string parts_title_, log_path_, curves_path_;
  bool root_, count_empty_;
  std::vector<double> sums_;
  long in_sums_ = 0, empty_batches_ = 0, log_lines_ = 0;
  double first_loss_, last_loss_ = 0;
  std::string log_text_;
};

// What RUN/last and RUN/final hold besides the optimizer: write_model_folder's arguments.
struct ModelFolder {
  torch::nn::Module* module = nullptr;
  const model::ModelConfig* config = nullptr;
  std::string tokenizer_dir;
  std::vector<std::pair<std::string, std::string>> extra_files;
};

// The loop of a step-based run, from `step` (0, or where a resumed run left off) to max_steps. Each
// step: its seeds (seed_step), its learning rate (a linear warm-up over warmup_ratio of the steps,
// then a linear decay to 0) set on `optimizer`, then `one_step(step)` (samples, losses, backward,
// optimizer step, log.add); then the progress line, the log line and RUN/last when due (root rank).
// RUN/final at the end. `name` labels the progress line. Returns the steps done in all.
long run_steps(const StepRunOptions& options, StepRunStart& start, StepLog& log, long step, const std::string& name,
               const ModelFolder& folder, torch::optim::Optimizer& optimizer, const std::function<void(long step)>& one_step);

// RUN/last: a model folder (write_model_folder's arguments), the optimizer and `state`, written to
// last.tmp and swapped in whole.
void write_last(const std::string& out_dir, torch::nn::Module& module, const model::ModelConfig& config,
                const std::string& tokenizer_dir, const std::vector<std::pair<std::string, std::string>>& extra_files,
                torch::optim::Optimizer& optimizer, const nlohmann::ordered_json& state);
// RUN/final: the model folder alone.
void write_final(const std::string& out_dir, torch::nn::Module& module, const model::ModelConfig& config,
                 const std::string& tokenizer_dir, const std::vector<std::pair<std::string, std::string>>& extra_files);
// --resume: the weights and optimizer of RUN/last loaded; returns its state.json and names its path.
nlohmann::json read_last(const std::string& out_dir, torch::nn::Module& module, torch::optim::Optimizer& optimizer,
                         std::string* state_path);

}  // namespace light::train

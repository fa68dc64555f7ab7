// `light curves`: several runs' logs (RUN/log.jsonl of `light train`, `light pretrain-poly` or `light
// pretrain`) read, summarised and drawn on shared axes, to compare runs (random weights against a
// pretrained start, two learning rates, two seeds) at a glance.
#pragma once
#include <string>
#include <vector>

namespace light::image {

struct RunLog {
  std::string name;   // the legend's label
  std::string path;   // the log file read
  bool epochs = false;  // fine-tuning (one line an epoch) or pretraining (one line every few steps)
  std::vector<double> x;           // epoch or step
  std::vector<double> loss;        // train_loss (fine-tuning) or loss (pretraining)
  std::vector<double> val_loss;    // fine-tuning only; NaN where missing
  std::vector<double> val_fscore;  // fine-tuning only (edges_fscore); NaN where missing
};

// Reads RUN/log.jsonl (or a log file itself). Throws light::Error naming the file, and the line and
// field when one is broken or missing.
RunLog read_run_log(const std::string& run, const std::string& name);

// One line a run: for fine-tuning the epochs, the best validation edges F (and its epoch), the last
// and the first epoch's; for pretraining the steps and the first and last total loss.
std::string summarise_runs(const std::vector<RunLog>& runs);

// A PNG at `path` (written atomically): validation edges F and validation loss against the epoch for
// fine-tuning runs, the total loss against the step (log scale) for pretraining runs. All runs must be
// of one kind.
void draw_runs(const std::vector<RunLog>& runs, const std::string& path);

// RUN/curves.png of a step-based run from its log lines: the total ("loss", first of `names`) in one
// panel, the other losses in a second titled `parts_title`; log scale.
void draw_step_curves(const std::string& log_text, const std::vector<std::string>& names, const std::string& parts_title,
                      const std::string& path);

// RUN/curves.png of a fine-tuning run from its log lines: the losses (log scale) and the validation
// link scores against the epoch, the best epoch dashed.
void draw_epoch_curves(const std::string& log_text, int best_epoch, const std::string& path);

}  // namespace light::image

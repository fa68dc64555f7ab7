// `light pretrain-poly`: pretraining the polygon encoder on word polygons alone (reference-notes §3.1):
// coordinate reconstruction, the four geometric regressions, the closest polygon and the contrastive
// term; AdamW with a linear warm-up/decay schedule over --max-steps. Writes RUN/options.json,
// RUN/log.jsonl (every --log-every steps: the mean losses, lr, tiles/s), RUN/curves.png,
// RUN/last/ (every --checkpoint-every steps: weights, optimizer, random state; `--resume` continues
// from it with nothing lost) and RUN/final/ (weights + config.json), which `light train --init RUN/`
// takes for LIGHT's polygon encoder.
#pragma once
#include <cstdint>
#include <string>

#include "light/train/distributed_options.h"
#include "light/train/run_options.h"

namespace light::train {

struct PolyPretrainOptions {
  std::string data, images, out_dir;
  std::string config = "small";  // small | base | tiny | a config.json (its poly_encoder section)
  std::string init = "none";     // none | a polygon-pretraining checkpoint or run | a LIGHT model (its polygon encoder)
  std::string loss_weights;      // "name=value,...": reconstruct angle center_x center_y distance closest contrastive
  long max_steps = 10000;
  int batch_size = 4, threads = 0, log_every = 50, checkpoint_every = 500, max_polygons = 100;
  double lr = 1e-4, weight_decay = 0.01, warmup_ratio = 0.1;
  uint64_t seed = 4321;
  std::string device = "cpu";
  bool progress = false, resume = false;
  bool overwrite = false;  // --overwrite: replace what a non-empty out_dir holds (a new run only)
  DistributedOptions distributed;
  long interrupt_after_steps = -1;  // tests only: throw after this many steps of this call
};

// Every option of `light pretrain-poly`: flag, options.json key, help, and what --resume does with it.
const std::vector<RunOption<PolyPretrainOptions>>& poly_pretrain_run_options();
std::string poly_pretrain_options_to_json(const PolyPretrainOptions& options);
// Fills `options` from RUN/options.json (threads, device, progress and distributed are kept).
void read_poly_pretrain_options(const std::string& run_dir, PolyPretrainOptions& options);

struct PolyPretrainSummary {
  long steps = 0;
  double first_loss = 0, last_loss = 0;  // the first and last logged mean losses
  size_t tiles = 0, skipped_polygons = 0;
};

PolyPretrainSummary poly_pretrain(const PolyPretrainOptions& options);

}  // namespace light::train

// `light pretrain-poly`: pretraining the polygon encoder on word polygons alone (docs/reference-notes.md §3.1):
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

struct PolyPretrainOptions : StepRunOptions {
  PolyPretrainOptions() { batch_size = 4, lr = 1e-4, warmup_ratio = 0.1; }
  // config: its poly_encoder section; init: none | a polygon-pretraining checkpoint or run | a LIGHT
  // model (its polygon encoder)
  std::string loss_weights;  // "name=value,...": reconstruct angle center_x center_y distance closest contrastive
  int max_polygons = 100;
};

// Every option of `light pretrain-poly`: flag, options.json key, help, and what --resume does with it.
const std::vector<RunOption<PolyPretrainOptions>>& poly_pretrain_run_options();
// Fills `options` from RUN/options.json (threads, device, progress and distributed are kept).
void read_poly_pretrain_options(const std::string& run_dir, PolyPretrainOptions& options);

struct PolyPretrainSummary : StepRunSummary {
  size_t skipped_polygons = 0;
};

PolyPretrainSummary poly_pretrain(const PolyPretrainOptions& options);

}  // namespace light::train

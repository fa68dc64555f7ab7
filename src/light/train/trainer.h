// `light train`: fine-tuning LIGHT on MapText-annotated maps (docs/reference-notes.md §4): AdamW, the paper's
// losses summed over a batch, ReduceLROnPlateau on the validation loss (factor 0.1, patience 5),
// early stopping after 9 epochs without improvement, fixed seeds. Writes RUN/best (a model folder
// `light link --model` loads), RUN/last, RUN/log.jsonl. (LibTorch stays inside trainer.cpp.)
#pragma once
#include <cstdint>
#include <functional>
#include <set>
#include <string>

#include "light/train/distributed_options.h"
#include "light/train/run_options.h"

namespace light::train {

struct TrainOptions {
  std::string train_json, train_images, val_json, val_images, out_dir, tokenizer_dir;
  std::string init = "none";      // none | a Hugging Face LayoutLMv3 folder | a LIGHT model folder or weights file
  std::string config = "small";   // small | base | tiny | a config.json
  std::string modalities = "LIG"; // G | L | LI | LIG
  bool bidirection = true, focal = true;
  bool focal_self_target = false;  // a phrase-final word's focal row has "no successor" as its positive
  // The losses' rows weighed by where each successor lies (data/link_weights.h), as
  // "spread=2,next_line_unaligned=3"; "" weighs every row 1 (the paper's).
  std::string link_weights;
  int max_epochs = 100, batch_size = 2, threads = 0, max_length = 1000;
  int lr_patience = 5, stop_patience = 9;
  // Linear learning-rate warm-up over this many optimizer steps (0: none, as the reference's
  // fine-tuning; training from scratch at a higher rate wants one).
  int warmup_steps = 0;
  // The relative-position bias tables: "frozen" (the reference), "train", or "auto" (trained when
  // the transformer starts from random weights: --init none or a polygon-pretraining checkpoint;
  // frozen when --init brings a transformer).
  std::string relative_bias = "auto";
  // The 2-D layout tables' start: "auto" (sinusoids when the transformer starts from random
  // weights, as relative_bias), "sinusoid" or "random" (N(0, 0.02), the reference's).
  std::string layout_init = "auto";
  double lr = 5e-5, weight_decay = 0.0, min_lr = 1e-6;
  // Beyond the paper (model/config.h): the successor head (bilinear | pairwise), and scale windows:
  // the median word height as a fraction of a window's side (0: whole tiles, the paper's), with each
  // training window's side scaled by exp(u), u uniform in [-scale_jitter, scale_jitter]. A LIGHT
  // model folder given to --init brings its own head and windows.
  std::string head = "bilinear";
  // The pairwise head's hidden width (0: the config's, or --init's). Wider than --init's widens the
  // head: the new units start with no say in the score (model::PairScore's out weights zero).
  int head_hidden = 0;
  // How word polygons reach the model (data/model_polygons.h): "resample" (16 points along the
  // outline, for any other vertex count) or "keep" (the reference's first 16 points). Recorded in the
  // model's config.json, so that linking feeds it the same way.
  std::string polygon_points = "resample";
  // The learning rate's course after the warm-up: "plateau" (ReduceLROnPlateau, the reference's) or
  // "cosine" (half a cosine from lr to min_lr over max_epochs; a run resumed with more epochs stretches it).
  std::string lr_decay = "plateau";
  double window_word_height = 0.0, scale_jitter = 0.35;
  // Spotter-like noise on the training words' polygons (data/polygon_noise.h; 0: exact polygons):
  // each word's height times exp(N(0, s)), its length and place moved in proportion.
  double polygon_noise = 0.0;
  // Hand-box noise on the training words' polygons (data/polygon_noise.h; 0: exact polygons): each
  // word turned, sized and moved as a box drawn by hand sits on its lettering; 1 the spread measured.
  double hand_noise = 0.0;
  uint64_t seed = 1234;
  std::string device = "cpu";
  bool progress = false;
  // This call stops after this epoch (0: runs to max_epochs); the run stays resumable and the
  // schedule still spans max_epochs (a run stopped early, as the bundled model's first stage was).
  int stop_after_epoch = 0;
  // Data-parallel ranks: each takes batch_size tiles a step (a step covers batch_size x world_size
  // tiles); every rank validates (identical weights give identical decisions); rank 0 writes.
  DistributedOptions distributed;
  // Continue the run in out_dir from its last completed epoch (model, optimizer, counters, random
  // state): the result equals an uninterrupted run's.
  bool resume = false;
  bool overwrite = false;  // --overwrite: replace what a non-empty out_dir holds (a new run only)
  // The options the command line gave (--head, --config, ...), to name those an --init model overrides.
  std::set<std::string> given;
  // Called at each optimizer step of this call (counted from 1) with its loss, before the loss is
  // checked and the step taken: a test makes the loss NaN, or throws as if the run were killed there.
  std::function<void(long step, double& loss)> on_step;
};

// Every option of `light train`: flag, options.json key, help, and what --resume does with it.
const std::vector<RunOption<TrainOptions>>& train_run_options();
// RUN/options.json: what a run was started with, so that `--resume RUN/` needs nothing else.
std::string options_to_json(const TrainOptions& options);
// Fills `options` from RUN/options.json; machine-local settings (threads, device, progress, distributed) are
// kept from `options`, and max_epochs when it is positive.
void read_options(const std::string& run_dir, TrainOptions& options);

struct TrainSummary {
  int epochs = 0, best_epoch = 0;
  double best_val_loss = 0, best_edges_fscore = 0, first_train_loss = 0, last_train_loss = 0;
};

TrainSummary train(const TrainOptions& options);

}  // namespace light::train

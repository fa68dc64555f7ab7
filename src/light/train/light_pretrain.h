// `light pretrain`: pretraining LIGHT on unlabelled tiles (docs/reference-notes.md §3.2) with masked language
// modelling, masked image modelling and word-patch alignment; AdamW with a linear warm-up/decay
// schedule over --max-steps. The image tokenizer for MIM is a built-in k-means patch codebook that the
// run trains on its own tiles first (or one given with --image-tokenizer). Writes RUN/options.json,
// RUN/image_tokenizer.safetensors, RUN/log.jsonl, RUN/curves.png, RUN/last/ (resumable) and
// RUN/final/ (weights, config.json, tokenizer), which `light train --init RUN/` takes. Data-parallel
// across processes with --world-size/--rank/--store (train/distributed.h).
#pragma once
#include <cstdint>
#include <string>

#include "light/train/distributed_options.h"
#include "light/train/run_options.h"

namespace light::train {

struct LightPretrainOptions : StepRunOptions {
  // init: none | a Hugging Face layoutlmv3 folder | a LIGHT model / pretrain run
  std::string tokenizer = "bytes";  // a tokenizer folder, or "bytes"
  std::string init_poly = "none";   // none | a pretrain-poly run or checkpoint (the polygon encoder)
  std::string image_tokenizer;      // a codebook .safetensors; empty: train one (RUN/image_tokenizer.safetensors)
  std::string layout_init = "auto"; // auto | sinusoid | random: the 2-D layout tables' start (as `light train`)
  int max_length = 512;
  int codebook_size = 512, codebook_tiles = 100, codebook_iterations = 10;
};

// Every option of `light pretrain`: flag, options.json key, help, and what --resume does with it.
const std::vector<RunOption<LightPretrainOptions>>& light_pretrain_run_options();
// Fills `options` from RUN/options.json (threads, device, progress and distributed are kept).
void read_light_pretrain_options(const std::string& run_dir, LightPretrainOptions& options);

struct LightPretrainSummary : StepRunSummary {
  size_t left_out_words = 0;
};

LightPretrainSummary light_pretrain(const LightPretrainOptions& options);

}  // namespace light::train

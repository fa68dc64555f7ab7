// The LIGHT pretraining model (docs/reference-notes.md §3.2, the authors' `LightPretrain`): LIGHT's trunk
// (`light.*`, the same module and names as the fine-tuning model's, so its weights carry over one to
// one) with three heads: token_mlp H -> H -> vocab (masked language modelling), visual_mlp H -> H ->
// codes (masked image modelling against an image tokenizer's codes) and wpa_mlp 2H -> H -> H -> 1
// (word-patch alignment). Patch p is visual token p + 1, after the visual CLS: the reference slices
// one token early (its MIM predictions and WPA lookups are shifted by one patch); light does not.
//
// Losses are kept as sums and counts so that data-parallel ranks add up exactly to one process with
// the whole batch: mlm = CE summed over masked tokens / their count; mim = CE over masked patches /
// their count; wpa = per sample the mean BCE over its eligible tokens, summed / samples.
#pragma once
#include <torch/torch.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "light/data/light_pretrain.h"
#include "light/model/config.h"
#include "light/model/light.h"

namespace light::model {

struct PretrainBatch {
  Batch batch;  // input_ids (masked), bbox, attention_mask, polygons, pixel_values (masked patches zeroed)
  torch::Tensor mlm_labels, wpa_labels, token_patch;  // [B, T] (-100 / -100 / -1 where none)
  torch::Tensor patch_masked, mim_labels;             // [B, grid²] bool, long (codes; may be undefined)
  std::array<double, 3> counts{};                     // masked tokens, masked patches with codes, samples
};

// Stacks samples into a batch (text padded to the longest sample) on `device`.
PretrainBatch make_pretrain_batch(const std::vector<const data::LightPretrainSample*>& samples, const data::SpecialIds& special,
                                  torch::Device device);

struct PretrainLosses {
  torch::Tensor total, mlm, mim, wpa;       // total = the sum of the three means (to back-propagate)
  std::array<torch::Tensor, 3> sums;        // the un-normalised sums (detached use: logs across ranks)
  std::vector<std::pair<std::string, double>> values() const;  // "loss", "mlm", "mim", "wpa"
};

struct LightPretrainImpl : torch::nn::Module {
  // `codes`: the image tokenizer's vocabulary (8192 for BEiT; the built-in codebook's size).
  LightPretrainImpl(const ModelConfig& c, int codes);
  // The losses of a batch; `counts` are the normalisers (the whole batch's across data-parallel ranks;
  // the batch's own by default).
  PretrainLosses losses(const PretrainBatch& b, const std::array<double, 3>* counts = nullptr);

  LightModel light{nullptr};
  MLP token_mlp{nullptr}, visual_mlp{nullptr}, wpa_mlp{nullptr};
  ModelConfig config;
};
TORCH_MODULE(LightPretrain);

}  // namespace light::model

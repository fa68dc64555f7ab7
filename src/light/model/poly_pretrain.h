// The polygon-encoder pretraining model (docs/reference-notes.md §3.1, the authors' `PolyPretrain`): the
// polygon encoder's trunk (cls_token, coord_embedding, position_embedding, encoder.*; no final norm)
// with the reference's heads (reconstruct_mlp, center_x_mlp, center_y_mlp, height_mlp, angle_mlp:
// H -> H/2 -> 1; dist_mlp: H -> H -> H), and its seven losses. Parameter names are the reference
// checkpoint's (without its "module." prefix), so trunk weights map one to one onto
// light.poly_encoder.* when fine-tuning starts from them.
//
// Masking convention: here only the -100 padding is masked; the mask value -1 and genuinely negative
// coordinates are attended, exactly as the reference pretrains. LIGHT itself masks every value < 0
// (the released models' convention, kept for parity). The two agree on every polygon inside its tile
// (values >= 0); they differ only for vertices left of or above the tile, which LIGHT ignores.
#pragma once
#include <torch/torch.h>

#include <array>
#include <map>
#include <string>
#include <vector>

#include "light/data/poly_pretrain.h"
#include "light/model/config.h"
#include "light/model/light.h"
#include "light/model/poly_encoder.h"

namespace light::model {

// Loss weights (the reference's code: all 1; the paper calls the geometric terms auxiliary at 0.1).
struct PolyLossWeights {
  double reconstruct = 1, angle = 1, center_x = 1, center_y = 1, distance = 1, closest = 1, contrastive = 1;
};
// "reconstruct=1,angle=0.1,..." -> weights (unnamed keep their value); throws light::Error naming the key.
PolyLossWeights parse_poly_loss_weights(const std::string& text);

struct PolyLosses {
  torch::Tensor total, reconstruct, angle, center_x, center_y, distance, closest, contrastive;
  std::array<torch::Tensor, 7> sums;  // the seven terms before their means (data-parallel logs)
  std::vector<std::pair<std::string, double>> values() const;  // name -> value, for logs
};

struct PolyPretrainImpl : torch::nn::Module {
  explicit PolyPretrainImpl(const PolyEncoderConfig& c);
  // values [P, 32] -> token states [P, 33, H] (the CLS first).
  torch::Tensor encode(const torch::Tensor& values);
  // The losses of a batch of tile samples (tiles without polygons are skipped); the contrastive
  // negatives are drawn from each sample's seed. Each term is a mean over the batch (as the
  // reference's); `counts` are its normalisers (poly_loss_counts of the whole batch across
  // data-parallel ranks; this batch's by default).
  PolyLosses losses(const std::vector<const data::PolySample*>& tiles, const PolyLossWeights& w, torch::Device device,
                    const std::array<double, 4>* counts = nullptr);

  torch::Tensor cls_token;
  torch::nn::Linear coord_embedding{nullptr};
  torch::nn::Embedding position_embedding{nullptr};
  BertModel encoder{nullptr};
  MLP reconstruct_mlp{nullptr}, center_x_mlp{nullptr}, center_y_mlp{nullptr}, height_mlp{nullptr}, angle_mlp{nullptr},
      dist_mlp{nullptr};
  PolyEncoderConfig config;
};
TORCH_MODULE(PolyPretrain);

// The normalisers of a batch's loss means: masked coordinates, polygons, tiles with two or more
// polygons (closest), tiles with polygons (contrastive).
std::array<double, 4> poly_loss_counts(const std::vector<const data::PolySample*>& tiles);

// Hugging Face's BERT initialisation over the trunk (N(0, 0.02) weights, zero biases, LayerNorm 1/0);
// the heads keep PyTorch's defaults, as the reference's plain modules.
void init_poly_pretrain(PolyPretrainImpl& m);

// Whether a state dict is a polygon-pretraining one (it has reconstruct_mlp.* keys), and its trunk
// renamed for LIGHT (cls_token -> light.poly_encoder.cls_token, ...); heads dropped.
bool is_poly_pretrain_state(const std::map<std::string, torch::Tensor>& state);
std::map<std::string, torch::Tensor> poly_trunk_for_light(const std::map<std::string, torch::Tensor>& state);

}  // namespace light::model

#include "light/model/poly_pretrain.h"

#include <cmath>
#include <sstream>

#include "light/data/inputs.h"
#include "light/model/checkpoint.h"
#include "light/error.h"

namespace light::model {

PolyLossWeights parse_poly_loss_weights(const std::string& text) {
  PolyLossWeights w;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw Error("--loss-weights: \"" + item + "\": expected name=value");
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    double v;
    try {
      size_t used = 0;
      v = std::stod(value, &used);
      if (used != value.size() || !(v >= 0) || !std::isfinite(v)) throw std::invalid_argument(value);
    } catch (const std::exception&) {
      throw Error("--loss-weights: \"" + name + "\": expected a finite number >= 0, got \"" + value + "\"");
    }
    if (name == "reconstruct") w.reconstruct = v;
    else if (name == "angle") w.angle = v;
    else if (name == "center_x") w.center_x = v;
    else if (name == "center_y") w.center_y = v;
    else if (name == "distance") w.distance = v;
    else if (name == "closest") w.closest = v;
    else if (name == "contrastive") w.contrastive = v;
    else throw Error("--loss-weights: unknown loss \"" + name + "\" (reconstruct, angle, center_x, center_y, distance, closest, contrastive)");
  }
  return w;
}

std::vector<std::pair<std::string, double>> PolyLosses::values() const {
  std::vector<std::pair<std::string, double>> v;
  for (const auto& [name, t] : std::initializer_list<std::pair<const char*, const torch::Tensor*>>{
           {"loss", &total}, {"reconstruct", &reconstruct}, {"angle", &angle}, {"center_x", &center_x},
           {"center_y", &center_y}, {"distance", &distance}, {"closest", &closest}, {"contrastive", &contrastive}})
    v.emplace_back(name, t->defined() ? t->item<double>() : 0.0);
  return v;
}

PolyPretrainImpl::PolyPretrainImpl(const PolyEncoderConfig& c) : config(c) {
  const int H = c.emb_dim;
  cls_token = register_parameter("cls_token", torch::zeros({1, 1, H}));
  coord_embedding = register_module("coord_embedding", torch::nn::Linear(torch::nn::LinearOptions(1, H).bias(false)));
  position_embedding = register_module("position_embedding", torch::nn::Embedding(c.num_coords + 1, H));
  encoder = register_module("encoder", BertModel(c));
  reconstruct_mlp = register_module("reconstruct_mlp", MLP(std::vector<int>{H, H / 2, 1}));
  center_x_mlp = register_module("center_x_mlp", MLP(std::vector<int>{H, H / 2, 1}));
  center_y_mlp = register_module("center_y_mlp", MLP(std::vector<int>{H, H / 2, 1}));
  height_mlp = register_module("height_mlp", MLP(std::vector<int>{H, H / 2, 1}));
  angle_mlp = register_module("angle_mlp", MLP(std::vector<int>{H, H / 2, 1}));
  dist_mlp = register_module("dist_mlp", MLP(std::vector<int>{H, H, H}));
}

torch::Tensor PolyPretrainImpl::encode(const torch::Tensor& values) {
  return poly_token_states(cls_token, coord_embedding, position_embedding, encoder, values, values.ne(data::kPolygonPad),
                           config.hidden_dropout, is_training());
}

std::array<double, 4> poly_loss_counts(const std::vector<const data::PolySample*>& tiles) {
  std::array<double, 4> c{};
  for (const auto* t : tiles) {
    if (t->count == 0) continue;
    for (uint8_t m : t->masked) c[0] += m != 0;
    c[1] += static_cast<double>(t->count);
    c[2] += t->count >= 2;
    c[3] += 1;
  }
  return c;
}

PolyLosses PolyPretrainImpl::losses(const std::vector<const data::PolySample*>& tiles, const PolyLossWeights& w, torch::Device dev,
                                    const std::array<double, 4>* counts_in) {
  const std::array<double, 4> counts = counts_in ? *counts_in : poly_loss_counts(tiles);
  constexpr int64_t C = data::kPolygonValues;
  std::vector<float> values, original, angle, cx, cy, dist;
  std::vector<uint8_t> masked;
  std::vector<std::pair<int64_t, int64_t>> spans;  // per tile with polygons: [begin, end) rows
  std::vector<const data::PolySample*> used;
  for (const auto* t : tiles) {
    if (t->count == 0) continue;
    const auto begin = static_cast<int64_t>(angle.size());
    values.insert(values.end(), t->values.begin(), t->values.end());
    original.insert(original.end(), t->original.begin(), t->original.end());
    masked.insert(masked.end(), t->masked.begin(), t->masked.end());
    angle.insert(angle.end(), t->angle.begin(), t->angle.end());
    cx.insert(cx.end(), t->center_x.begin(), t->center_x.end());
    cy.insert(cy.end(), t->center_y.begin(), t->center_y.end());
    dist.insert(dist.end(), t->distance.begin(), t->distance.end());
    spans.emplace_back(begin, static_cast<int64_t>(angle.size()));
    used.push_back(t);
  }
  if (used.empty()) throw Error("polygon pretraining: a batch without any polygon");
  const int64_t P = static_cast<int64_t>(angle.size());
  const auto f32 = [&](std::vector<float>& v, std::vector<int64_t> shape) {
    return torch::from_blob(v.data(), shape, torch::kFloat32).clone().to(dev);
  };
  const torch::Tensor x = f32(values, {P, C}), target = f32(original, {P, C});
  const torch::Tensor is_masked = torch::from_blob(masked.data(), {P, C}, torch::kUInt8).to(torch::kBool).clone().to(dev);

  PolyLosses L;
  const torch::Tensor tokens = encode(x);                 // [P, 33, H]
  const torch::Tensor cls = tokens.select(1, 0);          // [P, H]
  const torch::Tensor recon = reconstruct_mlp(tokens.slice(1, 1)).squeeze(-1);  // [P, 32]
  const auto sq = [](const torch::Tensor& a, const torch::Tensor& b) { return (a - b).pow(2).sum(); };
  L.sums[0] = sq(recon.masked_select(is_masked), target.masked_select(is_masked));
  L.sums[1] = sq(angle_mlp(cls).squeeze(-1), f32(angle, {P}));
  L.sums[2] = sq(center_x_mlp(cls).squeeze(-1), f32(cx, {P}));
  L.sums[3] = sq(center_y_mlp(cls).squeeze(-1), f32(cy, {P}));
  L.sums[4] = sq(height_mlp(cls).squeeze(-1), f32(dist, {P}));

  // Closest polygon: per tile, normalised dist_mlp(CLS) dot products / 0.1, the diagonal excluded,
  // cross-entropy against the closest polygon; averaged over the tiles with two or more polygons.
  const torch::Tensor z = torch::nn::functional::normalize(dist_mlp(cls), torch::nn::functional::NormalizeFuncOptions().dim(-1));
  // Contrastive: the masked polygon's CLS against the same polygon's unmasked CLS (re-encoded, with
  // gradient) and 10 random permutations of the tile's anchors; temperature 0.1.
  const torch::Tensor positive_cls = w.contrastive > 0 ? encode(target).select(1, 0) : torch::Tensor();
  std::vector<torch::Tensor> closest_terms, nce_terms;
  for (size_t k = 0; k < used.size(); ++k) {
    const auto [b, e] = spans[k];
    const int64_t n = e - b;
    if (n >= 2 && w.closest > 0) {
      const torch::Tensor zt = z.slice(0, b, e);
      torch::Tensor logits = torch::matmul(zt, zt.t()) / 0.1;
      logits = logits.masked_fill(torch::eye(n, logits.options().dtype(torch::kBool)), -std::numeric_limits<float>::infinity());
      const torch::Tensor labels = torch::tensor(used[k]->closest, torch::kInt64).to(dev);
      closest_terms.push_back(torch::cross_entropy_loss(logits, labels));  // the mean over the tile's polygons
    }
    if (w.contrastive > 0) {
      const auto norm = torch::nn::functional::NormalizeFuncOptions().dim(-1);
      const torch::Tensor a = torch::nn::functional::normalize(cls.slice(0, b, e), norm);
      const torch::Tensor p = torch::nn::functional::normalize(positive_cls.slice(0, b, e), norm);
      std::vector<torch::Tensor> cols{(a * p).sum(-1, true)};
      // The negatives come from the tile's own seed: the same wherever (on whichever rank) it is used.
      at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(used[k]->seed);
      for (int r = 0; r < 10; ++r)
        cols.push_back((a * a.index_select(0, torch::randperm(n, gen, torch::TensorOptions().dtype(torch::kInt64)).to(dev))).sum(-1, true));
      const torch::Tensor logits = torch::cat(cols, 1) / 0.1;
      nce_terms.push_back(torch::cross_entropy_loss(logits, torch::zeros({n}, torch::TensorOptions().dtype(torch::kInt64).device(dev))));
    }
  }
  const torch::Tensor zero = torch::zeros({}, x.options());
  L.sums[5] = closest_terms.empty() ? zero : torch::stack(closest_terms).sum();
  L.sums[6] = nce_terms.empty() ? zero : torch::stack(nce_terms).sum();
  // Means over the batch: masked coordinates, polygons (x4), tiles with two or more polygons, tiles.
  const int which[7] = {0, 1, 1, 1, 1, 2, 3};
  torch::Tensor* means[7] = {&L.reconstruct, &L.angle, &L.center_x, &L.center_y, &L.distance, &L.closest, &L.contrastive};
  for (int k = 0; k < 7; ++k) *means[k] = counts[static_cast<size_t>(which[k])] > 0 ? L.sums[static_cast<size_t>(k)] / counts[static_cast<size_t>(which[k])] : zero;
  L.total = w.reconstruct * L.reconstruct + w.angle * L.angle + w.center_x * L.center_x + w.center_y * L.center_y +
            w.distance * L.distance + w.closest * L.closest + w.contrastive * L.contrastive;
  return L;
}

void init_poly_pretrain(PolyPretrainImpl& m) {
  torch::NoGradGuard no_grad;
  m.cls_token.zero_();
  for (const auto& item : m.named_modules()) {
    const std::string& name = item.key();
    if (name.find("_mlp") == std::string::npos) init_module_like_hugging_face(*item.value());  // heads: PyTorch defaults
  }
}

bool is_poly_pretrain_state(const std::map<std::string, torch::Tensor>& state) {
  for (const auto& [k, v] : state)
    if (k.rfind("reconstruct_mlp.", 0) == 0) return true;
  return false;
}

std::map<std::string, torch::Tensor> poly_trunk_for_light(const std::map<std::string, torch::Tensor>& state) {
  std::map<std::string, torch::Tensor> out;
  for (const auto& [k, v] : state) {
    if (unused_checkpoint_key(k)) continue;  // BERT's word table and pooler, buffers
    if (k == "cls_token" || k.rfind("coord_embedding.", 0) == 0 || k.rfind("position_embedding.", 0) == 0 ||
        k.rfind("encoder.", 0) == 0)
      out["light.poly_encoder." + k] = v;
  }
  return out;
}

}  // namespace light::model

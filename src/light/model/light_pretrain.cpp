#include "light/model/light_pretrain.h"

#include "light/error.h"

namespace light::model {

LightPretrainImpl::LightPretrainImpl(const ModelConfig& c, int codes) : config(c) {
  const int H = c.layoutlmv3.hidden_size;
  light = register_module("light", LightModel(c));
  token_mlp = register_module("token_mlp", MLP(std::vector<int>{H, H, c.layoutlmv3.vocab_size}));
  visual_mlp = register_module("visual_mlp", MLP(std::vector<int>{H, H, codes}));
  wpa_mlp = register_module("wpa_mlp", MLP(std::vector<int>{2 * H, H, H, 1}));
  init_like_reference(*light, c.layoutlmv3.pad_token_id);
}

PretrainBatch make_pretrain_batch(const std::vector<const data::LightPretrainSample*>& samples, const data::SpecialIds& special,
                                  torch::Device dev) {
  if (samples.empty()) throw Error("make_pretrain_batch: no samples");
  const int64_t B = static_cast<int64_t>(samples.size());
  int64_t T = 1;
  for (const auto* s : samples) T = std::max<int64_t>(T, s->tokens);
  const int64_t P = static_cast<int64_t>(samples[0]->patch_masked.size());
  const int64_t px = static_cast<int64_t>(samples[0]->pixels.size());
  const int64_t S = static_cast<int64_t>(std::lround(std::sqrt(static_cast<double>(px / 3))));
  const bool codes = !samples[0]->mim_labels.empty();
  auto i64 = torch::TensorOptions().dtype(torch::kInt64);
  torch::Tensor ids = torch::full({B, T}, special.pad, i64), bbox = torch::zeros({B, T, 4}, i64), mask = torch::zeros({B, T}, i64);
  torch::Tensor polys = torch::full({B, T, data::kPolygonValues}, data::kPolygonPad);
  torch::Tensor mlm = torch::full({B, T}, data::kIgnoreLabel, i64), wpa = torch::full({B, T}, data::kIgnoreLabel, i64);
  torch::Tensor patch = torch::full({B, T}, -1, i64), pm = torch::zeros({B, P}, torch::kBool), mim = torch::zeros({B, P}, i64);
  torch::Tensor pix = torch::zeros({B, 3, S, S});
  PretrainBatch out;
  for (int64_t b = 0; b < B; ++b) {
    const auto& s = *samples[static_cast<size_t>(b)];
    const int64_t t = s.tokens;
    if (static_cast<int64_t>(s.pixels.size()) != px || static_cast<int64_t>(s.patch_masked.size()) != P || (!s.mim_labels.empty()) != codes)
      throw Error("make_pretrain_batch: samples of different image sizes");
    ids[b].slice(0, 0, t).copy_(torch::tensor(s.input_ids, i64));
    bbox[b].slice(0, 0, t).copy_(torch::tensor(s.bbox, i64).view({t, 4}));
    mask[b].slice(0, 0, t).fill_(1);
    polys[b].slice(0, 0, t).copy_(torch::tensor(s.polygons).view({t, data::kPolygonValues}));
    mlm[b].slice(0, 0, t).copy_(torch::tensor(s.mlm_labels, i64));
    wpa[b].slice(0, 0, t).copy_(torch::tensor(s.wpa_labels, i64));
    patch[b].slice(0, 0, t).copy_(torch::tensor(s.token_patch, i64));
    std::vector<int64_t> masked(s.patch_masked.begin(), s.patch_masked.end());
    pm[b].copy_(torch::tensor(masked, i64).to(torch::kBool));
    if (codes) mim[b].copy_(torch::tensor(s.mim_labels, i64));
    pix[b].copy_(torch::from_blob(const_cast<float*>(s.pixels.data()), {3, S, S}));
    for (int64_t v : s.mlm_labels) out.counts[0] += v != data::kIgnoreLabel;
    if (codes)
      for (uint8_t m : s.patch_masked) out.counts[1] += m != 0;
  }
  out.counts[2] = static_cast<double>(B);
  out.batch.input_ids = ids.to(dev), out.batch.bbox = bbox.to(dev), out.batch.attention_mask = mask.to(dev);
  out.batch.polygons = polys.to(dev), out.batch.pixel_values = pix.to(dev);
  out.mlm_labels = mlm.to(dev), out.wpa_labels = wpa.to(dev), out.token_patch = patch.to(dev), out.patch_masked = pm.to(dev);
  if (codes) out.mim_labels = mim.to(dev);
  return out;
}

std::vector<std::pair<std::string, double>> PretrainLosses::values() const {
  return {{"loss", total.item<double>()}, {"mlm", mlm.item<double>()}, {"mim", mim.item<double>()}, {"wpa", wpa.item<double>()}};
}

PretrainLosses LightPretrainImpl::losses(const PretrainBatch& pb, const std::array<double, 3>* counts_in) {
  if (config.modalities != Modalities::LIG) throw Error("LIGHT pretraining needs all three modalities (LIG)");
  const std::array<double, 3> counts = counts_in ? *counts_in : pb.counts;
  Outputs out;
  const torch::Tensor h = encode_sequence(*light, config, pb.batch, out);
  const int64_t B = pb.batch.input_ids.size(0), T = pb.batch.input_ids.size(1), H = h.size(2);
  const torch::Tensor text = h.slice(1, 0, T);
  const torch::Tensor patches = h.slice(1, T + 1, h.size(1));  // patch p = visual token p + 1 (after the visual CLS)
  const torch::Tensor zero = torch::zeros({}, h.options());
  PretrainLosses L;
  // MLM: the masked tokens' states -> vocabulary.
  const torch::Tensor mlm_sel = pb.mlm_labels.ne(data::kIgnoreLabel);
  L.sums[0] = zero;
  if (mlm_sel.any().item<bool>()) {
    const torch::Tensor logits = token_mlp(text.index({mlm_sel}));
    L.sums[0] = torch::nn::functional::cross_entropy(logits, pb.mlm_labels.index({mlm_sel}),
                                                     torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
  }
  // MIM: the masked patches' states -> the image tokenizer's codes.
  L.sums[1] = zero;
  if (pb.mim_labels.defined() && pb.patch_masked.any().item<bool>()) {
    const torch::Tensor logits = visual_mlp(patches.index({pb.patch_masked}));
    L.sums[1] = torch::nn::functional::cross_entropy(logits, pb.mim_labels.index({pb.patch_masked}),
                                                     torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
  }
  // WPA: [the state of the patch under the word ; the token's state] -> is that patch visible?
  const torch::Tensor eligible = pb.wpa_labels.ne(data::kIgnoreLabel);
  L.sums[2] = zero;
  if (eligible.any().item<bool>()) {
    const torch::Tensor idx = pb.token_patch.clamp_min(0).unsqueeze(-1).expand({B, T, H});
    const torch::Tensor x = torch::cat({patches.gather(1, idx), text}, -1);
    const torch::Tensor logit = wpa_mlp(x).squeeze(-1);
    const torch::Tensor e = eligible.to(h.dtype());
    const torch::Tensor bce = torch::binary_cross_entropy_with_logits(logit, pb.wpa_labels.clamp_min(0).to(h.dtype()), {}, {},
                                                                      at::Reduction::None);
    L.sums[2] = ((bce * e).sum(1) / e.sum(1).clamp_min(1.0)).sum();
  }
  const auto mean = [&](int k) { return counts[k] > 0 ? L.sums[k] / counts[k] : zero; };
  L.mlm = mean(0), L.mim = mean(1), L.wpa = mean(2);
  L.total = L.mlm + L.mim + L.wpa;
  return L;
}

}  // namespace light::model

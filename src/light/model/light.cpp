#include "light/model/light.h"

#include <cmath>
#include <limits>
#include <map>
#include <string_view>
#include <unordered_map>

#include "light/data/inputs.h"
#include "light/model/dropout.h"

namespace light::model {

LightModelImpl::LightModelImpl(const ModelConfig& c) {
  const auto& l = c.layoutlmv3;
  const int H = l.hidden_size;
  embeddings = register_module("embeddings", LayoutLMv3TextEmbeddings(l));
  patch_embed = register_module("patch_embed", PatchEmbed(l));
  cls_token = register_parameter("cls_token", torch::zeros({1, 1, H}));
  pos_embed = register_parameter("pos_embed", torch::zeros({1, c.visual_tokens(), H}));
  LayerNorm = register_module("LayerNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({H}).eps(l.layer_norm_eps)));
  norm = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({H}).eps(l.visual_norm_eps)));
  encoder = register_module("encoder", LayoutLMv3Encoder(l));
  poly_encoder = register_module("poly_encoder", PolyEncoder(c.poly));
  poly_layer_norm = register_module("poly_layer_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({H}).eps(c.fusion_layer_norm_eps)));
}

MLPImpl::MLPImpl(int hidden, int linears) {
  layers = torch::nn::Sequential();
  for (int i = 0; i < linears; ++i) {
    if (i) layers->push_back(torch::nn::ReLU());
    layers->push_back(torch::nn::Linear(hidden, hidden));
  }
  register_module("layers", layers);
}

MLPImpl::MLPImpl(const std::vector<int>& sizes) {
  layers = torch::nn::Sequential();
  for (size_t i = 0; i + 1 < sizes.size(); ++i) {
    if (i) layers->push_back(torch::nn::ReLU());
    layers->push_back(torch::nn::Linear(sizes[i], sizes[i + 1]));
  }
  register_module("layers", layers);
}

TokenEncoderImpl::TokenEncoderImpl(int hidden, double eps) {
  mlp = register_module("mlp", MLP(hidden, 2));
  layer_norm = register_module("layer_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden}).eps(eps)));
}

LightTextLinkingImpl::LightTextLinkingImpl(const ModelConfig& c) : config(c) {
  const int H = c.layoutlmv3.hidden_size;
  light = register_module("light", LightModel(c));
  token_encoder = register_module("token_encoder", TokenEncoder(H, c.head_layer_norm_eps));
  predecessor_mlp = register_module("predecessor_mlp", MLP(H, 3));
  successor_mlp = register_module("successor_mlp", MLP(H, 3));
  if (c.head == SuccessorHead::Pairwise) {
    const int features = pair_feature_count(c);
    successor_pair = register_module("successor_pair", PairScore(H, c.pair_hidden, features));
    predecessor_pair = register_module("predecessor_pair", PairScore(H, c.pair_hidden, features));
  }
  init_like_reference(*light, c.layoutlmv3.pad_token_id);
}

PairScoreImpl::PairScoreImpl(int hidden, int pair_hidden, int features) {
  geometry = register_module("geometry", torch::nn::Linear(features, pair_hidden));
  from = register_module("from", torch::nn::Linear(torch::nn::LinearOptions(hidden, pair_hidden).bias(false)));
  to = register_module("to", torch::nn::Linear(torch::nn::LinearOptions(hidden, pair_hidden).bias(false)));
  out = register_module("out", torch::nn::Linear(pair_hidden, 1));
}

torch::Tensor PairScoreImpl::forward(const torch::Tensor& phi, const torch::Tensor& e) {
  const torch::Tensor z = geometry(phi) + from(e).unsqueeze(1) + to(e).unsqueeze(0);
  return out(torch::relu(z)).squeeze(-1);
}

namespace {
// log(1 + the rank of each entry in its row), the smallest 0; the diagonal (a word and itself) ranked last.
torch::Tensor log_rank_in_rows(const torch::Tensor& distance) {
  const int64_t n = distance.size(0);
  const torch::Tensor d = distance.masked_fill(torch::eye(n, distance.options().dtype(torch::kBool)), INFINITY);
  return torch::log1p(d.argsort(int64_t{1}).argsort(int64_t{1}).to(distance.scalar_type()));
}
}  // namespace

torch::Tensor pair_features(const torch::Tensor& frames, bool context) {
  const int64_t n = frames.size(0);
  const torch::Tensor start = frames.slice(1, 0, 2), end = frames.slice(1, 2, 4);
  const torch::Tensor h = frames.select(1, 4).clamp_min(1e-4);
  const torch::Tensor axis = end - start;
  const torch::Tensor length = axis.norm(2, 1).clamp_min(1e-6);
  const torch::Tensor u = axis / length.unsqueeze(1);                       // [N, 2] along the reading direction
  const torch::Tensor v = torch::stack({-u.select(1, 1), u.select(1, 0)}, 1);  // across it (down for upright text)
  const torch::Tensor centre = (start + end) / 2;
  auto in_frame = [&](const torch::Tensor& to, const torch::Tensor& from) {  // [N, N, 2]: (to_j - from_i) in i's frame / h_i
    const torch::Tensor d = to.unsqueeze(0) - from.unsqueeze(1);            // [N(i), N(j), 2]
    const torch::Tensor along = (d * u.unsqueeze(1)).sum(-1), across = (d * v.unsqueeze(1)).sum(-1);
    const torch::Tensor s = torch::stack({along, across}, -1) / h.view({n, 1, 1});
    return torch::sign(s) * torch::log1p(s.abs());
  };
  const torch::Tensor log_h = torch::log(h);
  const torch::Tensor cos = torch::matmul(u, u.t()), sin = torch::matmul(u, v.t()).neg();  // u_i x u_j
  const torch::Tensor rel_h = log_h.unsqueeze(0) - log_h.unsqueeze(1);
  const torch::Tensor rel_len = (torch::log(length).unsqueeze(0) - log_h.unsqueeze(1));
  const torch::Tensor self = torch::eye(n, frames.options());
  std::vector<torch::Tensor> parts = {in_frame(start, end), in_frame(centre, centre), in_frame(start, start), rel_h.unsqueeze(-1),
                                      cos.unsqueeze(-1), sin.unsqueeze(-1), rel_len.unsqueeze(-1), self.unsqueeze(-1)};
  if (context) {
    const torch::Tensor hi = h.unsqueeze(1);
    const torch::Tensor centres = (centre.unsqueeze(0) - centre.unsqueeze(1)).norm(2, -1) / hi;  // [i, j]
    const torch::Tensor onward = (start.unsqueeze(0) - end.unsqueeze(1)).norm(2, -1) / hi;       // i's end to j's start
    parts.push_back(in_frame(end, end));
    for (const torch::Tensor& d : {centres, onward}) {
      parts.push_back(log_rank_in_rows(d).unsqueeze(-1));              // j among i's candidates
      parts.push_back(log_rank_in_rows(d.t()).t().unsqueeze(-1));      // i among j's
    }
  }
  return torch::cat(parts, -1);
}

torch::Tensor pair_line_features(const torch::Tensor& frames, const torch::Tensor& lines) {
  const int64_t n = frames.size(0);
  const torch::Tensor start = frames.slice(1, 0, 2), end = frames.slice(1, 2, 4);
  const torch::Tensor h = frames.select(1, 4).clamp_min(1e-4);
  const torch::Tensor axis = end - start;
  const torch::Tensor u = axis / axis.norm(2, 1).clamp_min(1e-6).unsqueeze(1);
  const torch::Tensor v = torch::stack({-u.select(1, 1), u.select(1, 0)}, 1);
  const torch::Tensor line_start = lines.slice(1, 0, 2), line_end = lines.slice(1, 2, 4), line_centre = (line_start + line_end) / 2;
  const auto squash = [](const torch::Tensor& s) { return torch::sign(s) * torch::log1p(s.abs()); };
  auto in_frame = [&](const torch::Tensor& to, const torch::Tensor& from) {  // as pair_features' offsets
    const torch::Tensor d = to.unsqueeze(0) - from.unsqueeze(1);
    const torch::Tensor along = (d * u.unsqueeze(1)).sum(-1), across = (d * v.unsqueeze(1)).sum(-1);
    return squash(torch::stack({along, across}, -1) / h.view({n, 1, 1}));
  };
  // Along each word's own axis: its line's end ahead of its end, its start ahead of its line's start.
  const torch::Tensor to_end = squash(((line_end - end) * u).sum(1) / h), from_start = squash(((start - line_start) * u).sum(1) / h);
  return torch::cat({in_frame(line_start, line_start), in_frame(line_centre, line_centre), in_frame(line_end, line_end),
                     to_end.view({n, 1, 1}).expand({n, n, 1}), from_start.view({1, n, 1}).expand({n, n, 1})},
                    -1);
}

torch::Tensor pair_lettering_features(const torch::Tensor& lettering) {
  const torch::Tensor ink = lettering.slice(1, 0, 3), letter_case = lettering.select(1, 3);
  const torch::Tensor distance = (ink.unsqueeze(1) - ink.unsqueeze(0)).norm(2, -1);
  const torch::Tensor has = letter_case.gt(0);
  const torch::Tensor both = has.unsqueeze(1).logical_and(has.unsqueeze(0));
  const torch::Tensor same = letter_case.unsqueeze(1).eq(letter_case.unsqueeze(0)).logical_or(both.logical_not());
  return torch::stack({distance, same.to(lettering.scalar_type()), both.to(lettering.scalar_type())}, -1);
}

int pair_feature_count(const ModelConfig& c) {
  return (c.pair_context ? kPairContextFeatures : kPairFeatures) + (c.pair_lettering ? kPairLetteringFeatures : 0) +
         (c.pair_lines ? kPairLineFeatures : 0);
}

void init_like_reference(LightModelImpl& m, int64_t pad_token_id) {
  // What Hugging Face's LayoutLMv3PreTrainedModel._init_weights does to every submodule of the
  // reference's LightModel (the polygon encoder included), initializer_range 0.02. The head keeps
  // PyTorch's defaults, as the reference's plain nn.Modules do. (LibTorch's own defaults, N(0, 1)
  // embeddings, would leave the embedding tables nearly still under Adam: an update of size lr is
  // 50 times smaller relative to N(0, 1) rows than to N(0, 0.02) rows.)
  torch::NoGradGuard no_grad;
  for (const auto& item : m.named_modules("light")) {
    init_module_like_hugging_face(*item.value());
    // padding_idx rows: the text word and 1-D position tables (RoBERTa style).
    if (auto* emb = item.value()->as<torch::nn::EmbeddingImpl>())
      if (item.key() == "light.embeddings.word_embeddings" || item.key() == "light.embeddings.position_embeddings")
        if (pad_token_id >= 0 && pad_token_id < emb->weight.size(0)) emb->weight[pad_token_id].zero_();
  }
}

void init_layout_tables_sinusoid(LightModelImpl& m, double amplitude) {
  torch::NoGradGuard no_grad;
  auto& e = *m.embeddings;
  for (torch::nn::Embedding* t : {&e.x_position_embeddings, &e.y_position_embeddings, &e.h_position_embeddings, &e.w_position_embeddings}) {
    torch::Tensor w = (*t)->weight;
    const int64_t rows = w.size(0), pairs = w.size(1) / 2;
    const torch::Tensor r = torch::arange(rows, torch::kFloat64).unsqueeze(1);
    const torch::Tensor k = torch::arange(pairs, torch::kFloat64).unsqueeze(0);
    const torch::Tensor angle = r * torch::exp(k * (-2.0 * std::log(10000.0) / static_cast<double>(w.size(1))));
    const torch::Tensor table = torch::stack({torch::sin(angle), torch::cos(angle)}, 2).reshape({rows, 2 * pairs}) * amplitude;
    w.slice(1, 0, 2 * pairs).copy_(table.to(w.scalar_type()));
  }
}

void init_module_like_hugging_face(torch::nn::Module& mod) {
  torch::NoGradGuard no_grad;
  if (auto* lin = mod.as<torch::nn::LinearImpl>()) {
    lin->weight.normal_(0.0, 0.02);
    if (lin->bias.defined()) lin->bias.zero_();
  } else if (auto* conv = mod.as<torch::nn::Conv2dImpl>()) {
    conv->weight.normal_(0.0, 0.02);
    if (conv->bias.defined()) conv->bias.zero_();
  } else if (auto* emb = mod.as<torch::nn::EmbeddingImpl>()) {
    emb->weight.normal_(0.0, 0.02);
  } else if (auto* ln = mod.as<torch::nn::LayerNormImpl>()) {
    ln->weight.fill_(1.0);
    ln->bias.zero_();
  }
}

torch::Tensor TileOutputs::total_loss(const LossSwitches& s) const {
  torch::Tensor t = base_loss;
  if (s.bidirection) t = t + bidirection_loss;
  // The paper's Table 3: the predecessor focal term belongs to the bidirectional objective.
  if (s.focal) t = t + (s.bidirection ? focal_loss : focal_successor_loss);
  return t;
}

namespace {
// The rows `rows` [B, W] (token indices) of states [B, S, H]: [B, W, H].
torch::Tensor gather_rows(const torch::Tensor& states, const torch::Tensor& rows) {
  return states.gather(1, rows.unsqueeze(-1).expand({rows.size(0), rows.size(1), states.size(2)}));
}

// The distinct rows of a matrix [N, C] (first-seen order) and each row's index among them. On the
// CPU a hash of each row's bytes (unique_dim sorts, and compares rows one pair at a time).
std::pair<torch::Tensor, torch::Tensor> distinct_rows(const torch::Tensor& flat) {
  if (!flat.device().is_cpu() || flat.scalar_type() != torch::kFloat32) {
    const auto u = torch::unique_dim(flat, 0, /*sorted=*/false, /*return_inverse=*/true);
    return {std::get<0>(u), std::get<1>(u).flatten()};
  }
  const torch::Tensor c = flat.contiguous();
  const int64_t N = c.size(0);
  const size_t bytes = static_cast<size_t>(c.size(1)) * sizeof(float);
  const char* base = reinterpret_cast<const char*>(c.data_ptr<float>());
  std::unordered_map<std::string_view, int64_t> seen;
  seen.reserve(static_cast<size_t>(N));
  std::vector<int64_t> first, inverse(static_cast<size_t>(N));
  for (int64_t i = 0; i < N; ++i) {
    const auto [it, fresh] = seen.emplace(std::string_view(base + static_cast<size_t>(i) * bytes, bytes), static_cast<int64_t>(first.size()));
    if (fresh) first.push_back(i);
    inverse[static_cast<size_t>(i)] = it->second;
  }
  return {c.index_select(0, torch::tensor(first, torch::kLong)), torch::tensor(inverse, torch::kLong)};
}
}  // namespace

torch::Tensor encode_sequence(LightModelImpl& m, const ModelConfig& config, const Batch& b, Outputs& out, bool keep_layers,
                              bool encode_distinct_polygons, const torch::Tensor& last_rows) {
  const int64_t B = b.input_ids.size(0), T = b.input_ids.size(1);
  const int64_t C = b.polygons.size(2);
  const Modalities mod = config.modalities;
  const bool polygons = mod == Modalities::LIG || mod == Modalities::G;
  if (polygons) {
    // Each distinct polygon encoded once.
    const torch::Tensor flat = b.polygons.reshape({B * T, C});
    if (encode_distinct_polygons) {
      const auto [distinct, inverse] = distinct_rows(flat);
      const torch::Tensor encoded = m.poly_encoder(distinct);
      out.poly_embeddings = encoded.index_select(0, inverse).view({B, T, -1});
    } else {
      out.poly_embeddings = m.poly_encoder(flat).view({B, T, -1});
    }
  }
  if (mod == Modalities::G) {  // polygons only: no LayoutLMv3
    return last_rows.defined() ? gather_rows(out.poly_embeddings, last_rows) : out.poly_embeddings;
  }
  {
    // L has no layout: every box is zero (and there are no visual tokens).
    const torch::Tensor bbox = mod == Modalities::L ? torch::zeros_like(b.bbox) : b.bbox;
    out.text_embeddings = m.embeddings(b.input_ids, bbox);
    out.fused_embeddings = polygons ? m.poly_layer_norm(out.text_embeddings + out.poly_embeddings) : out.text_embeddings;
    auto drop = [&](const torch::Tensor& t, double p) { return p > 0 && m.is_training() ? train_dropout(t, p) : t; };
    torch::Tensor seq = polygons ? drop(out.fused_embeddings, config.fusion_dropout) : out.fused_embeddings, boxes = bbox, keep = b.attention_mask.to(seq.dtype());
    const auto long_opts = torch::TensorOptions().dtype(torch::kLong).device(seq.device());
    torch::Tensor positions = torch::arange(T, long_opts);
    if (mod != Modalities::L) {
      torch::Tensor v = m.patch_embed->proj(b.pixel_values).flatten(2).transpose(1, 2);
      v = torch::cat({m.cls_token.expand({B, 1, v.size(2)}), v}, 1) + m.pos_embed;
      out.visual_embeddings = m.norm(v);
      const int64_t V = out.visual_embeddings.size(1);
      const int grid = config.layoutlmv3.input_size / config.layoutlmv3.patch_size;
      seq = torch::cat({seq, out.visual_embeddings}, 1);
      // 1-D positions 0..T-1 for text and 0..V-1 for visual tokens; 2-D from boxes.
      positions = torch::cat({positions, torch::arange(V, long_opts)});
      boxes = torch::cat({bbox, visual_bbox(grid).to(seq.device()).unsqueeze(0).expand({B, V, 4})}, 1);
      keep = torch::cat({keep, torch::ones({B, V}, seq.options())}, 1);
    }
    torch::Tensor h = drop(m.LayerNorm(seq), config.layoutlmv3.hidden_dropout);
    out.encoder_input = h;
    const size_t L = m.encoder->layer->size();
    if (!torch::GradMode::is_enabled() && !m.is_training() && L > 0) {
      // Inference: the bias over sqrt(head_dim) plus the mask, made once for every layer.
      const int64_t d = config.layoutlmv3.hidden_size / config.layoutlmv3.num_attention_heads;
      const torch::Tensor scores_bias = m.encoder->scores_bias(positions, boxes, keep, std::sqrt(static_cast<double>(d)));
      for (size_t i = 0; i < L; ++i) {
        auto* layer = m.encoder->layer[i]->as<TransformerLayerImpl>();
        if (i + 1 == L && last_rows.defined()) {
          const int64_t W = last_rows.size(1), S = h.size(1), heads = scores_bias.size(1);
          h = layer->forward_inference(h, scores_bias.gather(2, last_rows.view({B, 1, W, 1}).expand({B, heads, W, S})), last_rows);
        } else {
          h = layer->forward_inference(h, scores_bias);
        }
        if (keep_layers) out.layers.push_back(h);
      }
      return h;
    }
    const torch::Tensor bias = m.encoder->attention_bias(positions, boxes);
    const torch::Tensor mask = ((1.0 - keep) * std::numeric_limits<float>::lowest()).view({B, 1, 1, keep.size(1)});
    for (const auto& layer : *m.encoder->layer) {
      h = layer->as<TransformerLayerImpl>()->forward(h, bias, mask);
      if (keep_layers) out.layers.push_back(h);
    }
    return last_rows.defined() ? gather_rows(h, last_rows) : h;  // training: every row, then the asked ones
  }
}

Outputs LightTextLinkingImpl::forward(const Batch& b, bool keep_layers, bool words_only) {
  Outputs out;
  const int64_t B = b.input_ids.size(0), T = b.input_ids.size(1);
  torch::Tensor rows;  // [B, W]: each tile's first tokens, padded with token 0
  if (words_only && !keep_layers) {
    int64_t W = 1;
    for (int64_t i = 0; i < B; ++i) W = std::max<int64_t>(W, b.first_token_indices[i].numel());
    rows = torch::zeros({B, W}, b.input_ids.options());
    for (int64_t i = 0; i < B; ++i) rows[i].slice(0, 0, b.first_token_indices[i].numel()).copy_(b.first_token_indices[i]);
  }
  const torch::Tensor h = encode_sequence(*light, config, b, out, keep_layers, encode_distinct_polygons, rows);
  if (!rows.defined()) out.final_hidden_text = h.slice(1, 0, T);
  // Linking head, tile by tile.
  for (int64_t i = 0; i < B; ++i) {
    TileOutputs t;
    t.first_token_hidden = rows.defined() ? h[i].slice(0, 0, b.first_token_indices[i].numel())
                                          : out.final_hidden_text[i].index_select(0, b.first_token_indices[i]);
    t.word_embeddings = token_encoder(t.first_token_hidden);
    const torch::Tensor pred = predecessor_mlp(t.word_embeddings), succ = successor_mlp(t.word_embeddings);
    t.logits = torch::matmul(pred, succ.t());
    t.bi_logits = torch::matmul(succ, pred.t());
    if (successor_pair) {
      if (i >= static_cast<int64_t>(b.word_frames.size()) || b.word_frames[i].size(0) != t.word_embeddings.size(0))
        throw std::runtime_error("a pairwise head needs the batch's word frames (make_batch fills them)");
      torch::Tensor phi = pair_features(b.word_frames[i], config.pair_context);
      if (config.pair_lettering) {
        if (i >= static_cast<int64_t>(b.word_lettering.size()) || b.word_lettering[i].size(0) != phi.size(0))
          throw std::runtime_error("a head that reads lettering needs the batch's word lettering (make_batch fills it)");
        phi = torch::cat({phi, pair_lettering_features(b.word_lettering[i])}, -1);
      }
      if (config.pair_lines) {
        if (i >= static_cast<int64_t>(b.word_lines.size()) || b.word_lines[i].size(0) != phi.size(0))
          throw std::runtime_error("a head that reads lines needs the batch's word lines (make_batch fills them)");
        phi = torch::cat({phi, pair_line_features(b.word_frames[i], b.word_lines[i])}, -1);
      }
      t.logits = t.logits + successor_pair(phi, t.word_embeddings);
      // j precedes i: the pair (j, i) read from j's frame.
      t.bi_logits = t.bi_logits + predecessor_pair(phi.transpose(0, 1), t.word_embeddings);
    }
    t.probs = torch::softmax(t.logits, -1);
    t.bi_probs = torch::softmax(t.bi_logits, -1);
    if (i < static_cast<int64_t>(b.word_labels.size()) && b.word_labels[i].defined() && b.word_labels[i].numel() > 0) {
      const torch::Tensor lab = b.word_labels[i].to(torch::kCPU).contiguous();
      std::vector<int64_t> labels(lab.data_ptr<int64_t>(), lab.data_ptr<int64_t>() + lab.numel());
      auto flags = [&](const std::vector<torch::Tensor>& v) {
        std::vector<uint8_t> f;
        if (i < static_cast<int64_t>(v.size()) && v[i].defined()) {
          const torch::Tensor c = v[i].to(torch::kCPU).to(torch::kInt64).contiguous();
          for (int64_t k = 0; k < c.numel(); ++k) f.push_back(c.data_ptr<int64_t>()[k] != 0);
        }
        return f;
      };
      auto weights = [&](const std::vector<std::vector<float>>& v) { return i < static_cast<int64_t>(v.size()) ? v[i] : std::vector<float>{}; };
      link_losses(t.logits, t.bi_logits, labels, config.focal_alpha, config.focal_gamma, t,
                  {flags(b.next_outside), flags(b.prev_outside), weights(b.next_weight), weights(b.prev_weight)}, config.focal_self_target);
    }
    out.tiles.push_back(std::move(t));
  }
  return out;
}

void link_targets(const std::vector<int64_t>& labels, std::vector<int64_t>& next, std::vector<int64_t>& prev) {
  const size_t n = labels.size();
  std::map<std::pair<int64_t, int64_t>, int64_t> where;
  std::vector<std::pair<int64_t, int64_t>> parsed(n);
  for (size_t i = 0; i < n; ++i) {
    parsed[i] = data::split_label(labels[i]);
    where[parsed[i]] = static_cast<int64_t>(i);
  }
  next.assign(n, 0);
  prev.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const auto [g, s] = parsed[i];
    auto a = where.find({g, s + 1});
    auto p = where.find({g, s - 1});
    next[i] = a != where.end() ? a->second : static_cast<int64_t>(i);
    prev[i] = p != where.end() ? p->second : static_cast<int64_t>(i);
  }
}

namespace {
// Mean over all n x n entries, each row times its `keep` entry (0 for a row left out, else its
// weight; every row once when it is undefined).
torch::Tensor focal(const torch::Tensor& logits, const torch::Tensor& target, double alpha, double gamma, const torch::Tensor& keep) {
  const int64_t n = logits.size(0);
  const torch::Tensor p = torch::softmax(logits, -1);
  const torch::Tensor w = torch::ones({n, n}, logits.options()) - (1.0 - alpha) * torch::eye(n, logits.options());
  const torch::Tensor pos = -w * torch::pow(1 - p, gamma) * target * torch::log(p + 1e-8);
  const torch::Tensor neg = -w * torch::pow(p, gamma) * (1 - target) * torch::log(1 - p + 1e-8);
  return keep.defined() ? ((pos + neg) * keep.unsqueeze(1)).mean() : (pos + neg).mean();
}

// Cross-entropy over the rows `keep` holds (all when undefined), each weighed by its entry (the kept
// rows' weights sum to their number, so 0/1 entries give the kept rows' mean); 0 (with a gradient
// path) when none is kept.
torch::Tensor row_cross_entropy(const torch::Tensor& logits, const torch::Tensor& target, const torch::Tensor& keep) {
  if (!keep.defined()) return torch::nn::functional::cross_entropy(logits, target);
  const torch::Tensor rows = keep.nonzero().flatten();
  if (rows.numel() == 0) return logits.sum() * 0.0;
  const torch::Tensor ce = torch::nn::functional::cross_entropy(
      logits.index_select(0, rows), target.index_select(0, rows), torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone));
  return (ce * keep.index_select(0, rows)).mean();
}

// Per row: 0 for a row left out, else its weight scaled so that the kept rows' weights sum to their
// number; undefined when every row is kept at weight 1 (the paper's loss, computed as the reference does).
torch::Tensor keep_rows(const std::vector<uint8_t>& outside, const std::vector<float>& weights, int64_t n, const torch::Tensor& like) {
  bool any = false;
  for (uint8_t o : outside) any = any || o;
  for (float w : weights) any = any || w != 1.0f;
  if (!any) return {};
  if ((!outside.empty() && static_cast<int64_t>(outside.size()) != n) || (!weights.empty() && static_cast<int64_t>(weights.size()) != n))
    throw std::runtime_error("link_losses: one outside flag and one weight a word expected");
  std::vector<float> keep(static_cast<size_t>(n), 1.0f);
  double sum = 0;
  int64_t kept = 0;
  for (size_t k = 0; k < keep.size(); ++k) {
    if (!outside.empty() && outside[k]) keep[k] = 0.0f;
    else keep[k] = weights.empty() ? 1.0f : weights[k], sum += keep[k], ++kept;
  }
  if (sum > 0)
    for (float& v : keep) v = static_cast<float>(v * kept / sum);
  return torch::tensor(keep).to(like.device()).to(like.dtype());
}
}  // namespace

void link_losses(const torch::Tensor& logits, const torch::Tensor& bi_logits, const std::vector<int64_t>& labels,
                 double alpha, double gamma, TileOutputs& out, const RowWeights& rows, bool focal_self_target) {
  std::vector<int64_t> next, prev;
  link_targets(labels, next, prev);
  const int64_t n = static_cast<int64_t>(labels.size());
  const auto lopt = torch::TensorOptions().dtype(torch::kLong).device(logits.device());
  const torch::Tensor tn = torch::tensor(next, torch::kLong).to(logits.device());
  const torch::Tensor tp = torch::tensor(prev, torch::kLong).to(logits.device());
  const torch::Tensor keep_next = keep_rows(rows.next_outside, rows.next_weight, n, logits);
  const torch::Tensor keep_prev = keep_rows(rows.prev_outside, rows.prev_weight, n, logits);
  out.base_loss = row_cross_entropy(logits, tn, keep_next);
  out.bidirection_loss = row_cross_entropy(bi_logits, tp, keep_prev);
  // The paper's: one-hot targets only where a real neighbour exists (never on the diagonal); with
  // focal_self_target a word without one has its own entry as the target, as in its cross-entropy.
  const torch::Tensor idx = torch::arange(n, lopt);
  torch::Tensor succ = torch::one_hot(tn, n).to(logits.dtype()), pred = torch::one_hot(tp, n).to(logits.dtype());
  if (!focal_self_target) {
    succ = succ * tn.ne(idx).unsqueeze(1).to(logits.dtype());
    pred = pred * tp.ne(idx).unsqueeze(1).to(logits.dtype());
  }
  out.focal_successor_loss = 100.0 * focal(logits, succ, alpha, gamma, keep_next);
  out.focal_loss = out.focal_successor_loss + 100.0 * focal(bi_logits, pred, alpha, gamma, keep_prev);
}

}  // namespace light::model

#include "light/model/config.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>
#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/eval/edit_distance.h"
#include "light/model/decoding_settings.h"
#include "light/util/fs.h"
#include "light/util/json.h"

namespace light::model {

namespace {
template <class T>
void get(const nlohmann::json& j, const char* key, T& out, const std::string& where) {
  if (!j.contains(key)) return;
  const auto& v = j[key];
  if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) throw Error(where + "." + key + ": expected true or false, got " + v.dump());
  } else if constexpr (std::is_integral_v<T>) {
    if (!v.is_number_integer()) throw Error(where + "." + key + ": expected an integer, got " + v.dump().substr(0, 60));
    if (v.is_number_unsigned() ? v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<T>::max())
                               : (v.get<int64_t>() < std::numeric_limits<T>::min() || v.get<int64_t>() > std::numeric_limits<T>::max()))
      throw Error(where + "." + key + ": " + v.dump() + " is out of range");
  } else {
    if (!v.is_number()) throw Error(where + "." + key + ": expected a number, got " + v.dump().substr(0, 60));
  }
  out = v.get<T>();
}
}  // namespace

void write_model_config(const std::string& path, const ModelConfig& c) {
  const auto& l = c.layoutlmv3;
  nlohmann::ordered_json j;
  j["model"] = "LightTextLinking";
  j["modalities"] = modalities_name(c.modalities);
  j["layoutlmv3"] = {{"vocab_size", l.vocab_size}, {"hidden_size", l.hidden_size}, {"num_hidden_layers", l.num_hidden_layers},
                     {"num_attention_heads", l.num_attention_heads}, {"intermediate_size", l.intermediate_size},
                     {"max_position_embeddings", l.max_position_embeddings}, {"type_vocab_size", l.type_vocab_size},
                     {"layer_norm_eps", l.layer_norm_eps}, {"pad_token_id", l.pad_token_id},
                     {"max_2d_position_embeddings", l.max_2d_position_embeddings}, {"coordinate_size", l.coordinate_size},
                     {"shape_size", l.shape_size}, {"rel_pos_bins", l.rel_pos_bins}, {"max_rel_pos", l.max_rel_pos},
                     {"rel_2d_pos_bins", l.rel_2d_pos_bins}, {"max_rel_2d_pos", l.max_rel_2d_pos}, {"input_size", l.input_size},
                     {"num_channels", l.num_channels}, {"patch_size", l.patch_size}, {"visual_norm_eps", l.visual_norm_eps},
                     {"hidden_dropout_prob", l.hidden_dropout}, {"attention_probs_dropout_prob", l.attention_dropout},
                     {"train_relative_bias", l.train_relative_bias}};
  j["poly_encoder"] = {{"emb_dim", c.poly.emb_dim}, {"num_coords", c.poly.num_coords},
                       {"final_layernorm_eps", c.poly.final_layer_norm_eps},
                       {"bert", {{"hidden_size", c.poly.emb_dim}, {"num_hidden_layers", c.poly.num_hidden_layers},
                                 {"num_attention_heads", c.poly.num_attention_heads}, {"intermediate_size", c.poly.intermediate_size},
                                 {"max_position_embeddings", c.poly.max_position_embeddings},
                                 {"type_vocab_size", c.poly.type_vocab_size}, {"layer_norm_eps", c.poly.bert_layer_norm_eps},
                                 {"hidden_dropout_prob", c.poly.hidden_dropout},
                                 {"attention_probs_dropout_prob", c.poly.attention_dropout}}}};
  j["fusion_layernorm_eps"] = c.fusion_layer_norm_eps;
  j["fusion_dropout"] = c.fusion_dropout;
  nlohmann::ordered_json aux = nlohmann::ordered_json::array();
  if (c.losses.bidirection) aux.push_back("bidirection");
  if (c.losses.focal) aux.push_back("focal");
  j["loss"] = {{"aux_losses", aux}, {"focal_alpha", c.focal_alpha}, {"focal_gamma", c.focal_gamma}};
  if (c.focal_self_target) j["loss"]["focal_self_target"] = true;
  if (!c.link_weights.neutral()) j["loss"]["link_weights"] = data::link_weights_spec(c.link_weights);
  // Beyond the paper: written only when used, so that a paper model's config.json is unchanged.
  if (c.head != SuccessorHead::Bilinear) {
    j["successor_head"] = {{"kind", successor_head_name(c.head)}, {"hidden", c.pair_hidden}};
    if (c.pair_context) j["successor_head"]["context"] = true;
    if (c.pair_lettering) j["successor_head"]["lettering"] = true;
    if (c.pair_lines) j["successor_head"]["lines"] = true;
  }
  if (c.window_word_height > 0) j["window_word_height"] = c.window_word_height;
  for (const DecodingSetting& s : decoding_settings())  // each written when it leaves the paper's decoding
    if (c.*s.field != s.neutral) j[s.key] = c.*s.field;
  if (!c.line_judge_weights.empty()) j["line_judge_weights"] = c.line_judge_weights;
  if (c.polygon_points != data::PolygonPoints::Keep) j["polygon_points"] = data::polygon_points_name(c.polygon_points);
  write_file_atomic(path, j.dump(1) + "\n");
}

namespace {
// `field` of `where` must satisfy `ok`, else an error naming both and what is expected.
void require(bool ok, const std::string& where, const std::string& field, const std::string& expected, const std::string& got) {
  if (!ok) throw Error(where + ": " + field + ": expected " + expected + ", got " + got);
}
void positive(int v, int most, const std::string& where, const std::string& field) {
  require(v > 0 && v <= most, where, field, "a positive integer up to " + std::to_string(most), std::to_string(v));
}
void eps(double v, const std::string& where, const std::string& field) {
  require(std::isfinite(v) && v > 0 && v < 1, where, field, "a number in (0, 1)", std::to_string(v));
}
void dropout(double v, const std::string& where, const std::string& field) {
  require(std::isfinite(v) && v >= 0 && v < 1, where, field, "a probability in [0, 1)", std::to_string(v));
}
void buckets(int bins, int max_distance, const std::string& where, const std::string& bins_field, const std::string& max_field) {
  require(bins >= 4 && bins <= 4096 && bins % 2 == 0, where, bins_field, "an even number of buckets from 4 to 4096", std::to_string(bins));
  require(max_distance > bins / 4 && max_distance <= 1 << 20, where, max_field,
          "a distance above " + bins_field + " / 4 (" + std::to_string(bins / 4) + ")", std::to_string(max_distance));
}
}  // namespace

void validate_config(const ModelConfig& c, const std::string& where) {
  const auto& m = c.layoutlmv3;
  const std::string l = "layoutlmv3.", p = "poly_encoder.";
  positive(m.vocab_size, 1 << 24, where, l + "vocab_size");
  positive(m.hidden_size, 1 << 16, where, l + "hidden_size");
  positive(m.num_hidden_layers, 1024, where, l + "num_hidden_layers");
  positive(m.num_attention_heads, 1024, where, l + "num_attention_heads");
  require(m.hidden_size % m.num_attention_heads == 0, where, l + "num_attention_heads",
          "a divisor of hidden_size (" + std::to_string(m.hidden_size) + ")", std::to_string(m.num_attention_heads));
  positive(m.intermediate_size, 1 << 18, where, l + "intermediate_size");
  require(m.pad_token_id >= 0 && m.pad_token_id < m.vocab_size, where, l + "pad_token_id", "an id below vocab_size",
          std::to_string(m.pad_token_id));
  require(m.max_position_embeddings >= m.pad_token_id + 4 && m.max_position_embeddings <= 1 << 20, where,
          l + "max_position_embeddings", "at least pad_token_id + 4 (positions start after the padding id)",
          std::to_string(m.max_position_embeddings));
  positive(m.type_vocab_size, 1 << 16, where, l + "type_vocab_size");
  require(m.max_2d_position_embeddings >= 1001 && m.max_2d_position_embeddings <= 1 << 20, where,
          l + "max_2d_position_embeddings", "at least 1001 (boxes are scaled to 0..1000)", std::to_string(m.max_2d_position_embeddings));
  positive(m.coordinate_size, 1 << 16, where, l + "coordinate_size");
  positive(m.shape_size, 1 << 16, where, l + "shape_size");
  require(4 * m.coordinate_size + 2 * m.shape_size == m.hidden_size, where, l + "coordinate_size and shape_size",
          "4 * coordinate_size + 2 * shape_size = hidden_size (" + std::to_string(m.hidden_size) + ")",
          std::to_string(4 * m.coordinate_size + 2 * m.shape_size));
  buckets(m.rel_pos_bins, m.max_rel_pos, where, l + "rel_pos_bins", l + "max_rel_pos");
  buckets(m.rel_2d_pos_bins, m.max_rel_2d_pos, where, l + "rel_2d_pos_bins", l + "max_rel_2d_pos");
  positive(m.input_size, 4096, where, l + "input_size");
  positive(m.patch_size, m.input_size, where, l + "patch_size");
  require(m.input_size % m.patch_size == 0, where, l + "patch_size",
          "a divisor of input_size (" + std::to_string(m.input_size) + ")", std::to_string(m.patch_size));
  require(m.num_channels == 3, where, l + "num_channels", "3 (RGB tiles)", std::to_string(m.num_channels));
  eps(m.layer_norm_eps, where, l + "layer_norm_eps");
  eps(m.visual_norm_eps, where, l + "visual_norm_eps");
  dropout(m.hidden_dropout, where, l + "hidden_dropout_prob");
  dropout(m.attention_dropout, where, l + "attention_probs_dropout_prob");
  const auto& q = c.poly;
  positive(q.emb_dim, 1 << 16, where, p + "emb_dim");
  require(q.emb_dim == m.hidden_size, where, p + "emb_dim", "layoutlmv3.hidden_size (" + std::to_string(m.hidden_size) + ")",
          std::to_string(q.emb_dim));
  positive(q.num_coords, 4096, where, p + "num_coords");
  positive(q.num_hidden_layers, 1024, where, p + "bert.num_hidden_layers");
  positive(q.num_attention_heads, 1024, where, p + "bert.num_attention_heads");
  require(q.emb_dim % q.num_attention_heads == 0, where, p + "bert.num_attention_heads",
          "a divisor of emb_dim (" + std::to_string(q.emb_dim) + ")", std::to_string(q.num_attention_heads));
  positive(q.intermediate_size, 1 << 18, where, p + "bert.intermediate_size");
  require(q.max_position_embeddings >= q.num_coords + 1 && q.max_position_embeddings <= 1 << 20, where,
          p + "bert.max_position_embeddings", "at least num_coords + 1 (" + std::to_string(q.num_coords + 1) + ")",
          std::to_string(q.max_position_embeddings));
  positive(q.type_vocab_size, 1 << 16, where, p + "bert.type_vocab_size");
  eps(q.bert_layer_norm_eps, where, p + "bert.layer_norm_eps");
  eps(q.final_layer_norm_eps, where, p + "final_layernorm_eps");
  dropout(q.hidden_dropout, where, p + "bert.hidden_dropout_prob");
  dropout(q.attention_dropout, where, p + "bert.attention_probs_dropout_prob");
  eps(c.fusion_layer_norm_eps, where, "fusion_layernorm_eps");
  dropout(c.fusion_dropout, where, "fusion_dropout");
  require(std::isfinite(c.focal_alpha) && c.focal_alpha >= 0 && c.focal_alpha <= 1, where, "loss.focal_alpha", "a number in [0, 1]",
          std::to_string(c.focal_alpha));
  require(std::isfinite(c.focal_gamma) && c.focal_gamma >= 0 && c.focal_gamma <= 100, where, "loss.focal_gamma",
          "a number in [0, 100]", std::to_string(c.focal_gamma));
  positive(c.pair_hidden, 1 << 12, where, "successor_head.hidden");
  require(c.window_word_height == 0 || (std::isfinite(c.window_word_height) && c.window_word_height > 0 && c.window_word_height < 0.5),
          where, "window_word_height", "0 (no scale windows) or a fraction in (0, 0.5)", std::to_string(c.window_word_height));
  for (const DecodingSetting& s : decoding_settings())
    require(in_range(s, c.*s.field), where, s.key, s.expected, std::to_string(c.*s.field));
}

SuccessorHead parse_successor_head(const std::string& name) {
  if (name == "bilinear") return SuccessorHead::Bilinear;
  if (name == "pairwise") return SuccessorHead::Pairwise;
  throw Error("successor head: expected bilinear or pairwise, got \"" + name + "\"");
}

const char* successor_head_name(SuccessorHead h) { return h == SuccessorHead::Pairwise ? "pairwise" : "bilinear"; }

void check_max_length(int max_length, const ModelConfig& config, const std::string& where) {
  const int most = config.layoutlmv3.max_position_embeddings - config.layoutlmv3.pad_token_id - 1;
  if (max_length < 3 || max_length > most)
    throw Error(where + ": expected 3 to " + std::to_string(most) + " tokens (the model's position table holds " +
                std::to_string(config.layoutlmv3.max_position_embeddings) + "), got " + std::to_string(max_length));
}

ModelConfig preset_config(const std::string& name, int vocab_size) {
  ModelConfig c;
  c.layoutlmv3.vocab_size = vocab_size;
  if (name == "base") return c;
  auto& l = c.layoutlmv3;
  if (name == "small") {
    l.hidden_size = 256, l.num_hidden_layers = 4, l.num_attention_heads = 4, l.intermediate_size = 1024;
    l.coordinate_size = 32, l.shape_size = 64;
    c.poly.emb_dim = 256, c.poly.num_hidden_layers = 2, c.poly.num_attention_heads = 4, c.poly.intermediate_size = 1024;
    return c;
  }
  if (name == "tiny") {
    l.hidden_size = 32, l.num_hidden_layers = 1, l.num_attention_heads = 2, l.intermediate_size = 64;
    l.coordinate_size = 4, l.shape_size = 8;
    c.poly.emb_dim = 32, c.poly.num_hidden_layers = 1, c.poly.num_attention_heads = 2, c.poly.intermediate_size = 64;
    return c;
  }
  throw Error("--config: expected small, base, tiny or a config.json file, got \"" + name + "\"");
}

Modalities parse_modalities(const std::string& name) {
  if (name == "G") return Modalities::G;
  if (name == "L") return Modalities::L;
  if (name == "LI") return Modalities::LI;
  if (name == "LIG") return Modalities::LIG;
  throw Error("modalities: expected G, L, LI or LIG, got \"" + name + "\"");
}

const char* modalities_name(Modalities m) {
  switch (m) {
    case Modalities::G: return "G";
    case Modalities::L: return "L";
    case Modalities::LI: return "LI";
    default: return "LIG";
  }
}

namespace {
ModelConfig parse_model_config(const nlohmann::json& j, const std::string& path);
nlohmann::json read_json(const std::string& path) { return parse_json(read_file(path), path); }
}  // namespace

ModelConfig read_model_config(const std::string& path) { return parse_model_config(read_json(path), path); }

ModelConfig model_config_from_text(const std::string& text, const std::string& path) {
  return parse_model_config(parse_json(text, path), path);  // JsonError is a light::Error naming `path`
}

ModelConfig config_from_layoutlmv3(const std::string& path) {
  nlohmann::json hf = read_json(path);
  if (!hf.is_object()) throw Error(path + ": expected a JSON object");
  if (hf.contains("model_type") && hf["model_type"] != "layoutlmv3")
    throw Error(path + ": model_type is " + hf["model_type"].dump() + ", expected \"layoutlmv3\"");
  hf["max_position_embeddings"] = 1024;
  hf["type_vocab_size"] = 2;
  const int hidden = hf.value("hidden_size", 768);
  nlohmann::json wrapped = {{"layoutlmv3", hf}, {"poly_encoder", {{"emb_dim", hidden}}}};
  return parse_model_config(wrapped, path);
}

namespace {
ModelConfig parse_model_config(const nlohmann::json& j, const std::string& path) {
  ModelConfig c;
  if (!j.is_object()) throw Error(path + ": expected a JSON object");
  // Other top-level keys are let be (released configs carry notes of their own), but not a size that
  // belongs in a section: at the top level it would silently do nothing.
  for (const char* k : {"vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "max_position_embeddings",
                        "coordinate_size", "shape_size", "input_size", "patch_size", "emb_dim", "num_coords"})
    if (j.contains(k))
      throw Error(path + ": " + k + " at the top level does nothing: it belongs under \"layoutlmv3\" (or \"poly_encoder\")");
  // Nor a misspelt key of light's own ("baseline_priro"): the model would decode without it.
  std::vector<std::string> own_keys = {"window_word_height", "line_judge_weights", "polygon_points", "modalities", "successor_head", "layoutlmv3", "poly_encoder"};
  for (const DecodingSetting& s : decoding_settings()) own_keys.push_back(s.key);
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (std::find(own_keys.begin(), own_keys.end(), it.key()) != own_keys.end()) continue;
    if (const std::string k = eval::within_edits(it.key(), own_keys); !k.empty())
      throw Error(path + ": \"" + it.key() + "\": not a key light reads; did you mean \"" + k + "\"? (as it stands the model would go "
                  "without it)");
  }
  if (j.contains("layoutlmv3")) {
    const auto& l = j["layoutlmv3"];
    const std::string w = path + ": layoutlmv3";
    auto& m = c.layoutlmv3;
    get(l, "vocab_size", m.vocab_size, w);
    get(l, "hidden_size", m.hidden_size, w);
    get(l, "num_hidden_layers", m.num_hidden_layers, w);
    get(l, "num_attention_heads", m.num_attention_heads, w);
    get(l, "intermediate_size", m.intermediate_size, w);
    get(l, "max_position_embeddings", m.max_position_embeddings, w);
    get(l, "type_vocab_size", m.type_vocab_size, w);
    get(l, "pad_token_id", m.pad_token_id, w);
    get(l, "max_2d_position_embeddings", m.max_2d_position_embeddings, w);
    get(l, "coordinate_size", m.coordinate_size, w);
    get(l, "shape_size", m.shape_size, w);
    get(l, "rel_pos_bins", m.rel_pos_bins, w);
    get(l, "max_rel_pos", m.max_rel_pos, w);
    get(l, "rel_2d_pos_bins", m.rel_2d_pos_bins, w);
    get(l, "max_rel_2d_pos", m.max_rel_2d_pos, w);
    get(l, "train_relative_bias", m.train_relative_bias, w);
    get(l, "input_size", m.input_size, w);
    get(l, "num_channels", m.num_channels, w);
    get(l, "patch_size", m.patch_size, w);
    get(l, "layer_norm_eps", m.layer_norm_eps, w);
    get(l, "visual_norm_eps", m.visual_norm_eps, w);
    get(l, "hidden_dropout_prob", m.hidden_dropout, w);
    get(l, "attention_probs_dropout_prob", m.attention_dropout, w);
  }
  if (j.contains("poly_encoder")) {
    const auto& p = j["poly_encoder"];
    const std::string w = path + ": poly_encoder";
    get(p, "emb_dim", c.poly.emb_dim, w);
    get(p, "num_coords", c.poly.num_coords, w);
    get(p, "final_layernorm_eps", c.poly.final_layer_norm_eps, w);
    if (p.contains("bert")) {
      const auto& b = p["bert"];
      const std::string wb = w + ".bert";
      get(b, "num_hidden_layers", c.poly.num_hidden_layers, wb);
      get(b, "num_attention_heads", c.poly.num_attention_heads, wb);
      get(b, "intermediate_size", c.poly.intermediate_size, wb);
      get(b, "max_position_embeddings", c.poly.max_position_embeddings, wb);
      get(b, "type_vocab_size", c.poly.type_vocab_size, wb);
      get(b, "layer_norm_eps", c.poly.bert_layer_norm_eps, wb);
      get(b, "hidden_dropout_prob", c.poly.hidden_dropout, wb);
      get(b, "attention_probs_dropout_prob", c.poly.attention_dropout, wb);
      int hidden = c.poly.emb_dim;
      get(b, "hidden_size", hidden, wb);
      if (hidden != c.poly.emb_dim) throw Error(wb + ".hidden_size: must equal poly_encoder.emb_dim");
    }
  }
  get(j, "fusion_layernorm_eps", c.fusion_layer_norm_eps, path);
  get(j, "fusion_dropout", c.fusion_dropout, path);
  if (j.contains("loss")) {
    get(j["loss"], "focal_alpha", c.focal_alpha, path + ": loss");
    get(j["loss"], "focal_gamma", c.focal_gamma, path + ": loss");
    get(j["loss"], "focal_self_target", c.focal_self_target, path + ": loss");
    if (j["loss"].contains("link_weights")) {
      if (!j["loss"]["link_weights"].is_string()) throw Error(path + ": loss.link_weights: expected a string as \"spread=2,above=3\"");
      c.link_weights = data::parse_link_weights(j["loss"]["link_weights"].get<std::string>(), path + ": loss.link_weights");
    }
    if (j["loss"].contains("aux_losses")) {
      const auto& aux = j["loss"]["aux_losses"];
      if (!aux.is_array()) throw Error(path + ": loss.aux_losses: expected a list");
      c.losses = {false, false};
      for (const auto& a : aux) {
        if (a == "bidirection") c.losses.bidirection = true;
        else if (a == "focal") c.losses.focal = true;
        else throw Error(path + ": loss.aux_losses: unknown loss " + a.dump() + " (bidirection, focal)");
      }
    }
  }
  if (j.contains("successor_head")) {
    const auto& h = j["successor_head"];
    if (!h.is_object() || !h.contains("kind") || !h["kind"].is_string())
      throw Error(path + ": successor_head: expected {\"kind\": \"bilinear\" or \"pairwise\", \"hidden\": N}");
    try {
      c.head = parse_successor_head(h["kind"].get<std::string>());
    } catch (const Error& e) {
      throw Error(path + ": successor_head.kind: " + e.what());
    }
    get(h, "hidden", c.pair_hidden, path + ": successor_head");
    get(h, "context", c.pair_context, path + ": successor_head");
    get(h, "lettering", c.pair_lettering, path + ": successor_head");
    get(h, "lines", c.pair_lines, path + ": successor_head");
  }
  get(j, "window_word_height", c.window_word_height, path);
  for (const DecodingSetting& s : decoding_settings()) get(j, s.key, c.*s.field, path);
  if (j.contains("line_judge_weights")) {  // the names are the linker's to check (link/line_judge.h)
    const auto& w = j["line_judge_weights"];
    if (!w.is_object()) throw Error(path + ": line_judge_weights: expected an object of feature weights");
    for (auto it = w.begin(); it != w.end(); ++it) {
      if (!it.value().is_number() || !std::isfinite(it.value().get<double>()))
        throw Error(path + ": line_judge_weights." + it.key() + ": expected a finite number");
      c.line_judge_weights[it.key()] = it.value().get<double>();
    }
  }
  if (j.contains("polygon_points")) {
    if (!j["polygon_points"].is_string()) throw Error(path + ": polygon_points: expected \"resample\" or \"keep\"");
    c.polygon_points = data::parse_polygon_points(j["polygon_points"].get<std::string>(), path + ": polygon_points");
  }
  if (j.contains("modalities")) {
    if (!j["modalities"].is_string()) throw Error(path + ": modalities: expected \"G\", \"L\", \"LI\" or \"LIG\"");
    c.modalities = parse_modalities(j["modalities"].get<std::string>());
  }
  validate_config(c, path);
  return c;
}
}  // namespace

}  // namespace light::model

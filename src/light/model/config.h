// LIGHT model sizes, read from a model folder's config.json (the format of
// tests/data/parity/model/config.json: sections "layoutlmv3" and "poly_encoder"); never
// hard-coded. The defaults are the released LIGHT model's (LayoutLMv3-base + a 768/6/8 polygon BERT).
#pragma once
#include <map>
#include <string>

#include "light/data/link_weights.h"
#include "light/data/model_polygons.h"

namespace light::model {

struct LayoutLMv3Config {
  int vocab_size = 50265, hidden_size = 768, num_hidden_layers = 12, num_attention_heads = 12,
      intermediate_size = 3072, max_position_embeddings = 1024, type_vocab_size = 2, pad_token_id = 1,
      max_2d_position_embeddings = 1024, coordinate_size = 128, shape_size = 128, rel_pos_bins = 32,
      max_rel_pos = 128, rel_2d_pos_bins = 64, max_rel_2d_pos = 256, input_size = 224, num_channels = 3,
      patch_size = 16;
  double layer_norm_eps = 1e-5;
  double visual_norm_eps = 1e-6;
  double hidden_dropout = 0.1, attention_dropout = 0.1;  // training only
  // Whether training updates the relative-position bias tables. The reference never does (transformers
  // >= 4.42 gathers them without gradient: they keep layoutlmv3-base's values); a model trained from
  // scratch needs them trained, or its 1-D and 2-D relative biases stay random.
  bool train_relative_bias = false;
};

struct PolyEncoderConfig {
  int emb_dim = 768, num_coords = 32;
  int num_hidden_layers = 6, num_attention_heads = 8, intermediate_size = 3072, max_position_embeddings = 33,
      type_vocab_size = 2;
  double bert_layer_norm_eps = 1e-12;
  double final_layer_norm_eps = 1e-5;
  double hidden_dropout = 0.1, attention_dropout = 0.1;  // training only
};

// The paper's modality ablation: G = polygons only (polygon encoder + head), L = text only (no image,
// no layout, no polygons), LI = LayoutLMv3 (text, boxes, image), LIG = LIGHT (all three; the default).
enum class Modalities { G, L, LI, LIG };
Modalities parse_modalities(const std::string& name);
const char* modalities_name(Modalities m);

// The paper's loss ablation: successor cross-entropy always, plus the predecessor ("bidirection")
// cross-entropy and the focal terms when switched on (the released model: both).
struct LossSwitches {
  bool bidirection = true, focal = true;
};

// The successor head: the paper's bilinear form of two word embeddings, or (beyond the paper) that
// plus a score of each pair's geometry (model/pair_geometry.h) read with both words' embeddings.
enum class SuccessorHead { Bilinear, Pairwise };
SuccessorHead parse_successor_head(const std::string& name);
const char* successor_head_name(SuccessorHead h);

struct ModelConfig {
  LayoutLMv3Config layoutlmv3;
  PolyEncoderConfig poly;
  double fusion_layer_norm_eps = 1e-5;
  double fusion_dropout = 0.1;  // after the fused LayerNorm (training only)
  double head_layer_norm_eps = 1e-5;
  double focal_alpha = 0.25, focal_gamma = 2.0;
  // Beyond the paper: a phrase-final word's focal row takes its own entry ("no successor") as the
  // positive, as its cross-entropy does; false (released checkpoints) = the paper's focal terms, whose
  // phrase-final rows are all negatives and push "no successor" down (docs/default-model.md).
  bool focal_self_target = false;
  // Beyond the paper: the losses' rows weighed by where each word's successor lies (data/link_weights.h;
  // `loss.link_weights` in config.json, written only when not all 1, as the model was trained).
  data::LinkWeights link_weights;
  Modalities modalities = Modalities::LIG;
  LossSwitches losses;
  SuccessorHead head = SuccessorHead::Bilinear;
  int pair_hidden = 64;  // the pairwise head's hidden width
  // The pairwise head also reads each pair's context (model/light.h pair_features): right-edge
  // alignment and the pair's distance ranks among the tile's words. false (earlier checkpoints): not.
  bool pair_context = false;
  // The pairwise head also reads how alike the two words are lettered (model::pair_lettering_features):
  // `successor_head.lettering` in config.json.
  bool pair_lettering = false;
  // The pairwise head also reads where the two words' lines start and end (model::pair_line_features):
  // `successor_head.lines` in config.json.
  bool pair_lines = false;
  // Scale windows (data/scale_windows.h): the median word height as a fraction of a window's side
  // that the model was trained with; 0 (released checkpoints) = the whole tile is one frame.
  double window_word_height = 0.0;
  // Decoding (beyond the paper): each word's "no successor" probability (and "no predecessor") is
  // multiplied by this before the words claim their successors; 1 (released checkpoints) = the
  // paper's decoding. Calibrated on validation tiles for a model whose "no successor" scores run low.
  double no_successor_bias = 1.0;
  // The same factor for the words a text spotter found (a tile whose every word carries a spotter's
  // "score"; link/model_linking.h words_from): its false words and pieces of words are better left
  // alone more often. 0 (released checkpoints): no_successor_bias for every tile. Calibrated on the
  // bundled spotter's words of validation tiles (docs/default-model.md).
  double spotted_no_successor_bias = 0.0;
  // ... times (m / 50)^no_successor_exponent, m the words within a window's side around the word; and the
  // reading prior's factor on a candidate lying above the word (link/decoding_prior.h). 0 and 1
  // (released checkpoints) leave the paper's decoding.
  double no_successor_exponent = 0.0;
  double reading_prior_above = 1.0;
  double reading_prior_next_line = 1.0;  // the factor on a candidate on the line below (1: none)
  double alignment_prior = 1.0;  // next-line candidates whose lines line up times this, others over it (link/line_alignment.h)
  double baseline_prior = 1.0;   // spread candidates on the word's baseline times this, others over it (likewise)
  // Candidates outside the window a word is most central in, read in another window that holds both,
  // times this (data::WindowMerge); 0 (released checkpoints): the most central window's words only.
  double other_window_prior = 0.0;
  // What "on the baseline" allows two spotted words (spotted_no_successor_bias's tiles): heights within
  // this in log, the chord within these degrees (link/line_alignment.h BaselineTolerance); 0: as drawn
  // words (0.05, 3 degrees). A spotter's outline heights err by some 10 % either way, its centres by a
  // little: the test made for drawn outlines leaves most spotted spread names apart (docs/notes/2026-11-spotter.md).
  double spotted_baseline_log_height = 0.0;
  double spotted_baseline_degrees = 0.0;
  // The line judge (link/line_judge.h): its fitted weights by feature, and the factor they are taken
  // at; 0 (released checkpoints) = no judge: the alignment and baseline priors read the first decoding.
  std::map<std::string, double> line_judge_weights;
  double line_judge = 0.0;
  // The same factor for a text spotter's words (link/model_linking.h words_from); 0: their alignment
  // and baseline priors (a judge fitted on annotated words weighs a spotter's pieces of words wrongly).
  double spotted_line_judge = 0.0;
  double figure_prior = 1.0;     // a bare figure's candidate successor that is a bare figure too times this (1: none)
  double lettering_prior = 1.0;  // next-line and spread candidates lettered alike times this, others over it (1: none)
  // The words' polygons as the linker reads them: at this share of their height, about their middle
  // (data::polygons_at_height; windows, model and priors alike), the output keeping them as they came.
  // 1 (released checkpoints): as given. The bundled model links better reading thinner ones (docs/default-model.md).
  double polygon_height = 1.0;
  // How word polygons reach the polygon encoder (data/model_polygons.h): keep (released checkpoints:
  // the reference's first 16 points) or resample (models trained here: 16 points along the outline).
  data::PolygonPoints polygon_points = data::PolygonPoints::Keep;

  int visual_tokens() const {
    const int g = layoutlmv3.input_size / layoutlmv3.patch_size;
    return g * g + 1;
  }
};

// Reads config.json; missing keys keep the defaults above; wrong types or inconsistent sizes are a
// light::Error naming the file and the key.
ModelConfig read_model_config(const std::string& path);
// The same from the file's text (`path` names it in errors).
ModelConfig model_config_from_text(const std::string& text, const std::string& path);
// Every field in range (positive sizes, heads dividing widths, patch_size dividing input_size,
// eps > 0, ...); light::Error "WHERE: FIELD: expected ..., got ..." otherwise. read_model_config calls it.
void validate_config(const ModelConfig& config, const std::string& where);
// --max-length fits the model's position table: 3 <= L <= max_position_embeddings - pad_token_id - 1.
void check_max_length(int max_length, const ModelConfig& config, const std::string& where = "--max-length");

// Writes a model folder's config.json (the format read_model_config reads).
void write_model_config(const std::string& path, const ModelConfig& config);

// Named sizes: "base" = the released LIGHT model; "small" = a 256-wide model that trains on a laptop
// CPU (4 LayoutLMv3 layers, 2 polygon layers); "tiny" = for tests. `vocab_size` comes from the tokenizer.
ModelConfig preset_config(const std::string& name, int vocab_size);

// The LIGHT sizes for a Hugging Face LayoutLMv3 folder's (flat) config.json: its LayoutLMv3 sizes, with
// 1024 positions and 2 token types as LIGHT builds the backbone, and the default polygon encoder.
ModelConfig config_from_layoutlmv3(const std::string& hf_config_path);

}  // namespace light::model

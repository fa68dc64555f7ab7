// LIGHT (LightTextLinking): LayoutLMv3 whose text embeddings are fused with polygon embeddings, and a
// linking head that scores, for every pair of words (i, j), whether j follows i. Module names mirror
// the released checkpoint: light.{embeddings, patch_embed, cls_token, pos_embed, LayerNorm, norm,
// encoder, poly_encoder, poly_layer_norm}, token_encoder, predecessor_mlp, successor_mlp.
#pragma once
#include <torch/torch.h>

#include <vector>

#include "light/data/inputs.h"
#include "light/model/config.h"
#include "light/model/layoutlmv3.h"
#include "light/model/poly_encoder.h"
#include "light/model/predictor.h"

namespace light::model {

struct LightModelImpl : torch::nn::Module {
  explicit LightModelImpl(const ModelConfig& c);
  LayoutLMv3TextEmbeddings embeddings{nullptr};
  PatchEmbed patch_embed{nullptr};
  torch::Tensor cls_token, pos_embed;
  torch::nn::LayerNorm LayerNorm{nullptr}, norm{nullptr}, poly_layer_norm{nullptr};
  LayoutLMv3Encoder encoder{nullptr};
  PolyEncoder poly_encoder{nullptr};
};
TORCH_MODULE(LightModel);

struct MLPImpl : torch::nn::Module {  // layers = Linear, ReLU, Linear[, ReLU, Linear]
  MLPImpl(int hidden, int linears);
  explicit MLPImpl(const std::vector<int>& sizes);  // Linear(sizes[0], sizes[1]), ReLU, Linear(sizes[1], sizes[2]), ...
  torch::Tensor forward(const torch::Tensor& x) { return layers->forward(x); }
  torch::nn::Sequential layers{nullptr};
};
TORCH_MODULE(MLP);

struct TokenEncoderImpl : torch::nn::Module {
  TokenEncoderImpl(int hidden, double eps);
  torch::Tensor forward(const torch::Tensor& x) { return layer_norm(mlp(x)); }
  MLP mlp{nullptr};
  torch::nn::LayerNorm layer_norm{nullptr};
};
TORCH_MODULE(TokenEncoder);

// A batch of tiles, text trimmed or padded to T tokens (pads: attention_mask 0).
// Random initialisation as the reference's model gets it (Hugging Face LayoutLMv3 _init_weights over
// LightModel: Linear, Conv2d and Embedding weights N(0, 0.02), biases 0, padding rows 0, LayerNorm 1/0).
void init_like_reference(LightModelImpl& light, int64_t pad_token_id);
// One module as Hugging Face's _init_weights leaves it (initializer_range 0.02): Linear and Conv2d
// weights N(0, 0.02) with zero biases, Embedding rows N(0, 0.02), LayerNorm 1 and 0; other modules
// untouched (children are not visited).
void init_module_like_hugging_face(torch::nn::Module& module);
// The four 2-D layout tables of the text embeddings (x, y, height, width: row = coordinate on the
// 0..1000 scale) set to sinusoids, as a transformer's position code: column pair (2k, 2k+1) of row r
// holds amplitude * (sin, cos)(r / 10000^(2k/d)) (an odd last column stays as it is). For training
// from random weights: a random table has no notion that coordinate 500 is next to 501, while under
// sinusoids a bilinear form of two rows reads their offset from the first step.
void init_layout_tables_sinusoid(LightModelImpl& light, double amplitude = 0.1);

struct Batch {
  torch::Tensor input_ids, bbox, attention_mask, polygons, pixel_values;  // [B,T] [B,T,4] [B,T] [B,T,32] [B,3,s,s]
  std::vector<torch::Tensor> first_token_indices;  // per tile: [N] positions of each word's first token
  std::vector<torch::Tensor> word_labels;          // per tile: [N] labels (for the losses; may be empty)
  // per tile: [N] 1 where the word's successor (next_outside) / predecessor (prev_outside) lies outside
  // the window: the losses leave those rows out (may be empty: none does).
  std::vector<torch::Tensor> next_outside, prev_outside;
  // per tile: each word's successor (next_weight) / predecessor (prev_weight) row's weight in the
  // losses (data::link_row_weights, on the CPU; empty when the config's link_weights are all 1).
  std::vector<std::vector<float>> next_weight, prev_weight;
  // per tile: [N, 5] each word's reading frame in units of the frame's height: start x, y, end x, y,
  // height (model/pair_geometry; filled for a pairwise head only).
  std::vector<torch::Tensor> word_frames;
  // per tile: [N, 4] each word's lettering as its window shows it: the ink (the mean colour of the
  // darkest fifth of its box in the window's pixels, RGB 0-1) and its case (text::LetterCase as a
  // number; filled for a head that reads lettering, ModelConfig::pair_lettering).
  std::vector<torch::Tensor> word_lettering;
  // per tile: [N, 4] the ends of the line each word stands on, in word_frames' units: start x, y, end x,
  // y (geometry::line_ends; filled for a head that reads lines, ModelConfig::pair_lines).
  std::vector<torch::Tensor> word_lines;
};

// A batch from tiles' model inputs (data::layout_tokens, or a prepared inputs file) and their pixel
// values ([3, S, S] each, S the config's input_size): every tile cut to the batch's longest run of real
// tokens (at least `pad_to`), each word's first-token index (entries of -999 skipped), and, with
// `labels`, each word's label for the losses (kept on the CPU). Sizes are taken from the config and
// checked: a tile with other pixel or polygon sizes is a light::Error, never a read past its end.
struct BatchOptions {
  bool labels = true;
  int64_t pad_to = 0;
};
Batch make_batch(const std::vector<const data::TileInputs*>& tiles, const std::vector<const std::vector<float>*>& pixels,
                 const ModelConfig& config, torch::Device device, const BatchOptions& options = {});

struct TileOutputs {
  torch::Tensor first_token_hidden, word_embeddings, logits, bi_logits, probs, bi_probs;  // [N,H] [N,H] [N,N]...
  torch::Tensor base_loss, bidirection_loss, focal_loss;  // scalars (defined when labels were given)
  torch::Tensor focal_successor_loss;                     // the successor half of focal_loss
  // The training loss under the given switches, as the paper's Table 3: base, + bidirection (the
  // predecessor CE), + focal (the successor focal term; both focal terms with bidirection).
  torch::Tensor total_loss(const LossSwitches& s) const;
};

// A tile's probs and bi_probs as plain arrays (on the CPU).
SuccessorProbs successor_probs(const TileOutputs& tile);

struct Outputs {
  torch::Tensor text_embeddings, poly_embeddings, fused_embeddings, visual_embeddings, encoder_input, final_hidden_text;
  std::vector<torch::Tensor> layers;  // each encoder layer's output (when asked for)
  std::vector<TileOutputs> tiles;
};

// The trunk every LIGHT model shares: each distinct polygon encoded once (or per token slot when
// `encode_distinct_polygons` is false), fused with the text embeddings, the visual tokens appended,
// and the LayoutLMv3 encoder run (dropout when `m` is training). Fills out's embeddings (and layers)
// and returns the final states of all tokens, [B, T + V, H] (text first, then the visual CLS and the
// patches); for G, the polygon embeddings [B, T, H]; for L, [B, T, H]. With `last_rows` [B, W]
// (token indices), the last layer computes those rows' states alone and returns [B, W, H]: the same
// values, the queries, attention and feed-forward of every other token skipped.
torch::Tensor encode_sequence(LightModelImpl& m, const ModelConfig& config, const Batch& b, Outputs& out, bool keep_layers = false,
                              bool encode_distinct_polygons = true, const torch::Tensor& last_rows = {});

// Beyond the paper: a score for every ordered pair of words (i, j) from the pair's geometry, read
// with both words' embeddings: relu(geometry(phi_ij) + from(e_i) + to(e_j)) -> out, a scalar.
struct PairScoreImpl : torch::nn::Module {
  PairScoreImpl(int hidden, int pair_hidden, int features);
  // phi [N, N, F], e [N, H] -> [N, N]
  torch::Tensor forward(const torch::Tensor& phi, const torch::Tensor& e);
  torch::nn::Linear geometry{nullptr}, from{nullptr}, to{nullptr}, out{nullptr};
};
TORCH_MODULE(PairScore);

// The pair features phi_ij of words with reading frames [N, 5] (Batch::word_frames): in word i's own
// frame (along its reading direction, across it), scaled by i's height and signed-log compressed, the
// offsets of j's start from i's end, of j's centre from i's centre, and of j's start from i's start;
// log height ratio; cosine and sine of the angle between the two directions; j's length over i's
// height (log); and 1 on the diagonal. [N, N, kPairFeatures].
//
// With `context` (ModelConfig::pair_context), kPairContextFeatures: also the offset of j's end from
// i's end (right-aligned lines), and where the pair stands among the tile's words: log(1 + rank) of j
// among i's candidates and of i among j's, by the distance between centres and by the distance from
// i's end to j's start, in units of i's height (0: the nearest). A name's second line is the nearest
// line start below its first line's end from both sides; an unrelated label below often is not.
inline constexpr int kPairFeatures = 11;
inline constexpr int kPairContextFeatures = 17;
torch::Tensor pair_features(const torch::Tensor& frames, bool context = false);

// How alike words i and j are lettered, from Batch::word_lettering [N, 4]: the distance between their
// inks (RGB, 0-1), 1 when they share a case (figures share any), and 1 when both have letters.
// [N, N, kPairLetteringFeatures]. A name's lines keep one lettering; the label below mostly has
// another (docs/default-model.md, "Lettering").
inline constexpr int kPairLetteringFeatures = 3;
torch::Tensor pair_lettering_features(const torch::Tensor& lettering);
// Where words i and j stand on their lines, from their frames [N, 5] and their lines' ends [N, 4]
// (Batch::word_lines): in i's frame, in i's heights and signed-log compressed as pair_features' offsets,
// the offsets of j's line start from i's line start, of j's line centre from i's line centre and of
// j's line end from i's line end; how far i's end stands before its line's end (0: i ends its line) and
// j's start after its line's start (0: j begins its line), along each word's own axis in its heights.
// [N, N, kPairLineFeatures]. A name's second line is centred, left- or right-aligned on its first, or
// indented or staggered against it: its lines say so where a word of several on a line cannot.
inline constexpr int kPairLineFeatures = 8;
torch::Tensor pair_line_features(const torch::Tensor& frames, const torch::Tensor& lines);
// The pairwise head's input width for a config: the geometry, the context's and the lettering's.
int pair_feature_count(const ModelConfig& c);

struct LightTextLinkingImpl : torch::nn::Module {
  explicit LightTextLinkingImpl(const ModelConfig& c);
  // Eval-mode forward. Polygons are encoded once per distinct polygon (identical results). words_only:
  // the last layer runs for the words' first tokens alone, all the head reads (same links, less work;
  // final_hidden_text is then left empty).
  Outputs forward(const Batch& batch, bool keep_layers = false, bool words_only = false);
  LightModel light{nullptr};
  // false: run the polygon encoder on every token slot as the reference does (benchmarks only).
  bool encode_distinct_polygons = true;
  TokenEncoder token_encoder{nullptr};
  MLP predecessor_mlp{nullptr}, successor_mlp{nullptr};
  PairScore successor_pair{nullptr}, predecessor_pair{nullptr};  // a pairwise head only
  ModelConfig config;
};
TORCH_MODULE(LightTextLinking);

// Successor / predecessor targets from word labels (docs/reference-notes.md §1.10): t_next[i] = the word
// labelled (g, s+1) if present, else i; t_prev likewise with (g, s-1).
void link_targets(const std::vector<int64_t>& labels, std::vector<int64_t>& next, std::vector<int64_t>& prev);

// The paper's losses on one tile: successor cross-entropy, predecessor ("bidirection")
// cross-entropy, and 100 x the focal loss in both directions (gamma, alpha on the diagonal).
// Rows marked in next_outside (successor) or prev_outside (predecessor) are left out of that
// direction's terms (a window's words whose neighbour lies beyond it); empty vectors mark none.
// focal_self_target (beyond the paper): a word without a successor (predecessor) has its own entry
// as the focal positive, as in the cross-entropy, instead of a row of negatives only.
// next_weight / prev_weight (beyond the paper; empty: every row 1): each row's weight, scaled so that
// the kept rows' weights sum to their number (the terms keep the paper's scale): the cross-entropy is
// the rows' weighted mean, the focal terms' rows are multiplied by their weights.
struct RowWeights {
  std::vector<uint8_t> next_outside, prev_outside;
  std::vector<float> next_weight, prev_weight;
};
void link_losses(const torch::Tensor& logits, const torch::Tensor& bi_logits, const std::vector<int64_t>& labels,
                 double alpha, double gamma, TileOutputs& out, const RowWeights& rows = {}, bool focal_self_target = false);

}  // namespace light::model

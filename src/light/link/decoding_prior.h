// Beyond the paper: what the decoder adds to the model's successor rows before the words claim their
// successors (decode.h), each part calibrated on tiles of their own and written in the model's
// config.json (docs/default-model.md "How it decodes"; how each was chosen: docs/notes/2026-11-default-model.md). The defaults leave
// the rows as the model gave them: the paper's decoding, as released checkpoints expect.
//
// - The "no successor" factor: each word's own entries ("no successor", "no predecessor") times
//   no_successor_bias x (m / kBiasWindowWords)^no_successor_exponent, m the words around it: those a
//   window of the trained scale centred on it (moved inside the tile) holds, itself included. A model
//   whose "no successor" scores run low needs a factor above 1; how far above depends on how many
//   words share the window's softmax.
//   Counted around each word, not per window read, so that a tile and the whole map it was cut from
//   give a word the same factor whatever windows cover them.
// - The reading prior: a phrase reads along its line and on to the line below, so a candidate lying
//   above the word, in the word's own reading frame, is rarely its successor; its entry is multiplied
//   by `above` (and likewise, in the predecessor rows, a candidate lying below). A candidate on the
//   line below (its centre 0.75-3 of the word's heights below the word's centre line: a name set on
//   two lines goes on there) is multiplied by `next_line` (in the predecessor rows: one on the line
//   above).
// - The lettering prior: a candidate on the line below or spread along the line (more than 2 heights
//   of white away) is multiplied by `lettering` when it is lettered as the word is (lettering.h: ink,
//   height, case), and divided by it when it is not.
// - The figure prior (apply_figure_prior): a bare figure's candidate that is a bare figure too
//   (house numbers in a row) times `figures`.
// - The alignment and baseline priors (line_alignment.h) read the lines of a first decoding: they
//   are applied to the rows that come out of this one, and the rows decoded again.
#pragma once
#include <string>
#include <vector>

#include "light/data/sparse_rows.h"
#include "light/geometry/link_class.h"
#include "light/geometry/polygon.h"
#include "light/link/lettering.h"
#include "light/link/line_alignment.h"
#include "light/maptext.h"

namespace light::link {

// The words around a word at which the "no successor" factor is no_successor_bias itself.
inline constexpr double kBiasWindowWords = 50.0;
// "Above": the candidate's centre more than this many of the word's heights beyond the line through
// the word's centre along its reading direction (a curved label's next word rises less than this).
inline constexpr double kAboveRise = geometry::kNextLineAcross;  // 0.75, as the link classes
// "The line below": a candidate's centre between kAboveRise and this many heights below.
inline constexpr double kNextLineDrop = 3.0;

struct DecodingPrior {
  double no_successor_bias = 1.0;
  double no_successor_exponent = 0.0;
  double above = 1.0;
  double next_line = 1.0;
  double lettering = 1.0;
  double figures = 1.0;    // apply_figure_prior
  double alignment = 1.0;  // line_alignment.h: applied after a first decoding (apply_line_alignment)
  double baseline = 1.0;   // likewise
  BaselineTolerance baseline_tolerance;  // what the baseline prior takes as on one baseline
  bool line_judge = false;  // a line judge (line_judge.h) reads the frames and the lettering after the first decoding
  bool is_identity() const {
    return no_successor_bias == 1.0 && no_successor_exponent == 0.0 && above == 1.0 && next_line == 1.0 && lettering == 1.0;
  }
  bool needs_frames() const {
    return above != 1.0 || next_line != 1.0 || no_successor_exponent != 0.0 || lettering != 1.0 || alignment != 1.0 || baseline != 1.0 ||
           line_judge;
  }
};

// Where a candidate lies for the priors that weigh the line below and words spread along the line
// (the lettering prior here, the alignment and baseline priors of line_alignment.h): `o` is its
// offset from the word (geometry/link_class.h). The line below: its centre 0.75-3 of the word's
// heights below; spread: on the word's line (within 0.75 heights across) with more than 2 heights of
// white between them.
enum class CandidatePlace { Other, LineBelow, Spread };
inline CandidatePlace candidate_place(const geometry::LinkOffset& o) {
  if (o.across > kAboveRise && o.across <= kNextLineDrop) return CandidatePlace::LineBelow;
  if (o.across >= -kAboveRise && o.across <= kAboveRise && o.gap > geometry::kSpreadGap) return CandidatePlace::Spread;
  return CandidatePlace::Other;
}

// Each model word's reading frame: that of flatten(tile)[sources[k]]; none when the prior needs none
// (above and next_line 1, exponent 0).
std::vector<geometry::ReadingFrame> reading_frames(const maptext::Tile& tile, const std::vector<size_t>& sources,
                                                   const DecodingPrior& prior);

// For each frame, how many frames' centres (the midpoint of start and end) lie in the square window
// of `side` centred on its own, moved inside the width x height tile as inference windows lie (along
// an axis where the tile is no longer than a side, the window spans the tile), itself included: a
// word by the tile's edge counts a whole window's words, as the window the model reads it in holds.
// side <= 0 or infinite: every frame.
std::vector<size_t> words_around(const std::vector<geometry::ReadingFrame>& frames, double side, double width, double height);

// How far (in `from`'s heights) the centre of `to` lies below the centre of `from`, across `from`'s
// reading direction (negative: above). 0 for a frame of no length or height.
double rise_below(const geometry::ReadingFrame& from, const geometry::ReadingFrame& to);

// The factor on the "no successor" entry of a word whose row holds m words.
double no_successor_factor(const DecodingPrior& prior, size_t m);

// Whether a word's text is a bare figure ("7", "125"): house and lot numbers, which real sheets set in
// rows along a block front, each a phrase of its own. No phrase of data/real or of the synthetic test
// sets joins two of them, while the model, which never saw such rows, chained them (docs/default-model.md).
bool bare_figure(const std::string& text);

// Each candidate link from a bare figure to a bare figure (is_figure[k] for model word k) times
// `factor`, in the successor rows and the predecessor rows. light::Error when the sizes disagree.
void apply_figure_prior(data::SparseRows& probs, data::SparseRows& bi_probs, const std::vector<char>& is_figure, double factor);

// Applies `prior` to the rows: probs(i, j) (j follows i) and bi_probs(i, j) (j precedes i).
// frames[k]: model word k's reading frame (reading_frames); `window_side`: the side, in the frames'
// pixels, of a window at the model's trained scale (data::window_side; 0 for a model that reads whole
// tiles: every word is then around every other), on a width x height tile; `lettering[k]` model word
// k's lettering (needed when prior.lettering is not 1). light::Error when the sizes disagree.
void apply_decoding_prior(data::SparseRows& probs, data::SparseRows& bi_probs, const std::vector<geometry::ReadingFrame>& frames,
                          double window_side, double width, double height, const DecodingPrior& prior,
                          const std::vector<Lettering>* lettering = nullptr);

}  // namespace light::link

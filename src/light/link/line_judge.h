// The line judge: a learned weighing of the model's successor rows by how the candidate lies against
// the word's line and the line below, in place of hand-set factors (the alignment and baseline priors
// of line_alignment.h assume a name's lines line up; on real sheets 40 % of stacked names do not).
//
// After a first decoding (whose same-line links give the lines), each candidate successor j of word
// i whose entry is at least kJudgedShare of the row's largest is multiplied by exp(w . f(i, j)), and
// i's own entry ("no successor") by exp(w . f(i, i)); the same factor goes on the predecessor entry
// Q(j, i). The features f (kJudgeFeatures, each in about [0, 1]) say where j lies (the link classes of
// geometry/link_class.h), and by class: how far the two lines' ends are apart, whether i ends its line
// and j starts its own, the drop, the height ratio, the turn, the chord's angle to the words'
// directions, whether the two are lettered alike, and what the predecessor rows and the first decoding
// said. The weights w are fitted (scripts/fit-line-judge.py) to the rows of tiles whose phrases are
// known (`light link --judge-rows`): a softmax over each row's judged entries, with the rows'
// log-probabilities as offsets, so that w = 0 leaves the decoding as it was. They live in the model's
// config.json ("line_judge_weights", taken at the decoding setting "line_judge").
#pragma once
#include <array>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "light/data/sparse_rows.h"
#include "light/geometry/polygon.h"
#include "light/link/lettering.h"
#include "light/link/line_alignment.h"
#include "light/maptext.h"

namespace light::link {

inline constexpr std::array<const char*, 41> kJudgeFeatures = {
    // where j lies (successor entries)
    "near", "backwards", "spread", "next_line", "far_below", "above",
    // on the line below (0.75-3 heights)
    "next_aligned", "next_offset", "next_free_ends", "next_ends", "next_starts", "next_drop", "next_log_height", "next_turn", "next_alike",
    "next_along",
    // spread along the line (more than 2 heights of white)
    "spread_on_baseline", "spread_free_ends", "spread_log_gap", "spread_log_height", "spread_chord", "spread_alike",
    // above the word's line (a name along a bend)
    "above_free_ends", "above_log_distance", "above_chord", "above_turn", "above_log_height", "above_alike",
    // any class
    "first_choice", "predecessor_view", "claimed_by_other",
    // the word's own entry: no successor
    "end", "end_inside_line", "end_first_choice",
    // the entry's own log-probability by class (a temperature per class), and more of the line below
    "next_log_p", "spread_log_p", "above_log_p", "end_log_p", "next_overlap", "top_word", "next_nearest"};
inline constexpr size_t kJudgeFeatureCount = kJudgeFeatures.size();
// Entries below this share of their row's largest are not judged (nor written for fitting).
inline constexpr float kJudgedShare = 1e-3f;

// The weights, by feature name; absent features weigh 0.
struct LineJudge {
  std::array<double, kJudgeFeatureCount> weights{};
  bool empty() const;
  // From config.json's "line_judge_weights", each times `scale`; `where` names it in errors (a feature
  // the judge does not have).
  static LineJudge from_weights(const std::map<std::string, double>& weights, double scale, const std::string& where);
};

// What the features read besides the rows: the words' frames and lettering, and the lines of a first
// decoding (make_judge_context).
struct JudgeContext {
  const std::vector<geometry::ReadingFrame>* frames = nullptr;
  const std::vector<Lettering>* letters = nullptr;  // empty or null: the "alike" features 0
  BaselineTolerance tolerance;                      // what "on the baseline" allows (a spotter's words: their own)
  std::vector<int> successors;                      // the first decoding's (i: none)
  std::vector<int> line;                            // each word's line (geometry::lines_of)
  std::vector<std::vector<int>> members;            // each line's words
  std::vector<char> ends, starts;                   // a line's last word, a line's first word
  std::vector<int> claimed_by;                      // the word whose first-decoding successor this is (-1: none)
};
JudgeContext make_judge_context(const std::vector<geometry::ReadingFrame>& frames, const std::vector<Lettering>* letters,
                                std::vector<int> successors, const BaselineTolerance& tolerance = {});

// The features of entry (i, j) (j == i: "no successor"), with P and Q the rows being judged.
std::array<float, kJudgeFeatureCount> judge_features(const JudgeContext& ctx, const data::SparseRows& P, const data::SparseRows& Q, int i,
                                                     int j);

// Applies the judge to P and Q (see above). light::Error when the sizes disagree.
void apply_line_judge(data::SparseRows& P, data::SparseRows& Q, const JudgeContext& ctx, const LineJudge& judge);

// Each model word's true successor by the tile's phrases (itself: the phrase ends; -1: the next word is
// not a model word); sources[k] is model word k's index among the tile's words in order.
std::vector<int> true_successors(const maptext::Tile& tile, const std::vector<size_t>& sources);

// The first line of a rows file: {"features": [the names, in the rows' order after log P]}.
std::string judge_rows_header();

// For fitting: one JSON line per word whose true successor (truth[i]; i: none; -1: unknown) is among
// its judged entries: {"truth": index into "rows", "rows": [[log P, f...], ...]}.
void write_judge_rows(std::ostream& out, const data::SparseRows& P, const data::SparseRows& Q, const JudgeContext& ctx,
                      const std::vector<int>& truth);

}  // namespace light::link

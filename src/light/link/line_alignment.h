// Whether a word's line and the line below it line up, and whether a word far along its line sits on
// its baseline: the alignment and baseline priors of the decoding.
//
// A name set on two or more lines is set as a block: its lines start together, end together or
// share a centre (left-, right-aligned or centred). An unrelated label below mostly does none of
// these, so whether the lines line up tells a name's next line from a label below where the model's
// own scores do not.
//
// The lines are those of a first decoding: the words joined by its same-line links (neither on the
// next line nor above, geometry/link_class.h). Seen from word i, on the direction of its own reading
// frame, its line spans [lo_i, hi_i] (the projections of its words' frame ends); likewise the line of
// the candidate j below. They line up when min(|lo_i - lo_j|, |hi_i - hi_j|, |mid_i - mid_j|) is at
// most geometry::kAlignedEnds of i's heights (geometry::lines_of, geometry::line_end_offset).
//
// A name spread along its line (more than 2 heights of white between its words) keeps one height and
// one baseline, straight or curved (along a river or a road, each word at its own angle); the word that
// happens to lie further along mostly does not. "On the baseline": heights within kBaselineLogHeight
// (in log), the reading directions within kBaselineTurnDegrees, and the chord between the two centres
// within kBaselineDegrees of the mean of the two directions (as on a straight line or a circular arc:
// a straight baseline alone lowered the right links of names set along a curve).
//
// Only a line's last word and a line's first word (in the first decoding) are raised toward each other;
// a word inside a line keeps the link the model gave it (raising every aligned candidate cost near
// links). How often each test holds for true and false links, and the factors tried:
// docs/notes/2026-11-default-model.md, "Lines that line up".
#pragma once
#include <vector>

#include "light/data/sparse_rows.h"
#include "light/geometry/line_chains.h"
#include "light/geometry/polygon.h"

namespace light::link {

inline constexpr double kBaselineLogHeight = 0.05;
inline constexpr double kBaselineTurnDegrees = 30.0;
inline constexpr double kBaselineDegrees = 3.0;

// How closely two words must agree to be on one baseline: heights within `log_height` (in log), the
// chord within `degrees` of the two directions' mean. Drawn outlines agree to the pixel (the k
// constants); a spotter measures each word's outline with an error of its own (its height some 10 %
// either way: docs/notes/2026-11-spotter.md), and a model may give wider ones for spotted words
// (config.json spotted_baseline_log_height, spotted_baseline_degrees).
struct BaselineTolerance {
  double log_height = kBaselineLogHeight;
  double degrees = kBaselineDegrees;
  bool operator==(const BaselineTolerance& o) const { return log_height == o.log_height && degrees == o.degrees; }
  bool operator!=(const BaselineTolerance& o) const { return !(*this == o); }
};

struct LinePriors {
  double alignment = 1.0;  // a next-line candidate whose line lines up times this, one whose line does not over it
  double baseline = 1.0;   // a spread candidate on the word's baseline times this, one off it over it
  BaselineTolerance tolerance;  // what "on the baseline" allows
};

// Whether `to` sits on from's baseline (see above; its offset from `from` need not be a spread one).
bool on_baseline(const geometry::ReadingFrame& from, const geometry::ReadingFrame& to, const BaselineTolerance& tolerance = {});

// Each next-line candidate (its centre 0.75-3 of the word's heights below, as the reading prior's line
// below) whose line does not line up with the word's is divided by priors.alignment; one whose line
// does is multiplied by it when the word ends its line and the candidate starts its own. Likewise each
// spread candidate (on the line, more than 2 heights of white away) by priors.baseline: divided when
// off the word's baseline, multiplied when on it and the two are a line's end and a line's start. In
// the predecessor rows the same, seen from the candidate. Words of one line are left alone on the
// line below. `successors`: the first decoding's (successors[i] == i: none).
void apply_line_alignment(data::SparseRows& probs, data::SparseRows& bi_probs, const std::vector<geometry::ReadingFrame>& frames,
                          const std::vector<int>& successors, const LinePriors& priors);

}  // namespace light::link

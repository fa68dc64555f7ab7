// The lines of text a tile's words stand on, found from their reading frames alone: a word and the
// next word on its baseline (ahead along its axis, no farther than a word gap, about as tall, turned
// little) are chained, each word to at most one on either side, both choosing each other. A chain's
// first word's start and last word's end are the line's ends.
//
// The linker's pairwise head reads where two words' lines start and end (model::pair_line_features):
// a name set on two lines is judged by its lines, centred, indented or staggered, where a word's own
// ends say little about a line of several words.
#pragma once
#include <vector>

#include "light/geometry/polygon.h"

namespace light::geometry {

// The limits of a chain step, in the first word's heights (degrees for the turn).
struct LineChaining {
  double across = 0.4;    // the next word's centre off the baseline, at most
  double gap = 1.5;       // the white between the two words, at most (a spread name is not one line)
  double overlap = 0.5;   // the words may overlap this much
  double log_height = 0.36;  // |log(height ratio)|, at most (0.7-1.43)
  double degrees = 15;    // the turn between the two words' directions, at most
};

struct LineEnds {
  Point start, end;  // the line's first word's start, its last word's end
};

// For each word, the ends of the line it stands on (its own ends when it stands alone).
std::vector<LineEnds> line_ends(const std::vector<ReadingFrame>& frames, const LineChaining& limits = {});

// The lines of a decoding, or of the truth: each word's line, words joined by the same-line links of
// `successors` (neither on the next line nor above, geometry/link_class.h; successors[i] == i: none)
// sharing a number, 0 up; frames[k] is word k's reading frame.
std::vector<int> lines_of(const std::vector<int>& successors, const std::vector<ReadingFrame>& frames);

// Where a line's words (members, indices into frames) begin and end along `along`'s reading direction,
// in pixels from the origin's projection; {0, 0} for a frame of no length.
struct LineSpan {
  double lo = 0, hi = 0;
};
LineSpan line_span(const ReadingFrame& along, const std::vector<int>& line, const std::vector<ReadingFrame>& frames);

// How far apart, in from's heights, the nearest ends (left, right or centre) of line a and line b
// lie along from's reading direction (members: the words of each line); infinite for a frame of no
// length or height. Two lines "line up" within kAlignedEnds: a name set as a block on two lines is
// left-, right-aligned or centred.
inline constexpr double kAlignedEnds = 0.3;
double line_end_offset(const ReadingFrame& from, const std::vector<int>& a, const std::vector<int>& b,
                       const std::vector<ReadingFrame>& frames);

}  // namespace light::geometry

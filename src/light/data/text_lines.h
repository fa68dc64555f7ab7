// The text lines of a phrase, as a text spotter's detector finds them: consecutive words of the phrase
// that run on along one baseline (the next word starts close after the previous one ends, on the same
// line, at nearly the same angle and height). The spotter's recogniser reads such lines, spaces
// included, and learns from them (train/recognizer_training).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "light/maptext.h"

namespace light::data {

// 16-point word polygons (geometry::resample_word_polygon) of a phrase's words in reading order ->
// runs [first, last] of words on one line. The next word belongs to the line when, in the previous
// word's reading frame (geometry::link_offset, in its heights), it lies ahead with at most `max_gap` of
// white between them and its centre at most half a height above or below, the two reading directions
// within 25 degrees and the heights within a factor 1.5.
struct LineRun {
  size_t first = 0, last = 0;
};
std::vector<LineRun> same_line_runs(const std::vector<std::vector<maptext::Point>>& words, double max_gap = 2.0);

// One polygon around a run of 16-point word polygons, in the same convention (the lower edges in reading
// order, then the upper edges back: 16 x n points), grown by `across` heights above and below and by
// `along` heights before the first word and after the last (0 and 0: the words' own outline).
std::vector<maptext::Point> line_polygon(const std::vector<std::vector<maptext::Point>>& words, double across = 0.0, double along = 0.0);

}  // namespace light::data

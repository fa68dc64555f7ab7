// From a text detector's probability map to text lines, the spotter's first stages: db_boxes, DB's
// post-processing as PaddleOCR does it (threshold, connected outlines, each outline's minimum-area
// rectangle scored by the mean probability inside it, then grown back by the shrink the detector was
// trained with), each box's corners put in reading order; then, as their settings ask (0: not run),
// bend (curved edges, from each outline's kernel), spaced_letters and line_pieces (joined_lines.cpp).
// The merges of the enlarged, small-lettering and turned readings are here too.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "light/maptext.h"

namespace light::spot {

struct TextBox {
  // start-top, end-top, end-bottom, start-bottom: the line reads from the first corner to the second.
  std::array<maptext::Point, 4> corners;
  double score = 0;  // mean probability inside the outline (or its rectangle; TextBoxOptions::score_outline)
  // A line set along a curve: its upper and lower edges (8 points each, from its start to its end)
  // following the lettering (TextBoxOptions::bend). Empty for a straight line: the corners are its edges.
  std::vector<maptext::Point> upper, lower;
  // Found only when the image was read enlarged again for its small lettering (Spotter::lines): its
  // words are kept from SpotOptions::small_min_score.
  bool small = false;
  double length() const;
  double height() const;
  maptext::Point middle() const;    // halfway along the diagonal from the first corner to the third
  maptext::Point centroid() const;  // the mean of the four corners
  double direction() const;         // the reading direction, radians (from the first corner to the second, as atan2 in the image)
  bool bent() const { return !upper.empty(); }
  TextBox upside_down() const;  // the same line read the other way (its start at the old end, its top at the old bottom)
  TextBox turned_to(double angle) const;  // straight, turned about its centre to read along `angle` (radians), its length and height kept
};

struct TextBoxOptions {
  double threshold = 0.3;      // probability a text pixel has
  double box_threshold = 0.6;  // mean probability a box must reach
  // Where that mean is taken: inside the outline itself (PaddleOCR's score_mode "slow"), or inside
  // its minimum-area rectangle ("fast"). A steep, tapered or curved line fills little of its
  // rectangle: with "fast" a steep name, which fills little of its rectangle, scores under the
  // threshold and is lost (docs/notes/2026-11-spotter.md).
  bool score_outline = true;
  double unclip_ratio = 1.5;   // grows a box by area * ratio / perimeter on every side
  double min_size = 3;         // shortest side a box may have (pixels)
  // A line whose kernel's middle bends away from straight by more than `bend` times its thickness
  // (a parabola fitted across its length) gets curved edges (TextBox::upper, lower). 0: never.
  double bend = 0.25;
  // Letter-spaced names ("C O U N T Y") come out of the detector letter by letter. Boxes of single
  // letters (their sides within `letter_aspect` of each other), of like size (within 1.5 times), whose
  // centres lie at most `letter_join` times their size apart, are gathered; the straight chains among
  // them (`letter_run` letters or more; three, alike and evenly spaced, when a chain is not the whole
  // gathering) are joined into lines for the recogniser to read, each with the pieces at its ends
  // (joined_lines.cpp). 0: never.
  double letter_join = 3;
  double letter_aspect = 1.6;
  int letter_run = 2;
  // Pieces of one letter-spaced line ("MIN" "NES" "OTA"): straight lines of like height (within
  // `piece_height` times) and angle (10 degrees), on one axis (within `piece_axis` heights), whose ends
  // lie less than `piece_join` heights apart, are joined; the recogniser splits the words again. 0: never.
  double piece_join = 0.5;
  double piece_height = 1.3;
  double piece_axis = 0.25;
  size_t max_boxes = 100000;
};

// prob: [h, w] row-major, values in [0, 1]. Boxes in the map's pixel coordinates: db_boxes and bend,
// then join_spaced_letters and join_line_pieces.
std::vector<TextBox> text_boxes(const float* prob, int h, int w, const TextBoxOptions& options = {});
// The same from probabilities stored in a byte each (value / 255): a whole map's in a quarter of the memory.
std::vector<TextBox> text_boxes(const uint8_t* prob, int h, int w, const TextBoxOptions& options = {});

// The joining of single letters described at TextBoxOptions::letter_join, on boxes text_boxes found.
std::vector<TextBox> join_spaced_letters(std::vector<TextBox> boxes, const TextBoxOptions& options = {});

// The joining of a letter-spaced line's pieces described at TextBoxOptions::piece_join.
std::vector<TextBox> join_line_pieces(std::vector<TextBox> boxes, const TextBoxOptions& options = {});

// A level line: within 45 degrees of horizontal and at least 1.5 times as long as it is high.
bool is_level_line(const TextBox& box);

// The detector finds steep lettering less well than level lettering, so the spotter reads the image
// a second time turned a quarter. Its lines (in the image's own coordinates) merged into the upright
// reading's: each steep one at least 1.5 times as long as high replaces the upright lines it overlaps
// (their common area over the smaller's above `least_overlap`), unless one of those is a level line;
// level and near-square ones are dropped (the upright reading sees those better).
std::vector<TextBox> merge_turned_lines(std::vector<TextBox> upright, const std::vector<TextBox>& turned, double least_overlap = 0.3);

// Lettering the image read as it is found large gets lost when the image is read enlarged for its
// small lettering (the detector was trained on text some 20-40 px high). Each line of `as_is` at
// least `min_height` high replaces the lines of `enlarged` that overlap it (their common area over the
// smaller's above `least_overlap`) unless one of them is that line found again: each must be either lower than
// `piece_height` times its height (a piece of it, or of what crosses it) or higher than its height
// over `piece_height` (lettering and paper run together).
std::vector<TextBox> merge_large_lines(std::vector<TextBox> enlarged, const std::vector<TextBox>& as_is, double min_height,
                                       double piece_height, double least_overlap = 0.2);

// Small lettering found by a second, larger enlargement: the lines of `more` that overlap none of
// `found` (their common area over the smaller's at most `most_overlap`) added to it; what was found
// before stays as it was.
std::vector<TextBox> add_unseen_lines(std::vector<TextBox> found, const std::vector<TextBox>& more, double most_overlap = 0.1);

// The lines of a reading tilted either way that lie `least` to `most` degrees from level and are at
// least 1.5 times as long as high (a word, not a letter alone: the tilted stage).
std::vector<TextBox> lines_tilted(const std::vector<TextBox>& lines, double least, double most);

// A word's 16-point polygon: the part [from, to] (fractions of its length) of a line box.
std::vector<maptext::Point> word_polygon(const TextBox& line, double from, double to);

// The corners of a box about (cx, cy) reading along the unit direction (ux, uy) as given, its "down"
// to the right of that, in reading order.
std::array<maptext::Point, 4> corners_along(double cx, double cy, double along, double across, double ux, double uy);

// Corners of a rotated rectangle (centre, size along and across its direction, angle in radians of
// its long side) in reading order: the direction is taken from left to right, upward for a vertical
// box (as map labels along a vertical feature read); `flip` reverses it (upside-down text).
std::array<maptext::Point, 4> reading_corners(double cx, double cy, double along, double across, double angle, bool flip = false);

}  // namespace light::spot

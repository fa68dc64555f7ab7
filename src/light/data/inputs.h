// From a MapText tile to LIGHT's model inputs, exactly as the authors' dataset code builds them
// (docs/reference-notes.md §1.3–§1.10): group labels, word filtering, bbox scaling to 0–1000, polygon
// normalisation to 32 values, (y, x) order at test time, the <s> words </s> <pad>… token layout,
// per-token boxes and polygons, first-token indices; plus windows so that no word is ever lost.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "light/geometry/polygon.h"
#include "light/maptext.h"
#include "light/text/bpe.h"

namespace light::data {

inline constexpr int64_t kBos = 0, kPad = 1, kEos = 2;  // RoBERTa/LayoutLMv3 special token ids
inline constexpr int kPolygonValues = 32;                // 16 points, x/W and y/H interleaved
inline constexpr float kPolygonPad = -100.0f;

// Label of the word at sequence position `seq` (1-based) of the tile's `group`-th group (0-based):
// the decimal "<group id>000<seq>" where group ids skip every number containing a 0 (1..9, 11..19, 21…).
int64_t group_id(size_t group_index);
int64_t word_label(size_t group_index, int64_t seq);
// Splits a label at its first "000": (group id, sequence number).
std::pair<int64_t, int64_t> split_label(int64_t label);

// A word as the model sees it.
struct ModelWord {
  size_t source = 0;                 // index into the tile's words in file order (groups flattened)
  std::string text;                  // spaces removed; "NaN" when the text is empty
  int64_t label = 0;
  std::array<int64_t, 4> bbox{};     // x0, y0, x1, y1 scaled to 0–1000 (truncated, not yet clipped)
  std::vector<float> polygon;        // 32 values: x/W, y/H, ... padded with -100
  // In a window (SelectOptions::region): the word's successor, or predecessor, is a word of the tile
  // outside the window. Its link is unknown there: the losses leave that row out.
  bool next_outside = false, prev_outside = false;
};

// A part of a tile in its pixel frame (a scale window); it may reach beyond the tile.
struct Region {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  double width() const { return x1 - x0; }
  double height() const { return y1 - y0; }
};

struct SelectOptions {
  bool sort = true;        // test order: (y, x) of the first polygon point; false keeps group order
  uint64_t shuffle_seed = 0;  // with sort = false and a non-zero seed: a seeded random order (training)
  // When set: only the words whose box centre lies in the region (x0 <= x < x1, y0 <= y < y1), their
  // boxes and polygons in the region's frame (0..1000 and 0..1 over its width and height), and their
  // next_outside / prev_outside marks set.
  const Region* region = nullptr;
};

// The words the model sees, in model order: labelled (not illegible, not truncated), with a box of
// non-zero width and height. `width`/`height` are the tile image's size in pixels.
std::vector<ModelWord> select_words(const maptext::Tile& tile, int width, int height, const SelectOptions& options);

// Token ids of one word (its text as if preceded by a space), e.g. a BPE tokenizer's.
using Tokenize = std::function<std::vector<int64_t>(const std::string& word)>;

struct TileInputs {
  int length = 0;                              // L, the padded token length
  std::vector<int64_t> input_ids, attention_mask, labels, first_token_indices;  // [L]
  std::vector<int64_t> bbox;                   // [L, 4]
  std::vector<float> polygons;                 // [L, 32]
  std::vector<ModelWord> words;                // the words in the window, model order
  std::vector<size_t> beyond_window;           // model-order indices of words left out: no room, or no token
  int real_tokens = 0;                         // <s>, word tokens, </s>
  double aspect = 1.0;                         // the frame's width over its height in pixels (tile or window)
};

// Each word's reading frame in the window (x scaled by `aspect`, so that a unit is the same length
// across and down: the frames the pairwise head and the loss weights read).
std::vector<geometry::ReadingFrame> window_frames(const TileInputs& in);

using SpecialIds = text::SpecialIds;  // <s>, <pad>, </s>: a tokenizer's special_ids()

// Lays out words [begin, end) of `words` in one window of `length` tokens, as the reference does
// (truncation keeps the first length-2 word tokens; a word whose first token does not fit is left
// out and listed in beyond_window).
TileInputs layout_tokens(const std::vector<ModelWord>& words, const Tokenize& tokenize, int length, size_t begin = 0,
                         size_t end = SIZE_MAX, const SpecialIds& special = {});

// Windows covering every word when a tile has more tokens than fit: consecutive runs of words in
// model order, each within `length`-2 tokens, overlapping by about half a window so that every word
// sits well inside at least one window. One window when everything fits.
struct Window {
  size_t begin = 0, end = 0;  // words [begin, end) in model order
};
std::vector<Window> plan_windows(const std::vector<size_t>& tokens_per_word, int length);

}  // namespace light::data

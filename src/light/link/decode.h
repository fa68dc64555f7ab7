// From the model's successor probabilities to phrases (paper Algorithms S1 and S2; docs/reference-notes.md
// §5): every word repeatedly claims its most probable successor; when two words claim the same one,
// the one the claimed word prefers as predecessor (bi_probs) keeps it and the other's entry is zeroed;
// a word claiming itself ends a phrase. Phrases are then read backwards from their end words.
//
// Deliberate difference from the reference: it silently drops words caught in a successor cycle
// (no word of the cycle ends a phrase). Here each such cycle becomes a phrase, broken at its weakest
// link (the lowest original successor probability); `cycles_broken` counts them.
#pragma once
#include <vector>

#include "light/data/sparse_rows.h"
#include "light/maptext.h"

namespace light::link {

struct Decoded {
  std::vector<int> successors;             // successor of each word (itself: end of phrase)
  std::vector<std::vector<int>> groups;    // phrases in reading order: the reference's, then broken cycles
  std::vector<int> reference_dropped;      // words the reference would have dropped (sorted)
  int cycles_broken = 0;
};

// probs[i][j]: probability that j follows i (row softmax of the logits); bi_probs[i][j]: that j
// precedes i. Both row-major n x n. Ties in a row's maximum go to the highest index.
Decoded decode_successors(std::vector<float> probs, std::vector<float> bi_probs, int n);
// The same on sparse rows (entries not stored are 0): the same phrases as the dense matrices, in time
// and memory that grow with the stored entries (a whole map's words and their windows).
Decoded decode_successors(data::SparseRows probs, data::SparseRows bi_probs);

// `tile` linked by the model: its n model words (word_sources[k]: model word k's index into
// flatten(tile)) decoded from probs and bi_probs (n x n), in phrase order, then every word the model did
// not see as a one-word phrase, in file order. `cycles_broken` (optional) gets the decoder's count.
maptext::Tile link_tile(const maptext::Tile& tile, const std::vector<size_t>& word_sources, std::vector<float> probs,
                        std::vector<float> bi_probs, int* cycles_broken = nullptr);
// `link_probs` (optional, the model's rows before any no-successor bias): each model word of the output
// then carries "successor_probability", its row's entry for the successor it was linked to (for a
// phrase's last word: its own entry, the probability of "no successor"), rounded to 4 decimals.
// `split_repeats`: a phrase holding one word twice, other words between, is cut at its weakest link
// between them (link/repeated_words.h; the strengths: link_probs' entries, else probs').
maptext::Tile link_tile(const maptext::Tile& tile, const std::vector<size_t>& word_sources, data::SparseRows probs,
                        data::SparseRows bi_probs, int* cycles_broken = nullptr, const data::SparseRows* link_probs = nullptr,
                        bool split_repeats = false);

}  // namespace light::link

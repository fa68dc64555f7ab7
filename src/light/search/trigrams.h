// The approximate matching that `light search` and the gazetteer share: texts filtered by the
// trigrams they share with a query (a text within k edits keeps at least |G| - 3k of the query's
// distinct trigrams G, an edit touching at most three), then an edit distance bounded by k.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace light::search {

// The distinct trigrams of " text " (code points), sorted.
std::vector<uint64_t> grams(const std::u32string& text);

// Levenshtein distance between a and b[0, nb), or k + 1 once it is sure to exceed k.
uint32_t bounded_levenshtein(const std::u32string& a, const char32_t* b, size_t nb, uint32_t k);

// Myers' bit-parallel edit distance (Myers 1999, in Hyyro's form for global distance) for a pattern
// of at most 64 code points: one pass over the text, a few word operations a character.
class BitPattern {
 public:
  explicit BitPattern(const std::u32string& p);
  bool usable() const { return m_ > 0 && m_ <= 64; }
  // The distance between the pattern and t[0, n), or bound + 1 when it is more than bound.
  uint32_t distance(const char32_t* t, size_t n, uint32_t bound) const;

 private:
  uint64_t eq_of(char32_t c) const;
  size_t m_;
  uint64_t ascii_[128] = {};
  std::vector<std::pair<char32_t, uint64_t>> other_;
};

// The edit distance between `pattern` (as `bits`, when usable) and t[0, n), bounded by `bound`.
inline uint32_t bounded_distance(const std::u32string& pattern, const BitPattern& bits, const char32_t* t, size_t n, uint32_t bound) {
  return bits.usable() ? bits.distance(t, n, bound) : bounded_levenshtein(pattern, t, n, bound);
}

// UTF-8 (already validated) into `out`, reusing its storage; ASCII without a decoder.
void decode_into(const char* s, size_t n, std::u32string& out);

// A trigram index's three arrays: the distinct trigrams sorted, where each one's postings begin
// (one more entry than keys) and the postings (text ids).
struct TrigramArrays {
  std::vector<uint64_t> keys, begin;
  std::vector<uint32_t> postings;
};
// From (trigram, text id) pairs, in any order.
TrigramArrays trigram_arrays(std::vector<std::pair<uint64_t, uint32_t>> pairs);

// The ids among `n` texts that hold at least `need` of the query's trigrams `g`, from an index's arrays
// (keys[ng], begin[ng + 1], postings); `counts` is scratch of n zeros, left zero. Throws `corrupt`'s
// error for a posting out of range.
template <typename Corrupt>
std::vector<uint32_t> trigram_candidates(const std::vector<uint64_t>& g, long need, const uint64_t* keys, size_t ng,
                                         const uint64_t* begin, const uint32_t* postings, size_t n, std::vector<uint16_t>& counts,
                                         const Corrupt& corrupt);

}  // namespace light::search

#include <algorithm>

template <typename Corrupt>
std::vector<uint32_t> light::search::trigram_candidates(const std::vector<uint64_t>& g, long need, const uint64_t* keys, size_t ng,
                                                        const uint64_t* begin, const uint32_t* postings, size_t n,
                                                        std::vector<uint16_t>& counts, const Corrupt& corrupt) {
  if (counts.size() != n) counts.assign(n, 0);
  std::vector<uint32_t> touched, out;
  for (uint64_t key : g) {
    const uint64_t* it = std::lower_bound(keys, keys + ng, key);
    if (it == keys + ng || *it != key) continue;
    const size_t at = static_cast<size_t>(it - keys);
    for (uint64_t p = begin[at]; p < begin[at + 1]; ++p) {
      const uint32_t id = postings[p];
      if (id >= n) corrupt("posting out of range");
      if (counts[id] < UINT16_MAX && counts[id]++ == 0) touched.push_back(id);
    }
  }
  for (uint32_t id : touched) {
    if (counts[id] >= need) out.push_back(id);
    counts[id] = 0;
  }
  return out;
}

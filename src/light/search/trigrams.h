// The approximate matching that `light search` and the gazetteer share: texts filtered by the
// trigrams they share with a query (a text within k edits keeps at least |G| - 3k of the query's
// distinct trigrams G, an edit touching at most three), then an edit distance bounded by k.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
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
// From (trigram, text id) pairs, in any order: each trigram's postings by id, or, with `lengths`
// (a text's length by id), by length and then id, so that a look-up walks only the texts of the
// lengths it can match.
TrigramArrays trigram_arrays(std::vector<std::pair<uint64_t, uint32_t>> pairs, const std::vector<uint8_t>* lengths = nullptr);

// The ids among `n` texts that hold at least `need` of the query's trigrams `g`, from an index's arrays
// (keys[ng], begin[ng + 1], postings); `counts` is scratch of n zeros, left zero. Throws `corrupt`'s
// error for a posting out of range.
// `narrow`, when given, maps each trigram's postings [b, e) to the part to walk (postings sorted by
// length: those of the lengths wanted); `order`, a posting's sort key within a trigram (its id when
// not given).
// (Both are template parameters, not std::function: `order` runs in every comparison of a search.)
template <typename Corrupt, typename Narrow = std::nullptr_t, typename Order = std::nullptr_t>
std::vector<uint32_t> trigram_candidates(const std::vector<uint64_t>& g, long need, const uint64_t* keys, size_t ng,
                                         const uint64_t* begin, const uint32_t* postings, size_t n, std::vector<uint16_t>& counts,
                                         const Corrupt& corrupt, const Narrow& narrow = nullptr, const Order& order = nullptr);

}  // namespace light::search

#include <algorithm>
#include <cstddef>
#include <type_traits>

template <typename Corrupt, typename Narrow, typename Order>
std::vector<uint32_t> light::search::trigram_candidates(const std::vector<uint64_t>& g, long need, const uint64_t* keys, size_t ng,
                                                        const uint64_t* begin, const uint32_t* postings, size_t n,
                                                        std::vector<uint16_t>& counts, const Corrupt& corrupt, const Narrow& narrow,
                                                        const Order& order) {
  constexpr bool narrowed = !std::is_same_v<Narrow, std::nullptr_t>, ordered = !std::is_same_v<Order, std::nullptr_t>;
  if (counts.size() != n) counts.assign(n, 0);
  // Each query trigram's postings (narrowed), the rarest first. A text holding `need` of the |g|
  // trigrams holds one of the |g| - need + 1 rarest (pigeonhole): those lists are walked; in each
  // commoner one, the texts found so far are looked up by binary search when that is cheaper than
  // walking it (postings sorted by `order`, their id when none).
  std::vector<std::pair<uint64_t, uint64_t>> lists;
  for (uint64_t key : g) {
    const uint64_t* it = std::lower_bound(keys, keys + ng, key);
    if (it == keys + ng || *it != key) continue;
    const size_t at = static_cast<size_t>(it - keys);
    if (begin[at] > begin[at + 1]) corrupt("postings out of order");
    if constexpr (narrowed)
      lists.push_back(narrow(begin[at], begin[at + 1]));
    else
      lists.push_back({begin[at], begin[at + 1]});
  }
  std::sort(lists.begin(), lists.end(), [](const auto& a, const auto& b) { return a.second - a.first < b.second - b.first; });
  const long missing = static_cast<long>(g.size() - lists.size());  // trigrams no text holds
  const long walk = need < 1 ? static_cast<long>(lists.size()) : std::max(0L, static_cast<long>(g.size()) - need + 1 - missing);
  std::vector<uint32_t> touched, out;
  const auto key_of = [&](uint32_t id) -> uint64_t {
    if constexpr (ordered)
      return order(id);
    else
      return id;
  };
  for (size_t l = 0; l < lists.size(); ++l) {
    const uint64_t b = lists[l].first, e = lists[l].second;
    const bool search = static_cast<long>(l) >= walk && touched.size() * 24 < e - b;
    if (!search) {
      for (uint64_t p = b; p < e; ++p) {
        const uint32_t id = postings[p];
        if (id >= n) corrupt("posting out of range");
        if (counts[id] < UINT16_MAX && (counts[id]++ > 0 || static_cast<long>(l) < walk)) {
          if (counts[id] == 1) touched.push_back(id);
        } else if (counts[id] == 1) {
          counts[id] = 0;  // first seen past the rarest lists: cannot reach `need`
        }
      }
      continue;
    }
    for (uint32_t id : touched) {
      const uint64_t k = key_of(id);
      const auto [lo, hi] = std::equal_range(postings + b, postings + e, id, [&](uint32_t x, uint32_t y) {
        return (x == id ? k : key_of(x)) < (y == id ? k : key_of(y));
      });
      counts[id] = static_cast<uint16_t>(std::min<long>(UINT16_MAX, counts[id] + (hi - lo)));
    }
  }
  for (uint32_t id : touched) {
    if (counts[id] >= need) out.push_back(id);
    counts[id] = 0;
  }
  return out;
}

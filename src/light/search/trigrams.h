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

// The distinct trigrams of " text " (code points), sorted: what an index holds of a text.
std::vector<uint64_t> grams(const std::u32string& text);
// Every trigram of " text ", sorted, as often as it occurs (text.size() of them): what a query is
// counted by. A text within k edits of the query shares at least |occurrences| - 3k of them, one edit
// touching at most three; counting a repeated trigram once, as the distinct trigrams do, lets most of
// an index through for a query such as "puloypuloy".
std::vector<uint64_t> gram_occurrences(const std::u32string& text);

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

// The ASCII characters a text holds, folded into 64 bits (a character's bit: its code mod 64), and
// whether it holds any other byte. An edit takes away at most one character a text holds and adds at
// most one, so two ASCII texts within k edits each hold at most k folded bits the other lacks: a test
// that rules out many of a trigram filter's candidates before their distance is computed.
struct LetterSet {
  uint64_t bits = 0;
  bool other = false;
};
inline LetterSet letter_set(const char* s, size_t n) {
  LetterSet out;
  unsigned char high = 0;
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    out.bits |= uint64_t{1} << (c & 63);
    high |= c;
  }
  out.other = high >= 128;
  return out;
}
inline bool too_far_by_letters(const LetterSet& a, const LetterSet& b, uint32_t k) {
  if (a.other || b.other) return false;
  return static_cast<uint32_t>(__builtin_popcountll(a.bits & ~b.bits)) > k || static_cast<uint32_t>(__builtin_popcountll(b.bits & ~a.bits)) > k;
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

// The ids among `n` texts that hold at least `need` of the query's trigram occurrences `g` (sorted,
// a trigram as often as the query holds it: gram_occurrences), each trigram a text holds counted as
// often as the query holds it, from an index's arrays (keys[ng], begin[ng + 1], postings); `counts` is
// scratch of n zeros, left zero. Throws `corrupt`'s error for a posting out of range.
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
  if (n == 0) return {};
  if (counts.size() != n) counts.assign(n, 0);
  // Each query trigram's postings (narrowed) and how often the query holds it, the rarest first. A text
  // outside the rarest lists holds at most the other lists' weight: the rarest are walked until what
  // is left weighs less than `need`; in each commoner one, the texts found so far are looked up by
  // binary search when that is cheaper than walking it (postings sorted by `order`, their id when none).
  struct List {
    uint64_t b, e;
    uint16_t weight;
  };
  std::vector<List> lists;
  for (size_t i = 0; i < g.size();) {
    size_t j = i;
    while (j < g.size() && g[j] == g[i]) ++j;
    const auto weight = static_cast<uint16_t>(std::min<size_t>(j - i, UINT16_MAX - 1));
    const uint64_t* it = std::lower_bound(keys, keys + ng, g[i]);
    i = j;
    if (it == keys + ng || *it != g[i - 1]) continue;  // no text holds it
    const size_t at = static_cast<size_t>(it - keys);
    if (begin[at] > begin[at + 1]) corrupt("postings out of order");
    std::pair<uint64_t, uint64_t> range{begin[at], begin[at + 1]};
    if constexpr (narrowed) range = narrow(range.first, range.second);
    lists.push_back({range.first, range.second, weight});
  }
  std::sort(lists.begin(), lists.end(), [](const List& a, const List& b) { return a.e - a.b < b.e - b.b; });
  // A count is at most the lists' weight: past 65,534 (a query of tens of thousands of characters) the
  // commonest are dropped and `need` lowered by their weight, which keeps every text that could reach
  // it; when nothing is left to need, every text is a candidate.
  long total = 0;
  for (size_t l = 0; l < lists.size(); ++l)
    if (total + lists[l].weight >= UINT16_MAX) {
      for (size_t d = l; d < lists.size(); ++d) need -= lists[d].weight;
      lists.resize(l);
      if (need < 1) {
        std::vector<uint32_t> all(n);
        for (size_t id = 0; id < n; ++id) all[id] = static_cast<uint32_t>(id);
        return all;
      }
      break;
    } else {
      total += lists[l].weight;
    }
  size_t walk = 0;  // the lists walked: what follows them weighs less than `need`
  for (long left = total; walk < lists.size() && (need < 1 || left >= need); ++walk) left -= lists[walk].weight;
  std::vector<uint32_t> touched, out;
  const auto key_of = [&](uint32_t id) -> uint64_t {
    if constexpr (ordered)
      return order(id);
    else
      return id;
  };
  size_t seen = 0;  // touched[0, seen): the texts counted so far
  for (size_t l = 0; l < lists.size(); ++l) {
    const auto [b, e, w] = lists[l];
    // Without branches on the counts (whether a text was seen before is a coin toss to the CPU): a
    // text first seen in one of the rarest lists joins `touched`; in a commoner list, only a text
    // already counted is counted again. The counts of the ids 16 postings on are fetched ahead.
    if (l < walk) {
      touched.resize(seen + (e - b));
      for (uint64_t p = b; p < e; ++p) {
        if (p + 16 < e) __builtin_prefetch(counts.data() + std::min<size_t>(postings[p + 16], n - 1), 1);
        const uint32_t id = postings[p];
        if (id >= n) corrupt("posting out of range");
        touched[seen] = id;
        seen += counts[id] == 0;
        counts[id] = static_cast<uint16_t>(counts[id] + w);
      }
      continue;
    }
    if (seen * 24 >= e - b) {
      for (uint64_t p = b; p < e; ++p) {
        if (p + 16 < e) __builtin_prefetch(counts.data() + std::min<size_t>(postings[p + 16], n - 1), 1);
        const uint32_t id = postings[p];
        if (id >= n) corrupt("posting out of range");
        counts[id] = static_cast<uint16_t>(counts[id] + (counts[id] != 0) * w);
      }
      continue;
    }
    for (size_t t = 0; t < seen; ++t) {
      const uint32_t id = touched[t];
      const uint64_t k = key_of(id);
      const auto [lo, hi] = std::equal_range(postings + b, postings + e, id, [&](uint32_t x, uint32_t y) {
        return (x == id ? k : key_of(x)) < (y == id ? k : key_of(y));
      });
      counts[id] = static_cast<uint16_t>(counts[id] + (hi - lo) * w);
    }
  }
  touched.resize(seen);
  for (uint32_t id : touched) {
    if (counts[id] >= need) out.push_back(id);
    counts[id] = 0;
  }
  return out;
}

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
// Every trigram of " text " in order, as often as it occurs (text.size() of them): what a query is
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

// The ids among `n` texts that may lie within `edits` edits of the query: those holding at least
// `need` of the query's trigram occurrences `g` (gram_occurrences: in the query's order), each trigram
// a text holds counted as often as the query holds it, from an index's arrays (keys[ng], begin[ng + 1],
// postings); `counts` is scratch of n zeros, left zero. Throws `corrupt`'s error for a posting out of
// range. `narrow`, when given, maps each trigram's postings [b, e) to the part to walk (postings sorted
// by length: those of the lengths wanted). (A template parameter, not a std::function: it runs for
// every trigram of every query.)
template <typename Corrupt, typename Narrow = std::nullptr_t>
std::vector<uint32_t> trigram_candidates(const std::vector<uint64_t>& g, long need, uint32_t edits, const uint64_t* keys, size_t ng,
                                         const uint64_t* begin, const uint32_t* postings, size_t n, std::vector<uint16_t>& counts,
                                         const Corrupt& corrupt, const Narrow& narrow = nullptr);

}  // namespace light::search

#include <algorithm>
#include <cstddef>
#include <type_traits>

template <typename Corrupt, typename Narrow>
std::vector<uint32_t> light::search::trigram_candidates(const std::vector<uint64_t>& g, long need, uint32_t edits, const uint64_t* keys, size_t ng,
                                                        const uint64_t* begin, const uint32_t* postings, size_t n,
                                                        std::vector<uint16_t>& counts, const Corrupt& corrupt, const Narrow& narrow) {
  constexpr bool narrowed = !std::is_same_v<Narrow, std::nullptr_t>;
  if (n == 0) return {};
  if (counts.size() != n) counts.assign(n, 0);
  // Each query trigram's postings (narrowed) and how often the query holds it, the rarest first.
  struct List {
    uint64_t key, b, e;
    uint16_t weight;
  };
  std::vector<uint64_t> sorted(g), absent;  // absent: trigrams no text holds
  std::sort(sorted.begin(), sorted.end());
  std::vector<List> lists;
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    const auto weight = static_cast<uint16_t>(std::min<size_t>(j - i, UINT16_MAX - 1));
    const uint64_t key = sorted[i];
    i = j;
    const uint64_t* it = std::lower_bound(keys, keys + ng, key);
    if (it == keys + ng || *it != key) {
      absent.push_back(key);
      continue;
    }
    const size_t at = static_cast<size_t>(it - keys);
    if (begin[at] > begin[at + 1]) corrupt("postings out of order");
    std::pair<uint64_t, uint64_t> range{begin[at], begin[at + 1]};
    if constexpr (narrowed) range = narrow(range.first, range.second);
    lists.push_back({key, range.first, range.second, weight});
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
  // Which lists are walked, every text in them counted; in the others only the texts found so far are.
  // Two choices, each keeping every text that can reach `need`, the cheaper taken: (1) the rarest lists
  // until what is left weighs less than `need` (a text outside them cannot reach it); (2) the lists of
  // edits + 1 non-overlapping trigrams of the query (a window of three letters no edit touched: edits
  // touch at most `edits` of them, so a text within the edits holds one intact), chosen by a dynamic
  // programme for the fewest postings; a trigram no text holds costs nothing.
  std::vector<char> walked(lists.size(), 0);
  uint64_t prefix_cost = 0;
  {
    size_t walk = 0;
    for (long left = total; walk < lists.size() && (need < 1 || left >= need); ++walk) left -= lists[walk].weight;
    for (size_t l = 0; l < walk; ++l) walked[l] = 1, prefix_cost += lists[l].e - lists[l].b;
  }
  const size_t m = g.size(), c = static_cast<size_t>(edits) + 1;
  if (need >= 1 && edits > 0 && c <= 16 && m >= 3 * c - 2) {  // (a few edits: the programme's table is c x m)
    constexpr uint64_t kNever = UINT64_MAX / 4;
    std::vector<std::pair<uint64_t, size_t>> by_key;  // key -> list
    for (size_t l = 0; l < lists.size(); ++l) by_key.push_back({lists[l].key, l});
    std::sort(by_key.begin(), by_key.end());
    std::sort(absent.begin(), absent.end());
    std::vector<uint64_t> cost(m);
    std::vector<size_t> list_at(m, SIZE_MAX);
    for (size_t i = 0; i < m; ++i) {
      const auto it = std::lower_bound(by_key.begin(), by_key.end(), std::make_pair(g[i], size_t{0}));
      if (it != by_key.end() && it->first == g[i]) list_at[i] = it->second, cost[i] = lists[it->second].e - lists[it->second].b;
      else cost[i] = std::binary_search(absent.begin(), absent.end(), g[i]) ? 0 : kNever;  // not held, or dropped above
    }
    // f[j][i]: the least cost of j windows among positions [0, i); a window at i - 1 leaves [0, i - 3).
    std::vector<std::vector<uint64_t>> f(c + 1, std::vector<uint64_t>(m + 1, kNever));
    for (size_t i = 0; i <= m; ++i) f[0][i] = 0;
    for (size_t j = 1; j <= c; ++j)
      for (size_t i = 1; i <= m; ++i) f[j][i] = std::min({f[j][i - 1], f[j - 1][i >= 3 ? i - 3 : 0] + cost[i - 1], kNever});
    if (f[c][m] < prefix_cost) {
      std::fill(walked.begin(), walked.end(), 0);
      for (size_t j = c, i = m; j > 0;) {  // the windows chosen, back from the end
        if (f[j][i] == f[j][i - 1]) {
          --i;
          continue;
        }
        if (list_at[i - 1] != SIZE_MAX) walked[list_at[i - 1]] = 1;
        i = i >= 3 ? i - 3 : 0;
        --j;
      }
    }
  }
  std::vector<uint32_t> touched, out;
  size_t seen = 0;  // touched[0, seen): the texts counted so far
  std::vector<size_t> sequence;  // the walked lists first, each part rarest first
  for (size_t l = 0; l < lists.size(); ++l)
    if (walked[l]) sequence.push_back(l);
  for (size_t l = 0; l < lists.size(); ++l)
    if (!walked[l]) sequence.push_back(l);
  for (size_t l : sequence) {
    const auto [key, b, e, w] = lists[l];
    // Without branches on the counts (whether a text was seen before is a coin toss to the CPU): a
    // text first seen in a walked list joins `touched`; in another list, only a text already counted
    // is counted again. The counts of the ids 16 postings on are fetched ahead.
    if (walked[l]) {
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
    // A list more than four times longer than the texts found so far costs more to count than the
    // comparisons it would spare: it is left out, and `need` lowered by its weight.
    if (e - b > 4 * seen) {
      need -= w;
      continue;
    }
    for (uint64_t p = b; p < e; ++p) {
      if (p + 16 < e) __builtin_prefetch(counts.data() + std::min<size_t>(postings[p + 16], n - 1), 1);
      const uint32_t id = postings[p];
      if (id >= n) corrupt("posting out of range");
      counts[id] = static_cast<uint16_t>(counts[id] + (counts[id] != 0) * w);
    }
  }
  touched.resize(seen);
  for (uint32_t id : touched) {
    if (counts[id] >= need) out.push_back(id);
    counts[id] = 0;
  }
  return out;
}

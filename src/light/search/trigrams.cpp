#include "light/search/trigrams.h"

#include <algorithm>

#include "light/util/utf8.h"

namespace light::search {

namespace {
uint64_t gram_key(char32_t a, char32_t b, char32_t c) {
  return (static_cast<uint64_t>(a) << 42) | (static_cast<uint64_t>(b) << 21) | static_cast<uint64_t>(c);
}
}  // namespace

std::vector<uint64_t> grams(const std::u32string& text) {
  const std::u32string p = U" " + text + U" ";
  std::vector<uint64_t> out;
  for (size_t i = 0; i + 2 < p.size(); ++i) out.push_back(gram_key(p[i], p[i + 1], p[i + 2]));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<uint64_t> gram_occurrences(const std::u32string& text) {
  const std::u32string p = U" " + text + U" ";
  std::vector<uint64_t> out;
  for (size_t i = 0; i + 2 < p.size(); ++i) out.push_back(gram_key(p[i], p[i + 1], p[i + 2]));
  return out;
}

uint32_t bounded_levenshtein(const std::u32string& a, const char32_t* b, size_t nb, uint32_t k) {
  // Ukkonen's band: only cells within k of the diagonal can hold a distance of at most k, so a row
  // costs 2k + 1 cells whatever the lengths (a query of thousands of characters against a long
  // phrase stays linear), and the rows stop once every cell of one exceeds k.
  const size_t na = a.size();
  if ((na > nb ? na - nb : nb - na) > k) return k + 1;
  const uint32_t inf = k + 1;
  thread_local std::vector<uint32_t> prev, cur;
  prev.assign(nb + 1, inf), cur.assign(nb + 1, inf);
  for (size_t j = 0; j <= std::min<size_t>(nb, k); ++j) prev[j] = static_cast<uint32_t>(j);
  for (size_t i = 1; i <= na; ++i) {
    const size_t lo = i > k ? i - k : 1, hi = std::min<size_t>(nb, i + k);
    cur[lo - 1] = lo == 1 ? std::min<uint32_t>(static_cast<uint32_t>(i), inf) : inf;
    uint32_t best = cur[lo - 1];
    for (size_t j = lo; j <= hi; ++j) {
      const uint32_t v = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u)});
      cur[j] = std::min(v, inf);
      best = std::min(best, cur[j]);
    }
    if (hi + 1 <= nb) cur[hi + 1] = inf;
    if (best > k) return inf;
    std::swap(prev, cur);
  }
  return std::min(prev[nb], inf);
}

BitPattern::BitPattern(const std::u32string& p) : m_(p.size()) {
  if (!usable()) return;
  for (size_t i = 0; i < m_; ++i) {
    const uint64_t bit = uint64_t{1} << i;
    if (p[i] < 128) {
      ascii_[p[i]] |= bit;
    } else {
      auto it = std::find_if(other_.begin(), other_.end(), [&](const auto& e) { return e.first == p[i]; });
      if (it == other_.end()) other_.emplace_back(p[i], bit);
      else it->second |= bit;
    }
  }
}

uint32_t BitPattern::distance(const char32_t* t, size_t n, uint32_t bound) const {
  if ((m_ > n ? m_ - n : n - m_) > bound) return bound + 1;
  uint64_t pv = m_ == 64 ? ~uint64_t{0} : (uint64_t{1} << m_) - 1, mv = 0;
  const uint64_t last = uint64_t{1} << (m_ - 1);
  size_t score = m_;
  for (size_t j = 0; j < n; ++j) {
    const uint64_t eq = eq_of(t[j]);
    const uint64_t xv = eq | mv;
    const uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
    uint64_t ph = mv | ~(xh | pv);
    uint64_t mh = pv & xh;
    if (ph & last) ++score;
    else if (mh & last) --score;
    ph = (ph << 1) | 1;  // the top row D[0][j] = j
    mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
    // The distance can fall by at most one a remaining character.
    if (score > bound + (n - 1 - j)) return bound + 1;
  }
  return score > bound ? bound + 1 : static_cast<uint32_t>(score);
}

uint64_t BitPattern::eq_of(char32_t c) const {
  if (c < 128) return ascii_[c];
  for (const auto& [ch, bits] : other_)
    if (ch == c) return bits;
  return 0;
}

void decode_into(const char* s, size_t n, std::u32string& out) {
  out.clear();
  bool ascii = true;
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<unsigned char>(s[i]) >= 128) {
      ascii = false;
      break;
    }
    out.push_back(static_cast<char32_t>(s[i]));
  }
  if (!ascii) out = utf8_decode(std::string(s, n));
}

TrigramArrays trigram_arrays(std::vector<std::pair<uint64_t, uint32_t>> pairs, const std::vector<uint8_t>* lengths) {
  if (lengths)
    std::sort(pairs.begin(), pairs.end(), [&](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      if ((*lengths)[a.second] != (*lengths)[b.second]) return (*lengths)[a.second] < (*lengths)[b.second];
      return a.second < b.second;
    });
  else
    std::sort(pairs.begin(), pairs.end());
  TrigramArrays t;
  t.postings.reserve(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i == 0 || pairs[i].first != pairs[i - 1].first) t.keys.push_back(pairs[i].first), t.begin.push_back(i);
    t.postings.push_back(pairs[i].second);
  }
  t.begin.push_back(pairs.size());
  return t;
}

}  // namespace light::search

#include "light/spot/reading.h"

#include <algorithm>

#include "light/util/unicode.h"
#include "light/util/utf8.h"

namespace light::spot {

namespace {
bool is_figure(char32_t c) { return c >= U'0' && c <= U'9'; }
}  // namespace

void write_long_s_as_s(std::vector<ReadChar>& chars) {
  for (ReadChar& c : chars)
    if (c.text == "\xC5\xBF") c.text = "s";  // U+017F
}

std::string settle_lookalikes(const std::string& word) {
  std::u32string w = utf8_decode(word);
  auto as_figure = [](char32_t c) -> char32_t { return c == U'O' || c == U'o' ? U'0' : c == U'l' || c == U'I' ? U'1' : 0; };
  auto as_capital = [](char32_t c) -> char32_t {
    switch (c) {
      case U'c': case U'o': case U's': case U'v': case U'w': case U'x': case U'z': return c - U'a' + U'A';
      default: return 0;
    }
  };
  size_t figures = 0, like_figures = 0, capitals = 0, small = 0, like_capitals = 0;
  bool other = false;
  for (char32_t c : w) {
    if (c == U' ') return word;
    if (is_figure(c)) ++figures;
    else if (as_figure(c)) ++like_figures;
    else if (is_letter(c)) other = true;
    if (is_capital(c)) ++capitals;
    if (is_small_letter(c)) ++small, like_capitals += as_capital(c) != 0;
  }
  if (figures > 0 && like_figures > 0 && !other && figures >= like_figures) {
    for (char32_t& c : w)
      if (as_figure(c)) c = as_figure(c);
    return utf8_encode(w);
  }
  if (capitals >= 2 && capitals > small && like_capitals == small && (small > 0 || figures > 0)) {
    for (char32_t& c : w)
      if (as_capital(c)) c = as_capital(c);
    // Runs of figures between two capitals, each shaped as a letter.
    for (size_t i = 0; i < w.size();) {
      if (!is_figure(w[i])) { ++i; continue; }
      size_t j = i;
      while (j < w.size() && is_figure(w[j])) ++j;
      const bool inside = i > 0 && j < w.size() && is_capital(w[i - 1]) && is_capital(w[j]);
      const bool shaped = std::all_of(w.begin() + static_cast<long>(i), w.begin() + static_cast<long>(j),
                                      [](char32_t c) { return c == U'0' || c == U'5' || c == U'1'; });
      if (inside && shaped)
        for (size_t k = i; k < j; ++k) w[k] = w[k] == U'0' ? U'O' : w[k] == U'5' ? U'S' : U'I';
      i = j;
    }
    return utf8_encode(w);
  }
  return word;
}

std::vector<ReadChar> decode_ctc(const model::StepClasses& s, const Dictionary& dict) {
  std::vector<ReadChar> out;
  int prev = 0;
  for (int t = 0; t < s.steps; ++t) {
    const int id = s.ids[t];
    if (id != 0 && id == prev) {
      out.back().end = t + 1;
      out.back().prob = std::max(out.back().prob, s.probs[t]);
    } else if (id != 0) {
      out.push_back(ReadChar{dict.text(id), static_cast<double>(t), static_cast<double>(t + 1), s.probs[t]});
    }
    prev = id;
  }
  return out;
}

namespace {
bool is_circle(char32_t c) { return c == U'o' || c == U'O' || c == U'0' || c == U'\u00B0'; }
}  // namespace

std::vector<ReadWord> split_words(const std::vector<ReadChar>& chars, const std::vector<float>& space, double used_steps,
                                  const SplitOptions& o) {
  std::vector<const ReadChar*> letters;
  for (const ReadChar& c : chars)
    if (c.text != " ") letters.push_back(&c);
  std::vector<ReadWord> out;
  if (letters.empty() || used_steps <= 0) return out;
  auto centre = [](const ReadChar* c) { return (c->start + c->end) / 2; };
  std::vector<double> pitches;
  for (size_t k = 1; k < letters.size(); ++k) pitches.push_back(centre(letters[k]) - centre(letters[k - 1]));
  double median = used_steps;
  if (!pitches.empty()) {
    std::vector<double> sorted = pitches;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(sorted.size() / 2), sorted.end());
    median = sorted[sorted.size() / 2];
  }
  // Word breaks: before letters[k] when a space was read, heard, or the gap is wide.
  std::vector<std::vector<const ReadChar*>> words(1, {letters[0]});
  for (size_t k = 1; k < letters.size(); ++k) {
    const ReadChar* a = letters[k - 1];
    const ReadChar* b = letters[k];
    bool split = false;
    for (const ReadChar& c : chars)
      if (c.text == " " && c.start >= a->end && c.end <= b->start) split = true;
    const std::u32string before = utf8_decode(a->text), next = utf8_decode(b->text);
    const bool both = !before.empty() && !next.empty();
    const double gap = pitches[k - 1];
    // Where only a space read ends a word (reading.h): a letter or figure, then a small letter; two
    // capitals no further apart than the line's letters.
    const bool within = both && is_small_letter(next[0]) && (is_letter(before.back()) || is_figure(before.back()));
    const bool capitals = both && is_capital(before.back()) && is_capital(next[0]) && gap <= median;
    if (!within && !capitals)
      for (auto t = static_cast<size_t>(a->end); t < static_cast<size_t>(b->start) && t < space.size(); ++t)
        if (space[t] > o.space_probability) split = true;
    if (gap > o.gap_ratio * median && gap > median + o.gap_steps && !within) split = true;
    // An abbreviation's point, then a capital and a small letter ("St.Petri", "S.Jacobi", "Bors.Br"):
    // the recogniser seldom hears the space after a point, and a point inside a word is followed by a
    // letter alone ("N.Y.", "U.S.A.").
    if (k >= 2 && k + 1 < letters.size() && a->text == "." && both && is_capital(next[0])) {
      const std::u32string word = utf8_decode(letters[k - 2]->text), then = utf8_decode(letters[k + 1]->text);
      if (!word.empty() && is_letter(word.back()) && !then.empty() && is_small_letter(then[0])) split = true;
    }
    if (split) words.emplace_back();
    words.back().push_back(b);
  }
  // A symbol before a word's first letter: off, the word starts halfway between them.
  std::vector<double> starts(words.size(), -1);
  for (size_t k = 0; k < words.size(); ++k) {
    std::vector<const ReadChar*>& w = words[k];
    std::string text;
    for (const ReadChar* c : w) text += c->text;
    if (w.size() < 3 || !leading_symbol(text)) continue;
    starts[k] = (centre(w[0]) + centre(w[1])) / 2;
    w.erase(w.begin());
  }
  for (size_t k = 0; k < words.size(); ++k) {
    const auto& w = words[k];
    ReadWord r;
    double sum = 0;
    for (const ReadChar* c : w) {
      r.text += c->text;
      sum += c->prob;
    }
    r.score = sum / static_cast<double>(w.size());
    double f = centre(w.front()) - median / 2, t = centre(w.back()) + median / 2;
    if (k > 0) f = std::max(f - o.reach * median, (centre(words[k - 1].back()) + centre(w.front())) / 2);
    if (k + 1 < words.size()) t = std::min(t + o.reach * median, (centre(w.back()) + centre(words[k + 1].front())) / 2);
    r.from = std::clamp(starts[k] >= 0 ? starts[k] : f, 0.0, used_steps) / used_steps;
    r.to = std::clamp(t, 0.0, used_steps) / used_steps;
    r.first = std::clamp(centre(w.front()) / used_steps, 0.0, 1.0);
    r.last = std::clamp(centre(w.back()) / used_steps, 0.0, 1.0);
    out.push_back(r);
  }
  if (starts.front() < 0) out.front().from = 0;
  out.back().to = 1;
  return out;
}

bool is_symbol(const std::string& text) {
  const std::u32string t = utf8_decode(text);
  if (t.empty()) return false;
  if (t.size() == 1 && is_circle(t[0])) return true;
  if (t.size() >= 6 && std::all_of(t.begin(), t.end(), [&](char32_t c) { return c == t[0]; })) return true;
  return t != U"&" && std::none_of(t.begin(), t.end(), [](char32_t c) { return is_figure(c) || is_letter(c); });
}

bool leading_symbol(const std::string& text) {
  const std::u32string t = utf8_decode(text);
  if (t.size() < 3 || !is_capital(t[1])) return false;
  if (t[0] == U'o' || t[0] == U'0' || t[0] == U'\u00B0' || t[0] == U'\u00B7' || t[0] == U'\u2022') return true;
  return t[0] == U'O' && is_letter(t[2]) && !is_capital(t[2]);
}

}  // namespace light::spot

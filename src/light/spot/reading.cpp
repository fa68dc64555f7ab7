#include "light/spot/reading.h"

#include <algorithm>

namespace light::spot {

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
    for (auto t = static_cast<size_t>(a->end); t < static_cast<size_t>(b->start) && t < space.size(); ++t)
      if (space[t] > o.space_probability) split = true;
    const double gap = pitches[k - 1];
    if (gap > o.gap_ratio * median && gap > median + o.gap_steps) split = true;
    if (split) words.emplace_back();
    words.back().push_back(b);
  }
  for (const auto& w : words) {
    ReadWord r;
    double sum = 0;
    for (const ReadChar* c : w) {
      r.text += c->text;
      sum += c->prob;
    }
    r.score = sum / static_cast<double>(w.size());
    r.from = std::clamp(centre(w.front()) - median / 2, 0.0, used_steps) / used_steps;
    r.to = std::clamp(centre(w.back()) + median / 2, 0.0, used_steps) / used_steps;
    out.push_back(r);
  }
  out.front().from = 0;
  out.back().to = 1;
  return out;
}

}  // namespace light::spot

#include "light/link/decode.h"
#include "light/link/paths.h"
#include "light/link/repeated_words.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "light/error.h"

namespace light::link {

Decoded decode_successors(std::vector<float> probs, std::vector<float> bi, int n) {
  return decode_successors(data::SparseRows::from_dense(probs, n), data::SparseRows::from_dense(bi, n));
}

Decoded decode_successors(data::SparseRows probs, data::SparseRows bi) {
  const int n = probs.n;
  const data::SparseRows original = probs;
  std::vector<int> succ_of(n, -1), pred_of(n, -1);
  // The dense decoder's argmax over a row in which every entry not stored is 0: the highest column
  // holding the row's maximum when that is positive; when it is not, the highest column of all.
  auto argmax = [&](int i) {
    float best_value = 0.0f;
    int best = n - 1;
    for (const auto& [j, v] : probs.rows[static_cast<size_t>(i)])
      if (v > 0.0f && v >= best_value) best_value = v, best = j;
    return best;
  };
  auto zero = [](data::SparseRows& m, int i, int j) {
    if (float* v = m.find(i, j)) *v = 0.0f;
  };
  auto all_assigned = [&] { return std::all_of(succ_of.begin(), succ_of.end(), [](int s) { return s >= 0; }); };
  // Each pass either assigns or zeroes an entry, so n*n + n passes always suffice; the guard only
  // matters for degenerate inputs (rows of zeros), whose words then end their own phrases.
  for (long pass = 0; !all_assigned() && pass < static_cast<long>(n) * n + n; ++pass) {
    for (int i = 0; i < n; ++i) {
      const int j = argmax(i);
      if (pred_of[j] < 0) {  // unclaimed (also covers j == i)
        succ_of[i] = j;
        pred_of[j] = i;
        continue;
      }
      const int o = pred_of[j];
      if (o == i) continue;                // already ours
      if (o == j) {                        // j had claimed itself as an end: i takes it
        succ_of[i] = j;
        pred_of[j] = i;
      } else if (j == i) {                 // i wants to end, though another word points to it
        succ_of[i] = i;
      } else if (bi.at(j, i) > bi.at(j, o)) {  // j prefers i as predecessor: o loses
        succ_of[i] = j;
        pred_of[j] = i;
        succ_of[o] = -1;
        zero(probs, o, j);
        zero(bi, j, o);
      } else {                             // i loses
        zero(probs, i, j);
        zero(bi, j, i);
      }
    }
  }
  for (int i = 0; i < n; ++i)
    if (succ_of[i] < 0) succ_of[i] = i;

  Decoded d;
  d.successors = succ_of;
  // Paths read backwards from each end word, emitted in index order of their ends.
  std::vector<int> pred(n, -1);
  for (int i = 0; i < n; ++i)
    if (succ_of[i] != i) pred[succ_of[i]] = i;
  std::vector<char> used(n, 0);
  for (int e = 0; e < n; ++e) {
    if (succ_of[e] != e) continue;
    std::vector<int> path{e};
    used[e] = 1;
    for (int w = pred[e]; w >= 0 && !used[w]; w = pred[w]) {
      path.push_back(w);
      used[w] = 1;
    }
    std::reverse(path.begin(), path.end());
    d.groups.push_back(std::move(path));
  }
  // What is left are successor cycles: break each at its weakest link.
  for (int i = 0; i < n; ++i)
    if (!used[i]) d.reference_dropped.push_back(i);
  for (int start : d.reference_dropped) {
    if (used[start]) continue;
    std::vector<int> cycle{start};
    for (int w = succ_of[start]; w != start && !used[w] && cycle.size() <= static_cast<size_t>(n); w = succ_of[w]) cycle.push_back(w);
    size_t weakest = 0;  // the link cycle[k] -> cycle[k+1] with the lowest original probability
    for (size_t k = 1; k < cycle.size(); ++k) {
      const int a = cycle[k], b = cycle[(k + 1) % cycle.size()];
      const int wa = cycle[weakest], wb = cycle[(weakest + 1) % cycle.size()];
      if (original.at(a, b) < original.at(wa, wb)) weakest = k;
    }
    std::vector<int> phrase;
    for (size_t k = 1; k <= cycle.size(); ++k) phrase.push_back(cycle[(weakest + k) % cycle.size()]);
    for (int w : phrase) used[w] = 1;
    d.successors[phrase.back()] = phrase.back();
    d.groups.push_back(std::move(phrase));
    ++d.cycles_broken;
  }
  return d;
}

maptext::Tile link_tile(const maptext::Tile& tile, const std::vector<size_t>& word_sources, std::vector<float> probs,
                        std::vector<float> bi_probs, int* cycles_broken) {
  const int n = static_cast<int>(word_sources.size());
  return link_tile(tile, word_sources, data::SparseRows::from_dense(probs, n), data::SparseRows::from_dense(bi_probs, n), cycles_broken);
}

maptext::Tile link_tile(const maptext::Tile& tile, const std::vector<size_t>& word_sources, data::SparseRows probs,
                        data::SparseRows bi_probs, int* cycles_broken, const data::SparseRows* link_probs, bool split_repeats) {
  const size_t words = tile.word_count();
  if (probs.n != static_cast<int>(word_sources.size()) || bi_probs.n != probs.n) throw Error("link_tile: probabilities for another word count");
  std::vector<std::vector<int>> phrases;
  std::vector<char> placed(words, 0);
  std::vector<double> score(words, -1.0);  // by source word: the probability of its link (-1: none)
  if (!word_sources.empty()) {
    data::SparseRows decoded_rows;  // the links' strengths where a phrase is cut and link_probs is not given
    const data::SparseRows* strength = link_probs;
    if (split_repeats && !strength) strength = &(decoded_rows = probs);
    Decoded d = decode_successors(std::move(probs), std::move(bi_probs));
    if (cycles_broken) *cycles_broken = d.cycles_broken;
    if (split_repeats) {
      const auto flat = flatten(tile);
      std::vector<std::string> keys;
      for (const size_t s : word_sources) keys.push_back(repeat_key(flat[s]->text.value_or("")));
      d.groups = split_repeated_words(d.groups, keys, [strength](int a, int b) { return static_cast<double>(strength->at(a, b)); });
    }
    for (const auto& g : d.groups) {
      std::vector<int> phrase;
      for (size_t p = 0; p < g.size(); ++p) {
        const size_t source = word_sources[static_cast<size_t>(g[p])];
        phrase.push_back(static_cast<int>(source));
        placed[source] = 1;
        if (link_probs) score[source] = link_probs->at(g[p], p + 1 < g.size() ? g[p + 1] : g[p]);
      }
      phrases.push_back(std::move(phrase));
    }
  } else if (cycles_broken) {
    *cycles_broken = 0;
  }
  for (size_t k = 0; k < words; ++k)  // words the model does not see stay, alone
    if (!placed[k]) phrases.push_back({static_cast<int>(k)});
  maptext::Tile out = regroup(tile, phrases);
  if (link_probs)
    for (size_t g = 0; g < phrases.size(); ++g)
      for (size_t p = 0; p < phrases[g].size(); ++p) {
        const double v = score[static_cast<size_t>(phrases[g][p])];
        if (v < 0) continue;
        maptext::Word& w = out.groups[g][p];
        nlohmann::ordered_json extra = w.extra.empty() ? nlohmann::ordered_json::object() : nlohmann::ordered_json::parse(w.extra);
        extra["successor_probability"] = std::round(v * 1e4) / 1e4;
        w.extra = extra.dump();
      }
  return out;
}

}  // namespace light::link

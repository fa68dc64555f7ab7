#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>

#include "light/io/safetensors.h"
#include "light/link/decode.h"
#include "light/util/fs.h"

using namespace light;

namespace {
std::string fixture(const std::string& rel) { return std::string(LIGHT_FIXTURES_DIR) + "/" + rel; }
std::vector<float> floats(const io::SafeTensorsFile& f, const std::string& k) {
  const auto& v = f.at(k);
  return std::vector<float>(v.as<float>(), v.as<float>() + v.numel());
}
}  // namespace

// Every assignment fixture: the reference's successors and groups exactly; words the reference drops
// (successor cycles) come back as extra phrases, each cycle broken at its weakest link.
TEST(Decode, MatchesTheReferenceAndLosesNoWord) {
  const auto cases = nlohmann::json::parse(read_file(fixture("assignment/assignment.json")))["cases"];
  const io::SafeTensorsFile f(fixture("assignment/assignment.safetensors"));
  int checked = 0, with_cycles = 0;
  for (const auto& c : cases) {
    const int i = c["case"], n = c["N"];
    SCOPED_TRACE("case " + std::to_string(i));
    const auto probs = floats(f, "case" + std::to_string(i) + ".probs");
    const link::Decoded d = link::decode_successors(probs, floats(f, "case" + std::to_string(i) + ".bi_probs"), n);
    const auto ref_groups = c["groups"].get<std::vector<std::vector<int>>>();
    const auto dropped = c["dropped_words"].get<std::vector<int>>();
    EXPECT_EQ(d.reference_dropped, dropped);
    ASSERT_GE(d.groups.size(), ref_groups.size());
    EXPECT_EQ(std::vector<std::vector<int>>(d.groups.begin(), d.groups.begin() + static_cast<long>(ref_groups.size())), ref_groups);
    // Successors equal the reference's except where a cycle was broken.
    const auto ref_succ = c["successors"].get<std::vector<int>>();
    for (int w = 0; w < n; ++w)
      if (std::find(dropped.begin(), dropped.end(), w) == dropped.end()) EXPECT_EQ(d.successors[w], ref_succ[w]) << "word " << w;
    // Every word exactly once.
    std::vector<int> all;
    for (const auto& g : d.groups) all.insert(all.end(), g.begin(), g.end());
    std::sort(all.begin(), all.end());
    std::vector<int> expect(n);
    for (int w = 0; w < n; ++w) expect[w] = w;
    EXPECT_EQ(all, expect);
    with_cycles += d.cycles_broken > 0;
    ++checked;
  }
  EXPECT_EQ(checked, 14);
  EXPECT_EQ(with_cycles, 4);
}

TEST(Decode, ACycleIsBrokenAtItsWeakestLink) {
  // 0 -> 1 (0.9), 1 -> 2 (0.8), 2 -> 0 (0.6): the reference drops all three words. Broken at 2 -> 0,
  // the phrase is 0 1 2.
  const std::vector<float> probs{0.05f, 0.9f, 0.05f, 0.1f, 0.1f, 0.8f, 0.6f, 0.2f, 0.2f};
  std::vector<float> bi(9);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) bi[i * 3 + j] = probs[j * 3 + i];
  const auto d = link::decode_successors(probs, bi, 3);
  EXPECT_EQ(d.reference_dropped, (std::vector<int>{0, 1, 2}));
  ASSERT_EQ(d.groups.size(), 1u);
  EXPECT_EQ(d.groups[0], (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(d.cycles_broken, 1);
  EXPECT_EQ(d.successors, (std::vector<int>{1, 2, 2}));
  // Degenerate rows (all zero) end in their own phrases instead of looping forever.
  const auto z = link::decode_successors(std::vector<float>(4, 0.0f), std::vector<float>(4, 0.0f), 2);
  size_t words = 0;
  for (const auto& g : z.groups) words += g.size();
  EXPECT_EQ(words, 2u);
}

// The fixture model's own tiles: decoding its stored probabilities gives the reference's assignment.
TEST(Decode, TheFixtureModelTiles) {
  const auto config = nlohmann::json::parse(read_file(fixture("model/config.json")));
  const io::SafeTensorsFile out(fixture("model/outputs.safetensors"));
  for (const auto& t : config["tiles"]) {
    const std::string name = t["name"];
    const int n = t["N"];
    const auto d = link::decode_successors(floats(out, name + ".probs"), floats(out, name + ".bi_probs"), n);
    EXPECT_EQ(d.successors, t["assignment"]["successors"].get<std::vector<int>>()) << name;
    EXPECT_EQ(d.groups, t["assignment"]["groups"].get<std::vector<std::vector<int>>>()) << name;
  }
}

namespace {
// The dense decoder, as light had it before sparse rows (docs/reference-notes.md §5): every entry of an n x n
// matrix, argmax ties to the highest index. The sparse decoder must give exactly its successors.
std::vector<int> dense_successors(std::vector<float> probs, std::vector<float> bi, int n) {
  std::vector<int> succ_of(n, -1), pred_of(n, -1);
  auto P = [&](int i, int j) -> float& { return probs[static_cast<size_t>(i) * n + j]; };
  auto B = [&](int i, int j) -> float& { return bi[static_cast<size_t>(i) * n + j]; };
  auto argmax = [&](int i) {
    int best = 0;
    for (int j = 1; j < n; ++j)
      if (P(i, j) >= P(i, best)) best = j;
    return best;
  };
  auto all_assigned = [&] { return std::all_of(succ_of.begin(), succ_of.end(), [](int s) { return s >= 0; }); };
  for (long pass = 0; !all_assigned() && pass < static_cast<long>(n) * n + n; ++pass)
    for (int i = 0; i < n; ++i) {
      const int j = argmax(i);
      if (pred_of[j] < 0) {
        succ_of[i] = j, pred_of[j] = i;
        continue;
      }
      const int o = pred_of[j];
      if (o == i) continue;
      if (o == j) {
        succ_of[i] = j, pred_of[j] = i;
      } else if (j == i) {
        succ_of[i] = i;
      } else if (B(j, i) > B(j, o)) {
        succ_of[i] = j, pred_of[j] = i, succ_of[o] = -1;
        P(o, j) = 0, B(j, o) = 0;
      } else {
        P(i, j) = 0, B(j, i) = 0;
      }
    }
  for (int i = 0; i < n; ++i)
    if (succ_of[i] < 0) succ_of[i] = i;
  return succ_of;
}
}  // namespace

TEST(Decode, SparseRowsGiveTheDenseDecodersSuccessorsOnWindowedMaps) {
  // Words along a line, each reading only its window of neighbours (zeros beyond), with ties, rows
  // that are all zero, and windows stored with explicit zeros: sparse and dense agree exactly.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 40), reach = 1 + static_cast<int>(rng() % 6);
    std::vector<float> P(static_cast<size_t>(n) * n, 0.0f), B(P.size(), 0.0f);
    light::data::SparseRows sp(n), sb(n);
    for (int i = 0; i < n; ++i) {
      const bool silent = rng() % 10 == 0;  // a row of zeros
      for (int j = std::max(0, i - reach); j <= std::min(n - 1, i + reach); ++j) {
        const float p = silent ? 0.0f : static_cast<float>(rng() % 5) / 4.0f;  // coarse: ties are common
        const float b = static_cast<float>(rng() % 5) / 4.0f;
        P[static_cast<size_t>(i) * n + j] = p, B[static_cast<size_t>(i) * n + j] = b;
        sp.rows[static_cast<size_t>(i)].emplace_back(j, p);
        sb.rows[static_cast<size_t>(i)].emplace_back(j, b);
      }
    }
    const std::vector<int> want = dense_successors(P, B, n);
    // The words on no path to an end word: successor cycles, which the decoder then breaks.
    std::vector<int> in_cycle;
    for (int i = 0; i < n; ++i) {
      int w = i;
      for (int steps = 0; steps <= n && want[w] != w; ++steps) w = want[w];
      if (want[w] != w) in_cycle.push_back(i);
    }
    for (const auto& d : {light::link::decode_successors(sp, sb), light::link::decode_successors(P, B, n)}) {
      EXPECT_EQ(d.reference_dropped, in_cycle) << "trial " << trial;
      for (int i = 0; i < n; ++i)
        if (!std::binary_search(in_cycle.begin(), in_cycle.end(), i)) EXPECT_EQ(d.successors[i], want[i]) << "trial " << trial << " word " << i;
    }
  }
}

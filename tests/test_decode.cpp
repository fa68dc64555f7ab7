#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

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

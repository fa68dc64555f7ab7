#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "light/error.h"
#include "light/link/decode.h"
#include "light/link/line_judge.h"
#include "test_rows.h"

using namespace light;
using link::JudgeContext;
using link::LineJudge;
using test::frame;
using test::rows;

namespace {

size_t index_of(const char* name) {
  for (size_t k = 0; k < link::kJudgeFeatureCount; ++k)
    if (std::string(link::kJudgeFeatures[k]) == name) return k;
  ADD_FAILURE() << name << " is not a feature";
  return 0;
}
float feature(const std::array<float, link::kJudgeFeatureCount>& f, const char* name) { return f[index_of(name)]; }

// "Site" (100-200 on y 100, height 20); "Castle" (120-200) 1.5 heights below, right-aligned with it;
// "Farm" (0-60) as far below, lining up with nothing; "Lake" (300-380) on Site's line, 5 heights of
// white along. The first decoding ends every phrase.
struct Sheet {
  std::vector<geometry::ReadingFrame> f{frame(100, 200, 100, 20), frame(120, 200, 130, 20), frame(0, 60, 130, 20),
                                        frame(300, 380, 100, 20)};
  data::SparseRows P = rows({{0.4f, 0.2f, 0.2f, 0.2f}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}});
  data::SparseRows Q = rows({{1, 0, 0, 0}, {0.3f, 0.7f, 0, 0}, {0.3f, 0, 0.7f, 0}, {0.3f, 0, 0, 0.7f}});
  JudgeContext ctx = link::make_judge_context(f, nullptr, {0, 1, 2, 3});
};

}  // namespace

TEST(LineJudge, FeaturesSayWhereTheCandidateLiesAndWhetherTheLinesLineUp) {
  const Sheet s;
  const auto castle = link::judge_features(s.ctx, s.P, s.Q, 0, 1);
  EXPECT_EQ(feature(castle, "next_line"), 1);
  EXPECT_EQ(feature(castle, "next_aligned"), 1);
  EXPECT_EQ(feature(castle, "next_offset"), 0);
  EXPECT_EQ(feature(castle, "next_free_ends"), 1);  // Site ends its line, Castle starts its own
  EXPECT_FLOAT_EQ(feature(castle, "next_drop"), (1.5f - 0.75f) / 2.25f);
  EXPECT_EQ(feature(castle, "spread"), 0);
  const auto farm = link::judge_features(s.ctx, s.P, s.Q, 0, 2);
  EXPECT_EQ(feature(farm, "next_line"), 1);
  EXPECT_EQ(feature(farm, "next_aligned"), 0);
  // Lines [100, 200] and [0, 60]: left ends 100 apart, right ends 140, centres 120: 100 / 20 = 5 heights.
  EXPECT_FLOAT_EQ(feature(farm, "next_offset"), 1.0f);
  const auto lake = link::judge_features(s.ctx, s.P, s.Q, 0, 3);
  EXPECT_EQ(feature(lake, "spread"), 1);
  EXPECT_EQ(feature(lake, "next_line"), 0);
  EXPECT_EQ(feature(lake, "spread_on_baseline"), 1);
  EXPECT_FLOAT_EQ(feature(lake, "spread_log_gap"), static_cast<float>(std::log(5.0 / 2.0) / std::log(10.0)));
  const auto end = link::judge_features(s.ctx, s.P, s.Q, 0, 0);
  EXPECT_EQ(feature(end, "end"), 1);
  EXPECT_EQ(feature(end, "end_first_choice"), 1);
  EXPECT_EQ(feature(end, "next_line"), 0);
  EXPECT_EQ(feature(castle, "end"), 0);
}

TEST(LineJudge, AWeightMultipliesTheEntriesWhoseFeatureItIsAndTheirPredecessorEntries) {
  Sheet s;
  const LineJudge judge = LineJudge::from_weights({{"next_aligned", std::log(3.0)}}, 1.0, "config.json: line_judge_weights");
  link::apply_line_judge(s.P, s.Q, s.ctx, judge);
  EXPECT_FLOAT_EQ(s.P.at(0, 1), 0.6f);  // Castle, lined up: times 3
  EXPECT_FLOAT_EQ(s.P.at(0, 2), 0.2f);  // Farm: as it was
  EXPECT_FLOAT_EQ(s.P.at(0, 0), 0.4f);  // "no successor" as it was
  EXPECT_FLOAT_EQ(s.Q.at(1, 0), 0.9f);  // Castle's predecessor entry for Site, times 3
  EXPECT_EQ(link::decode_successors(s.P, s.Q).successors[0], 1);
}

TEST(LineJudge, NoWeightsOrAScaleOfZeroLeaveTheRowsAsTheyWere) {
  for (const LineJudge& judge : {LineJudge{}, LineJudge::from_weights({{"next_line", 2.0}, {"end", -1.0}}, 0.0, "w")}) {
    Sheet s;
    EXPECT_TRUE(judge.empty());
    link::apply_line_judge(s.P, s.Q, s.ctx, judge);
    EXPECT_FLOAT_EQ(s.P.at(0, 0), 0.4f);
    EXPECT_FLOAT_EQ(s.P.at(0, 1), 0.2f);
    EXPECT_FLOAT_EQ(s.Q.at(1, 0), 0.3f);
  }
  // The scale multiplies every weight; "end" weighs the word's own entry.
  Sheet s;
  link::apply_line_judge(s.P, s.Q, s.ctx, LineJudge::from_weights({{"end", std::log(2.0)}}, 2.0, "w"));
  EXPECT_FLOAT_EQ(s.P.at(0, 0), 1.6f);
  EXPECT_FLOAT_EQ(s.P.at(0, 1), 0.2f);
}

TEST(LineJudge, AWeightForAFeatureItDoesNotHaveIsRefusedNamingTheKey) {
  try {
    LineJudge::from_weights({{"next_alined", 1.0}}, 1.0, "m/config.json: line_judge_weights");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("m/config.json: line_judge_weights.next_alined"), std::string::npos) << e.what();
  }
  EXPECT_THROW(LineJudge::from_weights({{"end", NAN}}, 1.0, "w"), Error);
}

TEST(LineJudge, RowsForFittingHoldTheTrueSuccessorsPlaceAmongTheJudgedEntries) {
  const Sheet s;
  std::ostringstream out;
  // Site -> Castle; Castle, Farm, Lake end their phrases; truth unknown for none.
  link::write_judge_rows(out, s.P, s.Q, s.ctx, {1, 1, 2, 3});
  std::istringstream in(out.str());
  std::string line;
  std::vector<nlohmann::json> lines;
  while (std::getline(in, line)) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 4u);
  const auto& site = lines[0];
  ASSERT_EQ(site["rows"].size(), 4u);  // itself, Castle, Farm, Lake
  EXPECT_EQ(site["truth"], 1);
  EXPECT_NEAR(site["rows"][1][0].get<double>(), std::log(0.2), 1e-6);
  EXPECT_EQ(site["rows"][1].size(), link::kJudgeFeatureCount + 1);
  EXPECT_EQ(site["rows"][1][1 + index_of("next_aligned")], 1.0);
  // A word whose true successor is not among its entries (or unknown) writes no row.
  std::ostringstream none;
  link::write_judge_rows(none, s.P, s.Q, s.ctx, {-1, 0, -1, -1});
  EXPECT_EQ(none.str(), "");
  const auto head = nlohmann::json::parse(link::judge_rows_header());
  EXPECT_EQ(head["features"].size(), link::kJudgeFeatureCount);
  EXPECT_EQ(head["features"][0], "near");
}

TEST(LineJudge, TrueSuccessorsFollowEachPhraseAndSkipWordsTheModelDoesNotSee) {
  maptext::Tile t;
  t.groups = {maptext::Group(3), maptext::Group(1)};
  // Model words: the tile's words 0, 2 and 3 (word 1 is illegible, not seen by the model).
  const std::vector<int> truth = link::true_successors(t, {0, 2, 3});
  EXPECT_EQ(truth, (std::vector<int>{-1, 1, 2}));
}

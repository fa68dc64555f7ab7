#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "light/eval/evaluator.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "test_util.h"

using namespace light::eval;
using light::maptext::Dataset;
using light::maptext::Group;
using light::maptext::Kind;
using light::maptext::Tile;
using light::maptext::Word;

namespace {

Word rect(double x, double y, double w, double h, const std::string& text, bool truncated = false) {
  Word word;
  word.vertices = {{x, y + h}, {x + w, y + h}, {x + w, y}, {x, y}};
  word.text = text;
  word.illegible = false;
  word.truncated = truncated;
  return word;
}

Options opts(Task task, bool tight = true) {
  Options o;
  o.task = task;
  o.use_tightness = tight;
  o.threads = 1;
  return o;
}

double get(const Metrics& m, const std::string& key) {
  for (const auto& [k, v] : m)
    if (k == key) return v;
  ADD_FAILURE() << "no metric " << key;
  return -1;
}

std::vector<std::string> keys(const Metrics& m) {
  std::vector<std::string> k;
  for (const auto& kv : m) k.push_back(kv.first);
  return k;
}

// Four words on a line: A B C D, 10 x 5 each, 2 px apart.
Word A() { return rect(0, 0, 10, 5, "Lodge"); }
Word B() { return rect(12, 0, 10, 5, "Pole"); }
Word C() { return rect(24, 0, 10, 5, "Cr."); }
Word far_word() { return rect(500, 500, 10, 5, "Far"); }

const double kSelfIou = 50.0 / (50.0 + 1e-5);

}  // namespace

// The acceptance test: all 8 task/tightness combinations equal the official evaluator's output.
TEST(Eval, MatchesTheOfficialEvaluatorOnTheExample) {
  const auto gt = light::maptext::read_maptext(light::test::example_path("example_gt.json"), {Kind::GroundTruth});
  const auto pred = light::maptext::read_maptext(light::test::example_path("example_pred.json"), {Kind::Predictions});
  const auto expected = nlohmann::ordered_json::parse(light::read_file(light::test::example_path("expected_metrics.json")));
  int checked = 0;
  for (const auto& [name, values] : expected["results"].items()) {
    const std::string task = name.substr(0, name.find(' '));
    Options o = opts(parse_task(task, Protocol::Edges2025), name.find("--no-use-tightness") == std::string::npos);
    const Report r = evaluate(gt, pred, o);
    ASSERT_EQ(r.overall.size(), values.size()) << name;
    size_t k = 0;
    for (const auto& [key, value] : values.items()) {
      EXPECT_EQ(r.overall[k].first, key) << name;  // same keys, same order
      EXPECT_NEAR(r.overall[k].second, value.get<double>(), 1e-12) << name << " " << key;
      ++k;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 8);
}

// Synthetic tiles with rotated words, duplicate detections, ignored words, split and shuffled
// phrases and non-ASCII text, scored independently in Python with shapely and scipy (both
// protocols, every task). Must be equal to the last bit.
TEST(Eval, MatchesAnIndependentShapelyScipyEvaluation) {
  const std::string dir = light::test::source_path("tests/data/crosscheck/");
  const auto gt = light::maptext::read_maptext(dir + "gt.json", {Kind::GroundTruth});
  const auto pred = light::maptext::read_maptext(dir + "pred.json", {Kind::Predictions});
  const auto expected = nlohmann::ordered_json::parse(light::read_file(dir + "expected_metrics.json"));
  int checked = 0;
  for (const auto& [name, values] : expected["results"].items()) {
    std::istringstream words(name);
    std::string protocol, task, tight;
    words >> protocol >> task >> tight;
    Options o = opts(Task::Det, tight == "--use-tightness");
    o.protocol = parse_protocol(protocol);
    o.task = parse_task(task, o.protocol);
    const Report r = evaluate(gt, pred, o);
    ASSERT_EQ(r.overall.size(), values.size()) << name;
    size_t k = 0;
    for (const auto& [key, value] : values.items()) {
      EXPECT_EQ(r.overall[k].first, key) << name;
      EXPECT_EQ(r.overall[k].second, value.get<double>()) << name << " " << key;
      ++k;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 12);
}

TEST(Eval, PerfectPredictionsScoreOne) {
  Dataset gt{{"t.png", {{A(), B()}, {C()}}}};
  const Report r = evaluate(gt, gt, opts(Task::DetRecEdges));
  EXPECT_EQ(get(r.overall, "recall"), 1.0);
  EXPECT_EQ(get(r.overall, "precision"), 1.0);
  EXPECT_DOUBLE_EQ(get(r.overall, "tightness"), kSelfIou);
  EXPECT_EQ(get(r.overall, "char_accuracy"), 1.0);
  EXPECT_EQ(get(r.overall, "edges_recall"), 1.0);
  EXPECT_EQ(get(r.overall, "edges_precision"), 1.0);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(Eval, IgnoredGroundTruthIsDiscounted) {
  // GT: A B, and a truncated word T. Predictions: A, B, T (matched to the ignored word) and X (unmatched).
  Word t = rect(0, 50, 10, 5, "Cold", /*truncated=*/true);
  Dataset gt{{"t.png", {{A(), B()}, {t}}}};
  Dataset pred{{"t.png", {{A(), B()}, {t}, {far_word()}}}};
  const Report r = evaluate(gt, pred, opts(Task::Det));
  EXPECT_EQ(get(r.overall, "recall"), 1.0);             // 2 of 2 countable GT words
  EXPECT_EQ(get(r.overall, "precision"), 2.0 / 3.0);    // 4 predictions, 1 discounted, X is a false positive
}

TEST(Eval, EdgesThroughUnmatchedAndReversedWords) {
  Dataset gt{{"t.png", {{A(), B(), C()}}}};  // edges A->B, B->C
  // A -> X (X matches nothing: a false-positive edge), B -> C correct.
  Dataset pred{{"t.png", {{A(), far_word()}, {B(), C()}}}};
  Report r = evaluate(gt, pred, opts(Task::DetEdges));
  EXPECT_EQ(get(r.overall, "edges_recall"), 0.5);
  EXPECT_EQ(get(r.overall, "edges_precision"), 0.5);
  EXPECT_EQ(get(r.overall, "edges_fscore"), 0.5);
  // Direction matters: C -> B -> A scores no edge.
  Dataset reversed{{"t.png", {{C(), B(), A()}}}};
  r = evaluate(gt, reversed, opts(Task::DetEdges));
  EXPECT_EQ(get(r.overall, "edges_recall"), 0.0);
  EXPECT_EQ(get(r.overall, "edges_precision"), 0.0);
  EXPECT_EQ(get(r.overall, "recall"), 1.0);
}

TEST(Eval, EdgesTouchingIgnoredWordsAreRemoved) {
  Word b = B();
  b.illegible = true;
  Dataset gt{{"t.png", {{A(), b, C()}}}};  // both GT edges touch the illegible B: none count
  Dataset all{{"t.png", {{A(), B(), C()}}}};
  Report r = evaluate(gt, all, opts(Task::DetEdges));
  EXPECT_EQ(get(r.overall, "edges_recall"), 0.0);
  EXPECT_EQ(get(r.overall, "edges_precision"), 0.0);  // both predicted edges touch B's match: removed
  // Linking A -> C across the illegible word (as LIGHT is trained to) is a false-positive edge.
  Dataset bridged{{"t.png", {{A(), C()}}}};
  r = evaluate(gt, bridged, opts(Task::DetEdges));
  EXPECT_EQ(get(r.overall, "edges_precision"), 0.0);
  EXPECT_EQ(get(r.overall, "precision"), 1.0);
}

TEST(Eval, EmptyPredictionsAndMissingImages) {
  Dataset gt{{"a.png", {{A(), B()}}}, {"b.png", {{C()}}}};
  Report r = evaluate(gt, Dataset{}, opts(Task::DetRecEdges));
  EXPECT_EQ(get(r.overall, "recall"), 0.0);
  EXPECT_EQ(get(r.overall, "precision"), 0.0);
  EXPECT_EQ(get(r.overall, "hmean"), 0.0);
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_EQ(r.warnings[0], "Key a.png missing from predictions");
  // One image predicted perfectly, the other missing: pooled counts, 2 of 3 words.
  Dataset pred{{"a.png", {{A(), B()}}}, {"unknown.png", {{C()}}}};
  r = evaluate(gt, pred, opts(Task::Det));
  EXPECT_EQ(get(r.overall, "recall"), 2.0 / 3.0);
  EXPECT_EQ(get(r.overall, "precision"), 1.0);  // predictions for images not in GT are ignored
}

TEST(Eval, AggregationIsPooledNotAveraged) {
  // Image 1: 1 of 1 found. Image 2: 1 of 3 found. Pooled recall 2/4 (a per-image mean would be 2/3).
  Dataset gt{{"1.png", {{A()}}}, {"2.png", {{A(), B(), C()}}}};
  Dataset pred{{"1.png", {{A()}}}, {"2.png", {{B()}}}};
  const Report r = evaluate(gt, pred, opts(Task::Det));
  EXPECT_EQ(get(r.overall, "recall"), 0.5);
  EXPECT_EQ(get(r.per_image[0].second, "recall"), 1.0);
  EXPECT_EQ(get(r.per_image[1].second, "recall"), 1.0 / 3.0);
}

TEST(Eval, RecognitionScoresEditDistance) {
  Word a = A();
  a.text = "Lodqe";  // d = 1: NED 2/11
  Dataset gt{{"t.png", {{A()}}}};
  Dataset pred{{"t.png", {{a}}}};
  const Report r = evaluate(gt, pred, opts(Task::DetRec));
  EXPECT_DOUBLE_EQ(get(r.overall, "char_accuracy"), 1.0 - 2.0 / 11.0);
  EXPECT_EQ(keys(r.overall), (std::vector<std::string>{"recall", "precision", "fscore", "tightness", "quality",
                                                        "hmean", "char_accuracy", "char_quality"}));
}

TEST(Eval, ThresholdIsStrictAndConfigurable) {
  Word half = rect(5, 0, 10, 5, "Lodge");  // overlaps A by half: IoU 25 / 75 = 1/3
  Dataset gt{{"t.png", {{A()}}}};
  Dataset pred{{"t.png", {{half}}}};
  Options o = opts(Task::Det);
  EXPECT_EQ(get(evaluate(gt, pred, o).overall, "recall"), 0.0);
  o.iou_threshold = 0.3;
  EXPECT_EQ(get(evaluate(gt, pred, o).overall, "recall"), 1.0);
}

TEST(Eval, DuplicatePredictionsWithoutTightness) {
  // Two identical predictions over one word tie; one matches, the other is a false positive.
  Dataset gt{{"t.png", {{A()}}}};
  Dataset pred{{"t.png", {{A()}, {A()}}}};
  const Report r = evaluate(gt, pred, opts(Task::Det, /*tight=*/false));
  EXPECT_EQ(get(r.overall, "recall"), 1.0);
  EXPECT_EQ(get(r.overall, "precision"), 0.5);
  EXPECT_DOUBLE_EQ(get(r.overall, "hmean"), 2.0 / 3.0);  // hmean of recall and precision only
}

TEST(Eval, GtRegexIsAnchoredAtTheStart) {
  Dataset gt{{"rumsey/a.png", {{A()}}}, {"sample/b.png", {{B()}}}};
  Options o = opts(Task::Det);
  o.gt_regex = "rumsey/";
  const Report r = evaluate(gt, gt, o);
  ASSERT_EQ(r.per_image.size(), 1u);
  EXPECT_EQ(r.per_image[0].first, "rumsey/a.png");
  o.gt_regex = "a\\.png";  // matches inside the key, but not at its start
  EXPECT_THROW(evaluate(gt, gt, o), light::Error);
  o.gt_regex = "(";
  EXPECT_THROW(evaluate(gt, gt, o), light::Error);
}

TEST(Eval, Protocol2024MatchesWholePhrases) {
  Dataset gt{{"t.png", {{A(), B()}, {C()}}}};
  Options o = opts(parse_task("detlink", Protocol::Phrases2024));
  o.protocol = Protocol::Phrases2024;
  // Same phrases: both groups match.
  Report r = evaluate(gt, gt, o);
  EXPECT_EQ(keys(r.overall), (std::vector<std::string>{"recall", "precision", "fscore", "tightness", "quality"}));
  EXPECT_EQ(get(r.overall, "recall"), 1.0);
  // Splitting "Lodge Pole" into two phrases: neither half covers more than half of the union.
  Dataset split{{"t.png", {{A()}, {B()}, {C()}}}};
  r = evaluate(gt, split, o);
  EXPECT_EQ(get(r.overall, "recall"), 0.5);
  EXPECT_EQ(get(r.overall, "precision"), 1.0 / 3.0);
  // detreclink compares the joined texts "Lodge Pole" by edit distance.
  o.task = parse_task("detreclink", Protocol::Phrases2024);
  Dataset typo{{"t.png", {{A(), rect(12, 0, 10, 5, "Pale")}, {C()}}}};
  r = evaluate(gt, typo, o);
  EXPECT_EQ(get(r.overall, "recall"), 1.0);
  EXPECT_DOUBLE_EQ(get(r.overall, "char_accuracy"), (1.0 + (1.0 - 2.0 / 21.0)) / 2.0);
  // 2024 detrec needs identical text to match at all.
  o.task = Task::DetRec;
  Dataset words{{"t.png", {{A(), rect(12, 0, 10, 5, "Pale"), C()}}}};
  r = evaluate(gt, words, o);
  EXPECT_EQ(get(r.overall, "recall"), 2.0 / 3.0);
  EXPECT_EQ(get(r.overall, "char_accuracy"), 1.0);
}

TEST(Eval, TaskNamesPerProtocol) {
  EXPECT_EQ(parse_task("detrecedges", Protocol::Edges2025), Task::DetRecEdges);
  EXPECT_EQ(parse_task("detreclink", Protocol::Phrases2024), Task::DetRecEdges);
  EXPECT_THROW(parse_task("detlink", Protocol::Edges2025), light::Error);
  EXPECT_THROW(parse_protocol("2023"), light::Error);
}

TEST(Eval, ThreadsGiveIdenticalResults) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0, 1000), jitter(-3, 3);
  Dataset gt, pred;
  for (int t = 0; t < 20; ++t) {
    Tile g{"tile" + std::to_string(t) + ".png", {}}, p{g.image, {}};
    for (int k = 0; k < 15; ++k) {
      const double x = u(rng), y = u(rng);
      Group gg{rect(x, y, 40, 12, "w"), rect(x + 45, y, 30, 12, "ord")};
      Group pp{rect(x + jitter(rng), y + jitter(rng), 40, 12, "w"), rect(x + 45 + jitter(rng), y, 30, 12, "orb")};
      g.groups.push_back(gg);
      p.groups.push_back(pp);
    }
    gt.push_back(g);
    pred.push_back(p);
  }
  Options o = opts(Task::DetRecEdges);
  const Report one = evaluate(gt, pred, o);
  o.threads = 2;
  const Report two = evaluate(gt, pred, o);
  EXPECT_EQ(metrics_to_json_line(one.overall), metrics_to_json_line(two.overall));
  EXPECT_EQ(report_to_json(one), report_to_json(two));
}

TEST(Eval, PrintsPythonStyleJson) {
  const Metrics m{{"recall", 0.875}, {"precision", 1.0}, {"fscore", 0.9333333333333333}, {"x", 1e-05}};
  EXPECT_EQ(metrics_to_json_line(m), R"({"recall": 0.875, "precision": 1.0, "fscore": 0.9333333333333333, "x": 1e-05})");
}

#include "light/link/line_judge.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/geometry/line_chains.h"
#include "light/geometry/link_class.h"
#include "light/link/decoding_prior.h"

namespace light::link {

namespace {

size_t feature_index(const std::string& name) {
  for (size_t k = 0; k < kJudgeFeatureCount; ++k)
    if (name == kJudgeFeatures[k]) return k;
  return kJudgeFeatureCount;
}

double log_height_ratio(const geometry::ReadingFrame& a, const geometry::ReadingFrame& b) {
  return a.height > 0 && b.height > 0 ? std::abs(std::log(b.height / a.height)) : 0.0;
}

float clip(double v, double hi) { return static_cast<float>(std::clamp(std::isfinite(v) ? v : hi, 0.0, hi)); }

}  // namespace

bool LineJudge::empty() const {
  return std::all_of(weights.begin(), weights.end(), [](double w) { return w == 0.0; });
}

LineJudge LineJudge::from_weights(const std::map<std::string, double>& weights, double scale, const std::string& where) {
  LineJudge judge;
  for (const auto& [name, w] : weights) {
    const size_t k = feature_index(name);
    if (k == kJudgeFeatureCount) throw Error(where + "." + name + ": not a feature of the line judge (link/line_judge.h)");
    if (!std::isfinite(w)) throw Error(where + "." + name + ": expected a finite number");
    judge.weights[k] = w * scale;
  }
  return judge;
}

JudgeContext make_judge_context(const std::vector<geometry::ReadingFrame>& frames, const std::vector<Lettering>* letters,
                                std::vector<int> successors, const BaselineTolerance& tolerance) {
  const size_t n = frames.size();
  if (successors.size() != n)
    throw Error("line judge: " + std::to_string(successors.size()) + " successors for " + std::to_string(n) + " word frames");
  JudgeContext c;
  c.frames = &frames;
  c.letters = letters && letters->size() == n ? letters : nullptr;
  c.tolerance = tolerance;
  c.line = geometry::lines_of(successors, frames);
  c.members.assign(n, {});
  for (size_t k = 0; k < n; ++k) c.members[static_cast<size_t>(c.line[k])].push_back(static_cast<int>(k));
  c.ends.assign(n, 1), c.starts.assign(n, 1), c.claimed_by.assign(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const int j = successors[i];
    if (j < 0 || static_cast<size_t>(j) >= n || static_cast<size_t>(j) == i) continue;
    c.claimed_by[static_cast<size_t>(j)] = static_cast<int>(i);
    if (c.line[i] == c.line[static_cast<size_t>(j)]) c.ends[i] = 0, c.starts[static_cast<size_t>(j)] = 0;
  }
  c.successors = std::move(successors);
  return c;
}

namespace {

// kJudgeFeatures by name, in its order.
enum Feature : size_t {
  kNear,
  kBackwards,
  kSpread,
  kNextLine,
  kFarBelow,
  kAbove,
  kNextAligned,
  kNextOffset,
  kNextFreeEnds,
  kNextEnds,
  kNextStarts,
  kNextDrop,
  kNextLogHeight,
  kNextTurn,
  kNextAlike,
  kNextAlong,
  kSpreadOnBaseline,
  kSpreadFreeEnds,
  kSpreadLogGap,
  kSpreadLogHeight,
  kSpreadChord,
  kSpreadAlike,
  kAboveFreeEnds,
  kAboveLogDistance,
  kAboveChord,
  kAboveTurn,
  kAboveLogHeight,
  kAboveAlike,
  kFirstChoice,
  kPredecessorView,
  kClaimedByOther,
  kEnd,
  kEndInsideLine,
  kEndFirstChoice,
  kNextLogP,
  kSpreadLogP,
  kAboveLogP,
  kEndLogP,
  kNextOverlap,
  kTopWord,
  kNextNearest,
  kFeatures
};
static_assert(kFeatures == kJudgeFeatureCount);

// What every entry of row i shares: its largest entry, its most probable word, and its nearest
// candidate on the line below (among the judged entries).
struct RowSummary {
  float top = 0;
  int top_word = -1, nearest_below = -1;
};
RowSummary summarize_row(const JudgeContext& c, const data::SparseRows& P, int i) {
  RowSummary r;
  const auto& row = P.rows[static_cast<size_t>(i)];
  float top_word_p = 0;
  for (const auto& [k, p] : row) {
    r.top = std::max(r.top, p);
    if (k != i && (r.top_word < 0 || p > top_word_p)) r.top_word = k, top_word_p = p;
  }
  const geometry::ReadingFrame& a = (*c.frames)[static_cast<size_t>(i)];
  double best = std::numeric_limits<double>::infinity();
  for (const auto& [k, p] : row) {
    if (k == i || p < kJudgedShare * r.top) continue;
    const geometry::LinkOffset o = geometry::link_offset(a, (*c.frames)[static_cast<size_t>(k)]);
    if (!(o.across > kAboveRise && o.across <= kNextLineDrop)) continue;
    if (const double d = std::hypot(o.along, o.across); d < best) best = d, r.nearest_below = k;
  }
  return r;
}

// How much of the shorter of two lines lies over the other, along `a`'s direction (0-1).
double line_overlap(const JudgeContext& c, const geometry::ReadingFrame& a, int line_a, int line_b) {
  const geometry::LineSpan sa = geometry::line_span(a, c.members[static_cast<size_t>(line_a)], *c.frames);
  const geometry::LineSpan sb = geometry::line_span(a, c.members[static_cast<size_t>(line_b)], *c.frames);
  const double shorter = std::min(sa.hi - sa.lo, sb.hi - sb.lo);
  return shorter > 0 ? clip((std::min(sa.hi, sb.hi) - std::max(sa.lo, sb.lo)) / shorter, 1) : 0.0;
}

std::array<float, kJudgeFeatureCount> features(const JudgeContext& c, const data::SparseRows& P, const data::SparseRows& Q, int i, int j,
                                               const RowSummary& row) {
  std::array<float, kJudgeFeatureCount> f{};
  const auto set = [&f](Feature k, double v) { f[k] = static_cast<float>(v); };
  const size_t si = static_cast<size_t>(i), sj = static_cast<size_t>(j);
  // The entry's log-probability against the row's largest, a fifth, down to -2.
  const double log_p =
      std::clamp(std::log(std::max(static_cast<double>(P.at(i, j)), 1e-30) / std::max(static_cast<double>(row.top), 1e-30)) / 5, -2.0, 0.0);
  if (i == j) {
    set(kEnd, 1);
    set(kEndInsideLine, !c.ends[si]);
    set(kEndFirstChoice, c.successors[si] == i);
    set(kEndLogP, log_p);
    return f;
  }
  const geometry::ReadingFrame& a = (*c.frames)[si];
  const geometry::ReadingFrame& b = (*c.frames)[sj];
  const geometry::LinkOffset o = geometry::link_offset(a, b);
  const bool alike = c.letters && lettered_alike((*c.letters)[si], (*c.letters)[sj]);
  const bool free_ends = c.ends[si] && c.starts[sj];
  const geometry::TurnAndChord t = geometry::turn_and_chord(a, b);
  const double degrees = 180 / M_PI;
  switch (geometry::classify_link(o)) {
    case geometry::LinkClass::Near:
      set(kNear, 1);
      break;
    case geometry::LinkClass::Backwards:
      set(kBackwards, 1);
      break;
    case geometry::LinkClass::Spread:
      set(kSpread, 1);
      set(kSpreadOnBaseline, on_baseline(a, b, c.tolerance));
      set(kSpreadFreeEnds, free_ends);
      set(kSpreadLogGap, clip(std::log(std::max(o.gap, 1e-3) / geometry::kSpreadGap) / std::log(10.0), 2));
      set(kSpreadLogHeight, clip(log_height_ratio(a, b) / 0.5, 2));
      set(kSpreadChord, clip(std::abs(t.chord) * degrees / 10, 3));
      set(kSpreadAlike, alike);
      set(kSpreadLogP, log_p);
      break;
    case geometry::LinkClass::NextLine: {
      if (o.across > kNextLineDrop) {
        set(kFarBelow, 1);
        break;
      }
      const int la = c.line[si], lb = c.line[sj];
      const double off =
          la == lb ? 0.0 : geometry::line_end_offset(a, c.members[static_cast<size_t>(la)], c.members[static_cast<size_t>(lb)], *c.frames);
      set(kNextLine, 1);
      set(kNextAligned, off <= geometry::kAlignedEnds);
      set(kNextOffset, clip(off / 5, 1));
      set(kNextFreeEnds, free_ends);
      set(kNextEnds, c.ends[si]);
      set(kNextStarts, c.starts[sj]);
      set(kNextDrop, clip((o.across - kAboveRise) / (kNextLineDrop - kAboveRise), 1));
      set(kNextLogHeight, clip(log_height_ratio(a, b) / 0.5, 2));
      set(kNextTurn, clip(std::abs(t.turn) * degrees / 45, 2));
      set(kNextAlike, alike);
      set(kNextAlong, clip(std::abs(o.along) / 5, 2));
      set(kNextLogP, log_p);
      set(kNextOverlap, line_overlap(c, a, la, lb));
      set(kNextNearest, row.nearest_below == j);
      break;
    }
    case geometry::LinkClass::Above:
      set(kAbove, 1);
      set(kAboveFreeEnds, free_ends);
      set(kAboveLogDistance, clip(std::log(std::max(std::hypot(o.along, o.across), 1.0)) / std::log(30.0), 2));
      set(kAboveChord, clip(std::abs(t.chord) * degrees / 10, 3));
      set(kAboveTurn, clip(std::abs(t.turn) * degrees / 45, 2));
      set(kAboveLogHeight, clip(log_height_ratio(a, b) / 0.5, 2));
      set(kAboveAlike, alike);
      set(kAboveLogP, log_p);
      break;
  }
  set(kFirstChoice, c.successors[si] == j);
  const double view = (std::log(Q.at(j, i) + 1e-4) - std::log(Q.at(j, j) + 1e-4)) / 5;
  set(kPredecessorView, std::clamp(std::isfinite(view) ? view : 0.0, -1.0, 1.0));
  set(kClaimedByOther, c.claimed_by[sj] >= 0 && c.claimed_by[sj] != i);
  set(kTopWord, row.top_word == j);
  return f;
}

}  // namespace

std::array<float, kJudgeFeatureCount> judge_features(const JudgeContext& c, const data::SparseRows& P, const data::SparseRows& Q, int i,
                                                     int j) {
  return features(c, P, Q, i, j, summarize_row(c, P, i));
}

namespace {

// Row i's judged entries: those at least kJudgedShare of its largest (`top`).
template <class F>
void for_judged(const data::SparseRows& P, int i, float top, F&& f) {
  if (!(top > 0)) return;
  for (const auto& [j, p] : P.rows[static_cast<size_t>(i)])
    if (p >= kJudgedShare * top) f(j, p);
}

}  // namespace

void apply_line_judge(data::SparseRows& P, data::SparseRows& Q, const JudgeContext& c, const LineJudge& judge) {
  if (judge.empty()) return;
  const int n = P.n;
  if (Q.n != n || !c.frames || c.frames->size() != static_cast<size_t>(n) || c.successors.size() != static_cast<size_t>(n))
    throw Error("line judge: " + std::to_string(n) + " successor rows, " + std::to_string(Q.n) + " predecessor rows and " +
                std::to_string(c.frames ? c.frames->size() : 0) + " word frames");
  const auto factor = [&](int i, int j, const RowSummary& row) {
    const auto f = features(c, P, Q, i, j, row);
    double s = 0;
    for (size_t k = 0; k < kJudgeFeatureCount; ++k) s += judge.weights[k] * f[k];
    return static_cast<float>(std::exp(std::clamp(s, -30.0, 30.0)));
  };
  // A row's features read only that row of P, but the predecessor rows as the model and the priors
  // left them: P is weighed row by row, Q once every factor is known.
  std::vector<std::vector<std::pair<int, float>>> by_successor(static_cast<size_t>(n));  // (i, factor) for Q(j, i)
  std::vector<std::pair<int, float>> factors;
  for (int i = 0; i < n; ++i) {
    const RowSummary row = summarize_row(c, P, i);
    factors.clear();
    for_judged(P, i, row.top, [&](int j, float) { factors.emplace_back(j, factor(i, j, row)); });
    for (const auto& [j, x] : factors) {
      *P.find(i, j) *= x;
      if (j != i) by_successor[static_cast<size_t>(j)].emplace_back(i, x);
    }
  }
  for (int j = 0; j < n; ++j)
    for (const auto& [i, x] : by_successor[static_cast<size_t>(j)])
      if (float* q = Q.find(j, i)) *q *= x;
}

std::vector<int> true_successors(const maptext::Tile& tile, const std::vector<size_t>& sources) {
  std::vector<int> model_of(tile.word_count(), -1);
  for (size_t k = 0; k < sources.size(); ++k) model_of[sources[k]] = static_cast<int>(k);
  std::vector<int> truth(sources.size(), -1);
  size_t flat = 0;
  for (const maptext::Group& g : tile.groups) {
    for (size_t q = 0; q < g.size(); ++q)
      if (const int k = model_of[flat + q]; k >= 0) truth[static_cast<size_t>(k)] = q + 1 == g.size() ? k : model_of[flat + q + 1];
    flat += g.size();
  }
  return truth;
}

std::string judge_rows_header() {
  nlohmann::json names = nlohmann::json::array();
  for (const char* f : kJudgeFeatures) names.push_back(f);
  return nlohmann::json{{"features", names}}.dump() + "\n";
}

void write_judge_rows(std::ostream& out, const data::SparseRows& P, const data::SparseRows& Q, const JudgeContext& c,
                      const std::vector<int>& truth) {
  for (int i = 0; i < P.n; ++i) {
    const int t = truth[static_cast<size_t>(i)];
    if (t < 0) continue;
    nlohmann::json rows = nlohmann::json::array();
    int at = -1;
    const RowSummary summary = summarize_row(c, P, i);
    for_judged(P, i, summary.top, [&](int j, float p) {
      if (j == t) at = static_cast<int>(rows.size());
      nlohmann::json r = nlohmann::json::array({std::log(static_cast<double>(p))});
      for (float v : features(c, P, Q, i, j, summary)) r.push_back(v);
      rows.push_back(std::move(r));
    });
    if (at < 0) continue;
    out << nlohmann::json{{"truth", at}, {"rows", std::move(rows)}}.dump() << '\n';
  }
}

}  // namespace light::link

#include "light/util/disjoint_sets.h"
#include "light/eval/evaluator.h"

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <re2/re2.h>
#include <sstream>
#include <unordered_map>

#include "light/eval/assignment.h"
#include "light/eval/edit_distance.h"
#include "light/eval/python_sums.h"
#include "light/geometry/overlap.h"
#include "light/error.h"
#include "light/util/parallel.h"

namespace light::eval {

using geometry::BBox;
using geometry::GeosContext;
using geometry::GeosGeometry;
using maptext::Tile;
using maptext::Word;

constexpr double kIgnoreEpsilon = 1e-12;  // eval.py IGNORE_EPSILON: score of a match with an ignored GT

Protocol parse_protocol(const std::string& name) {
  if (name == "2025") return Protocol::Edges2025;
  if (name == "2024") return Protocol::Phrases2024;
  throw Error("--protocol: expected 2025 or 2024, got \"" + name + "\"");
}

Task parse_task(const std::string& name, Protocol protocol) {
  if (name == "det") return Task::Det;
  if (name == "detrec") return Task::DetRec;
  if (name == "detedges") return Task::DetEdges;
  if (name == "detrecedges") return Task::DetRecEdges;
  if (protocol == Protocol::Phrases2024) {
    if (name == "detlink") return Task::DetEdges;
    if (name == "detreclink") return Task::DetRecEdges;
  }
  throw Error("--task: expected det, detedges, detrec or detrecedges" +
              std::string(protocol == Protocol::Phrases2024 ? " (or detlink, detreclink)" : "") + ", got \"" +
              name + "\"");
}

bool task_has_text(Task t) { return t == Task::DetRec || t == Task::DetRecEdges; }
bool task_has_links(Task t) { return t == Task::DetEdges || t == Task::DetRecEdges; }

namespace {

// One thing to match: a word (2025, and 2024 word tasks) or a whole group (2024 link tasks).
struct Element {
  GeosGeometry geom;
  double area = 0.0;
  BBox box;
  bool has_box = false;
  std::string text;
  bool ignore = false;
  long next = -1;  // index of the following word in the same group (edges), -1 at a group's end
  const std::vector<geometry::Point>* vertices = nullptr;  // words only
  int valid = -1;  // GEOS validity, computed on demand
};

// Per-image totals, summed over images in ground-truth order.
struct Counts {
  long long tp = 0, total_gt = 0, total_pred = 0;
  double tightness = 0.0, rec_score = 0.0;
  long long edges_tp = 0, edges_gt = 0, edges_pred = 0;
};

struct ImageResult {
  Counts counts;
  EdgeVerdicts edges;
  Metrics metrics;
  std::vector<std::string> warnings;
};

BBox merge(const BBox& a, const BBox& b) {
  return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

std::vector<Element> word_elements(GeosContext& ctx, const Tile* tile, std::vector<std::string>& warnings,
                                   const char* side) {
  std::vector<Element> out;
  if (!tile) return out;
  out.reserve(tile->word_count());
  long gi = 0;
  for (const auto& group : tile->groups) {
    for (size_t k = 0; k < group.size(); ++k) {
      const Word& w = group[k];
      Element e;
      e.geom = ctx.polygon(w.vertices);
      if (!e.geom)
        warnings.push_back(std::string(side) + " word " + std::to_string(out.size()) + " (group " +
                           std::to_string(gi) + "): cannot build its polygon: " + ctx.last_error() +
                           "; it matches nothing");
      e.area = ctx.area(e.geom);
      e.box = geometry::bbox(w.vertices);
      e.has_box = true;
      e.vertices = &w.vertices;
      e.text = w.text.value_or("");
      e.ignore = w.ignore();
      if (k + 1 < group.size()) e.next = static_cast<long>(out.size()) + 1;
      out.push_back(std::move(e));
    }
    ++gi;
  }
  return out;
}

// 2024 link tasks: a group is one element (union polygon, words' texts joined by one space,
// ignored if any word is).
std::vector<Element> group_elements(GeosContext& ctx, const Tile* tile, std::vector<std::string>& warnings,
                                    const char* side) {
  std::vector<Element> out;
  if (!tile) return out;
  for (size_t g = 0; g < tile->groups.size(); ++g) {
    const auto& group = tile->groups[g];
    Element e;
    std::vector<GeosGeometry> parts;
    std::vector<const GeosGeometry*> ptrs;
    bool first_text = true;
    for (const Word& w : group) {
      parts.push_back(ctx.polygon(w.vertices));
      const BBox b = geometry::bbox(w.vertices);
      e.box = e.has_box ? merge(e.box, b) : b;
      e.has_box = true;
      if (w.text) {
        if (!first_text) e.text += ' ';
        e.text += *w.text;
        first_text = false;
      }
      e.ignore = e.ignore || w.ignore();
    }
    for (const auto& p : parts) ptrs.push_back(&p);
    if (!group.empty()) {
      e.geom = ctx.unary_union(ptrs);
      if (!e.geom)
        warnings.push_back(std::string(side) + " group " + std::to_string(g) +
                           ": cannot form the union of its words: " + ctx.last_error() + "; it matches nothing");
    }
    e.area = ctx.area(e.geom);
    out.push_back(std::move(e));
  }
  return out;
}

bool same_valid_polygon(GeosContext& ctx, Element& a, const Element& b) {
  if (!a.vertices || !b.vertices || a.vertices->size() != b.vertices->size()) return false;
  for (size_t k = 0; k < a.vertices->size(); ++k)
    if ((*a.vertices)[k].x != (*b.vertices)[k].x || (*a.vertices)[k].y != (*b.vertices)[k].y) return false;
  if (a.valid < 0) a.valid = ctx.is_valid(a.geom) ? 1 : 0;
  return a.valid == 1;
}

Metrics image_metrics(const Counts& c, const Options& opt) {
  const double recall = ratio(static_cast<double>(c.tp), static_cast<double>(c.total_gt));
  const double precision = ratio(static_cast<double>(c.tp), static_cast<double>(c.total_pred));
  const double tightness = ratio(c.tightness, static_cast<double>(c.tp));
  const double fscore = (recall + precision > 0) ? 2.0 * recall * precision / (recall + precision) : 0.0;
  const double quality = tightness * fscore;
  Metrics m{{"recall", recall}, {"precision", precision}, {"fscore", fscore}, {"tightness", tightness},
            {"quality", quality}};
  const bool v2025 = opt.protocol == Protocol::Edges2025;
  if (v2025) m.emplace_back("hmean", harmonic_mean({recall, precision, tightness}));
  if (task_has_text(opt.task)) {
    const double acc = ratio(c.rec_score, static_cast<double>(c.tp));
    m.emplace_back("char_accuracy", acc);
    m.emplace_back("char_quality", acc * quality);
  }
  if (v2025 && task_has_links(opt.task)) {
    const double er = ratio(static_cast<double>(c.edges_tp), static_cast<double>(c.edges_gt));
    const double ep = ratio(static_cast<double>(c.edges_tp), static_cast<double>(c.edges_pred));
    m.emplace_back("edges_recall", er);
    m.emplace_back("edges_precision", ep);
    m.emplace_back("edges_fscore", (er + ep > 0) ? 2.0 * er * ep / (er + ep) : 0.0);
  }
  return m;
}

Metrics overall_metrics(const Counts& c, const Options& opt) {
  Metrics m = image_metrics(c, opt);
  if (opt.protocol != Protocol::Edges2025) return m;
  // The overall hmean combines every reported rate of the task.
  auto get = [&](const char* k) {
    for (auto& kv : m)
      if (kv.first == k) return kv.second;
    return 0.0;
  };
  std::vector<double> terms{get("recall"), get("precision")};
  if (opt.use_tightness) terms.push_back(get("tightness"));
  if (task_has_text(opt.task)) terms.push_back(get("char_accuracy"));
  if (task_has_links(opt.task)) {
    terms.push_back(get("edges_recall"));
    terms.push_back(get("edges_precision"));
  }
  for (auto& kv : m)
    if (kv.first == "hmean") kv.second = harmonic_mean(terms);
  return m;
}

ImageResult evaluate_image(GeosContext& ctx, const Tile& gt_tile, const Tile* pred_tile, const Options& opt) {
  ImageResult res;
  const bool groups_as_elements = opt.protocol == Protocol::Phrases2024 && task_has_links(opt.task);
  std::vector<Element> gt = groups_as_elements ? group_elements(ctx, &gt_tile, res.warnings, "ground-truth")
                                               : word_elements(ctx, &gt_tile, res.warnings, "ground-truth");
  std::vector<Element> pred = groups_as_elements ? group_elements(ctx, pred_tile, res.warnings, "prediction")
                                                 : word_elements(ctx, pred_tile, res.warnings, "prediction");
  const int nr = static_cast<int>(gt.size()), nc = static_cast<int>(pred.size());
  const bool with_text = task_has_text(opt.task);

  // The pairs that may match (IoU above the threshold, and the 2024 detrec text rule) with their IoU
  // and match score, in (ground truth, prediction) order.
  struct Candidate {
    int i, j;
    double iou, score;
  };
  std::vector<Candidate> allowed;
  auto consider = [&](int i, int j) {
    double v = 0.0;
    // Pairs that provably cannot pass the threshold need no exact IoU: it is used only for
    // allowed pairs. Boxes that do not touch cannot intersect at all. (The margin keeps the
    // shortcut exact under rounding.)
    const bool may_match =
        gt[i].has_box && pred[j].has_box && gt[i].box.intersects(pred[j].box) &&
        geometry::iou_upper_bound(gt[i].box, gt[i].area, pred[j].box, pred[j].area, geometry::kPolyEpsilon) >=
            opt.iou_threshold * (1.0 - 1e-9) - 1e-12;
    if (may_match && same_valid_polygon(ctx, gt[i], pred[j])) {
      // A valid polygon against itself: intersection = union = the polygon (GEOS's overlay would
      // give the same area up to the last bit, at great cost).
      v = gt[i].area >= geometry::kPolyEpsilon ? gt[i].area / (gt[i].area + geometry::kPolyEpsilon) : 0.0;
    } else if (may_match) {
      const geometry::OverlapResult r = ctx.iou(gt[i].geom, gt[i].area, pred[j].geom, pred[j].area);
      if (!r.ok) {
        res.warnings.push_back("GEOS error at IoU(ground truth " + std::to_string(i) + ", prediction " +
                               std::to_string(j) + "): " + r.error + "; the pair cannot match");
        return;
      }
      v = r.value;
    }
    bool ok = v > opt.iou_threshold;
    if (ok && opt.protocol == Protocol::Phrases2024 && opt.task == Task::DetRec)
      ok = gt[i].ignore || gt[i].text == pred[j].text;  // 2024 detrec: exact transcription required
    if (!ok) return;
    double s;  // >= 0: every non-candidate pair scores -1 below
    if (gt[i].ignore) {
      s = kIgnoreEpsilon;
    } else {
      const bool tight = opt.protocol == Protocol::Phrases2024 || opt.use_tightness;
      s = tight ? v : 1.0;
      const bool text_score = opt.protocol == Protocol::Edges2025 ? with_text : opt.task == Task::DetRecEdges;
      if (text_score) s = s * (1.0 - normalized_levenshtein(gt[i].text, pred[j].text));
    }
    allowed.push_back({i, j, v, s});
  };

  // Matching: the official evaluator's linear_sum_assignment over the whole nr x nc score matrix
  // (-1 off the candidates), keeping the candidate pairs it picks. Dense up to opt.dense_pairs pairs; above,
  // candidates come from an STRtree and each connected group of candidates is solved alone. The two
  // agree: a full assignment's value is the sum of (score + 1) over its candidate pairs, minus a
  // constant, so the candidates it keeps are a best matching of the candidate graph, whose connected
  // groups are independent.
  // The candidate (i, j): candidates are in (i, j) order.
  auto candidate = [&](int i, int j) {
    return &*std::lower_bound(allowed.begin(), allowed.end(), std::pair(i, j),
                              [](const Candidate& a, const std::pair<int, int>& k) { return std::pair(a.i, a.j) < k; });
  };
  std::vector<const Candidate*> matches;  // in ground-truth order, as linear_sum_assignment gives them
  if (static_cast<size_t>(nr) * static_cast<size_t>(nc) <= opt.dense_pairs) {
    for (int i = 0; i < nr; ++i)
      for (int j = 0; j < nc; ++j) consider(i, j);
    std::vector<double> score(static_cast<size_t>(nr) * nc, -1.0);
    for (const Candidate& a : allowed) score[static_cast<size_t>(a.i) * nc + a.j] = a.score;
    for (const auto& [i, j] : linear_sum_assignment(score, nr, nc, /*maximize=*/true))
      if (score[static_cast<size_t>(i) * nc + j] >= 0) matches.push_back(candidate(i, j));
  } else {
    std::vector<BBox> boxes(nc);
    std::vector<char> present(nc);
    for (int j = 0; j < nc; ++j) boxes[j] = pred[j].box, present[j] = pred[j].has_box ? 1 : 0;
    const geometry::BoxIndex index(ctx, boxes, present);
    for (int i = 0; i < nr; ++i)
      if (gt[i].has_box)
        for (int j : index.touching(gt[i].box)) consider(i, j);
    // Connected groups of candidates: rows 0..nr-1 and columns nr.. joined by union-find.
    DisjointSets joined(static_cast<size_t>(nr) + nc);
    auto find = [&](int x) { return static_cast<int>(joined.find(static_cast<size_t>(x))); };
    for (const Candidate& a : allowed) joined.join(static_cast<size_t>(a.i), static_cast<size_t>(nr + a.j));
    std::unordered_map<int, std::vector<size_t>> groups;
    for (size_t k = 0; k < allowed.size(); ++k) groups[find(allowed[k].i)].push_back(k);
    for (const auto& [r, members] : groups) {
      std::vector<int> rows, cols;
      for (size_t k : members) rows.push_back(allowed[k].i), cols.push_back(allowed[k].j);
      std::sort(rows.begin(), rows.end());
      rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
      const int gr = static_cast<int>(rows.size()), gc = static_cast<int>(cols.size());
      std::vector<double> score(static_cast<size_t>(gr) * gc, -1.0);
      for (size_t k : members) {
        const int a = static_cast<int>(std::lower_bound(rows.begin(), rows.end(), allowed[k].i) - rows.begin());
        const int b = static_cast<int>(std::lower_bound(cols.begin(), cols.end(), allowed[k].j) - cols.begin());
        score[static_cast<size_t>(a) * gc + b] = allowed[k].score;
      }
      for (const auto& [a, b] : linear_sum_assignment(score, gr, gc, /*maximize=*/true))
        if (score[static_cast<size_t>(a) * gc + b] >= 0) matches.push_back(candidate(rows[a], cols[b]));
    }
    std::sort(matches.begin(), matches.end());  // candidates' addresses are in (i, j) order too
  }

  Counts& c = res.counts;
  long long matched_ignored = 0, gt_ignored = 0;
  std::vector<double> tight_terms, rec_terms;
  std::vector<int> gt_of_pred(nc, -1);
  for (const Candidate* m : matches) {
    const int i = m->i, j = m->j;
    gt_of_pred[j] = i;
    if (gt[i].ignore) {
      ++matched_ignored;
      continue;
    }
    tight_terms.push_back(m->iou);
    if (with_text) rec_terms.push_back(1.0 - normalized_levenshtein(gt[i].text, pred[j].text));
  }
  for (const auto& e : gt) gt_ignored += e.ignore ? 1 : 0;
  c.tp = static_cast<long long>(matches.size()) - matched_ignored;
  c.total_gt = nr - gt_ignored;
  c.total_pred = nc - matched_ignored;
  c.tightness = numpy_sum(tight_terms);
  c.rec_score = python_sum(rec_terms);

  if (opt.protocol == Protocol::Edges2025 && task_has_links(opt.task)) {
    // Edges a -> next(a) inside groups. Edges touching an ignored GT word are removed, and so are
    // predicted edges touching a prediction matched to an ignored GT word.
    for (int a = 0; a < nr; ++a)
      if (gt[a].next >= 0 && !gt[a].ignore && !gt[gt[a].next].ignore) ++c.edges_gt;
    auto dropped = [&](int p) { return gt_of_pred[p] >= 0 && gt[gt_of_pred[p]].ignore; };
    std::vector<char> found(opt.edge_verdicts ? static_cast<size_t>(nr) : 0, 0);  // GT words whose link was found
    for (int p = 0; p < nc; ++p) {
      const long q = pred[p].next;
      if (q < 0 || dropped(p) || dropped(static_cast<int>(q))) continue;
      ++c.edges_pred;
      const int g = gt_of_pred[p], h = gt_of_pred[q];
      const bool right = g >= 0 && h >= 0 && gt[g].next == h;
      if (right) ++c.edges_tp;
      if (opt.edge_verdicts) {
        (right ? res.edges.correct : res.edges.wrong).emplace_back(p, static_cast<int>(q));
        if (right) found[static_cast<size_t>(g)] = 1;
      }
    }
    if (opt.edge_verdicts)
      for (int a = 0; a < nr; ++a)
        if (gt[a].next >= 0 && !gt[a].ignore && !gt[gt[a].next].ignore)
          (found[static_cast<size_t>(a)] ? res.edges.found : res.edges.missed).emplace_back(a, static_cast<int>(gt[a].next));
  }
  res.metrics = image_metrics(c, opt);
  return res;
}

void add(Counts& t, const Counts& c) {
  t.tp += c.tp;
  t.total_gt += c.total_gt;
  t.total_pred += c.total_pred;
  t.tightness += c.tightness;
  t.rec_score += c.rec_score;
  t.edges_tp += c.edges_tp;
  t.edges_gt += c.edges_gt;
  t.edges_pred += c.edges_pred;
}

}  // namespace

Report evaluate(const maptext::Dataset& gt, const maptext::Dataset& pred, const Options& opt) {
  // RE2: linear time in the key's length, whatever the pattern (no backtracking, no recursion).
  const bool filter = !opt.gt_regex.empty();
  RE2::Options re_options;
  re_options.set_log_errors(false);
  const RE2 re(filter ? opt.gt_regex : std::string("x"), re_options);
  if (filter && !re.ok())
    throw Error("--gt-regex: invalid regular expression \"" + opt.gt_regex + "\": " + re.error() +
                " (RE2 syntax: Python's, without backreferences or lookaround)");
  auto keep = [&](const std::string& key) {  // Python's re.match: anchored at the start only
    return !filter || re.Match(key, 0, key.size(), RE2::ANCHOR_START, nullptr, 0);
  };

  std::vector<const Tile*> gt_tiles;
  for (const Tile& t : gt)
    if (keep(t.image)) gt_tiles.push_back(&t);
  if (gt_tiles.empty()) throw Error("no ground-truth images to evaluate" + std::string(filter ? " (after --gt-regex)" : ""));

  std::unordered_map<std::string, const Tile*> pred_by_key;
  for (const Tile& t : pred)
    if (keep(t.image)) pred_by_key.emplace(t.image, &t);

  const size_t n = gt_tiles.size();
  std::vector<ImageResult> results(n);
  std::vector<const Tile*> pred_tiles(n, nullptr);
  for (size_t k = 0; k < n; ++k) {
    auto it = pred_by_key.find(gt_tiles[k]->image);
    if (it != pred_by_key.end()) pred_tiles[k] = it->second;
  }

  // One GEOS context a thread (its geometries never meet another thread's).
  std::vector<std::unique_ptr<GeosContext>> contexts(static_cast<size_t>(thread_count(opt.threads, n)));
  parallel_for(n, opt.threads, [&](size_t k, int worker) {
    auto& ctx = contexts[static_cast<size_t>(worker)];
    if (!ctx) ctx = std::make_unique<GeosContext>();
    try {
      results[k] = evaluate_image(*ctx, *gt_tiles[k], pred_tiles[k], opt);
    } catch (const std::bad_alloc&) {
      throw Error("image \"" + gt_tiles[k]->image + "\": out of memory matching its " +
                  std::to_string(gt_tiles[k]->word_count()) + " ground-truth words against " +
                  std::to_string(pred_tiles[k] ? pred_tiles[k]->word_count() : 0) + " predicted ones");
    }
  });

  Report report;
  Counts total;
  for (size_t k = 0; k < n; ++k) {
    const std::string& key = gt_tiles[k]->image;
    if (!pred_tiles[k]) report.warnings.push_back("Key " + key + " missing from predictions");
    for (const auto& w : results[k].warnings) report.warnings.push_back("image \"" + key + "\": " + w);
    add(total, results[k].counts);
    report.per_image.emplace_back(key, std::move(results[k].metrics));
    if (opt.edge_verdicts) report.edges.push_back(std::move(results[k].edges));
  }
  report.edges_correct = total.edges_tp;
  report.edges_wrong = total.edges_pred - total.edges_tp;
  report.edges_missed = total.edges_gt - total.edges_tp;
  report.overall = overall_metrics(total, opt);
  return report;
}

namespace {
nlohmann::ordered_json to_json(const Metrics& m) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [k, v] : m) j[k] = v;
  return j;
}
}  // namespace

std::string metrics_to_json_line(const Metrics& m) {
  std::string out = "{";
  for (size_t i = 0; i < m.size(); ++i) {
    if (i) out += ", ";
    out += nlohmann::json(m[i].first).dump() + ": " + nlohmann::json(m[i].second).dump();
  }
  return out + "}";
}

std::string report_to_json(const Report& r) {
  nlohmann::ordered_json images = nlohmann::ordered_json::object();
  for (const auto& [key, m] : r.per_image) images[key] = to_json(m);
  nlohmann::ordered_json root;
  root["images"] = std::move(images);
  root["results"] = to_json(r.overall);
  return root.dump(4) + "\n";
}

}  // namespace light::eval

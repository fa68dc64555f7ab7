// The MapText competition metrics, computed as the official evaluator (icdar-maptext/evaluation,
// eval.py) computes them. Two protocols:
//   2025 (default): word-level detection/recognition plus directed word-to-word "edges" (links).
//   2024: the earlier phrase-level protocol; "link" tasks match whole groups (union polygon,
//         space-joined text) instead of scoring edges.
// The tasks, the matching and where it deliberately differs from eval.py: docs/commands.md, "light eval".
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "light/maptext.h"

namespace light::eval {

enum class Task { Det, DetEdges, DetRec, DetRecEdges };
enum class Protocol { Edges2025, Phrases2024 };

// Parses a task name. 2025: det, detedges, detrec, detrecedges. 2024: det, detlink (= detedges),
// detrec, detreclink (= detrecedges); the 2025 names are accepted there too.
Task parse_task(const std::string& name, Protocol protocol);
Protocol parse_protocol(const std::string& name);
bool task_has_text(Task t);
bool task_has_links(Task t);

struct Options {
  Task task = Task::DetRecEdges;
  Protocol protocol = Protocol::Edges2025;
  double iou_threshold = 0.5;  // a match needs IoU strictly above this
  bool use_tightness = true;   // 2025: weigh matches (and the hmean) by IoU
  std::string gt_regex;        // Python re.match semantics (anchored at the start); empty = all
  int threads = 0;             // 0 = all hardware threads
  // A tile with at most this many (ground truth x prediction) pairs is matched on the whole score
  // matrix, as the official evaluator does; a larger one only on the pairs whose boxes touch (same
  // matches, memory proportional to those pairs).
  size_t dense_pairs = size_t{1} << 22;
  // 2025 link tasks: also say which links were right (Report::edges), for `light view --gt`.
  bool edge_verdicts = false;
};

// Metric name -> value, in the order the official evaluator prints them.
using Metrics = std::vector<std::pair<std::string, double>>;

// The evaluator's verdict on each link of one image (word indices in file order, groups one after
// another): a predicted link whose two words match two consecutive ground-truth words is correct,
// any other counted predicted link wrong, and a counted ground-truth link no prediction found missed.
// Their numbers are the counts behind edges_recall and edges_precision (links touching an ignored
// word are in none of the three).
struct EdgeVerdicts {
  std::vector<std::pair<int, int>> correct, wrong;  // predicted words
  std::vector<std::pair<int, int>> missed;          // ground-truth words
  std::vector<std::pair<int, int>> found;           // ground-truth words: the links `correct` found
};

struct Report {
  Metrics overall;
  // With Options::edge_verdicts: per image, in ground-truth order (as per_image).
  std::vector<EdgeVerdicts> edges;
  // The overall counts of correct, wrong and missed links (2025 link tasks).
  long long edges_correct = 0, edges_wrong = 0, edges_missed = 0;
  std::vector<std::pair<std::string, Metrics>> per_image;  // in ground-truth order
  std::vector<std::string> warnings;                       // in ground-truth order
};

// Scores predictions against ground truth. Images are keyed by their "image" string; ground-truth
// images missing from the predictions are scored with no predictions (and warned about);
// prediction images absent from the ground truth are ignored. Throws light::Error when no
// ground-truth image is left (after --gt-regex) or for a bad regex.
Report evaluate(const maptext::Dataset& gt, const maptext::Dataset& pred, const Options& options);

// One line, Python-json style: {"recall": 0.875, "precision": 1.0, ...}
std::string metrics_to_json_line(const Metrics& m);

// {"images": {image: metrics, ...}, "results": overall}, indented by 4 (eval.py --output).
std::string report_to_json(const Report& r);

}  // namespace light::eval

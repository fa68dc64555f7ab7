// `light eval`: the official MapText metrics (see docs/commands.md, "light eval").
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/eval/evaluator.h"
#include "light/eval/link_classes.h"
#include "light/maptext.h"
#include "light/error.h"
#include "light/util/fs.h"

namespace light::cli {

namespace {
struct EvalArgs {
  std::string gt, pred, task, protocol = "2025", gt_regex, per_image;
  double iou_threshold = 0.5;
  bool no_tightness = false;
  bool all_warnings = false;
  bool counts = false;
  bool link_classes = false;
  int threads = 0;
};

void run_eval(const EvalArgs& a) {
  check_output_is_not_input("--per-image", a.per_image, {{"--gt", a.gt}, {"--pred", a.pred}});
  eval::Options opt;
  opt.protocol = eval::parse_protocol(a.protocol);
  opt.task = eval::parse_task(a.task, opt.protocol);
  if (a.counts && (opt.protocol != eval::Protocol::Edges2025 || !eval::task_has_links(opt.task)))
    throw Error("--counts: link counts are for the 2025 link tasks (detedges, detrecedges)");
  if (a.link_classes && (opt.protocol != eval::Protocol::Edges2025 || !eval::task_has_links(opt.task)))
    throw Error("--link-classes: link classes are for the 2025 link tasks (detedges, detrecedges)");
  opt.edge_verdicts = a.link_classes;
  if (!(a.iou_threshold >= 0 && a.iou_threshold < 1))
    throw Error("--iou-threshold: expected a number in [0, 1), got " + std::to_string(a.iou_threshold));
  opt.iou_threshold = a.iou_threshold;
  opt.use_tightness = !a.no_tightness;
  opt.gt_regex = a.gt_regex;
  opt.threads = a.threads;

  const auto gt = maptext::read_maptext(a.gt, {maptext::Kind::GroundTruth, false});
  const auto pred = maptext::read_maptext(a.pred, {maptext::Kind::Predictions, eval::task_has_text(opt.task)});
  const eval::Report report = eval::evaluate(gt, pred, opt);
  const size_t shown = a.all_warnings ? report.warnings.size() : std::min<size_t>(report.warnings.size(), 20);
  for (size_t k = 0; k < shown; ++k) std::fprintf(stderr, "warning: %s\n", report.warnings[k].c_str());
  if (shown < report.warnings.size())
    std::fprintf(stderr, "warning: %zu more warnings not shown (--all-warnings lists them)\n",
                 report.warnings.size() - shown);
  if (!a.per_image.empty()) write_file_atomic(a.per_image, eval::report_to_json(report));
  std::printf("%s\n", eval::metrics_to_json_line(report.overall).c_str());
  if (a.counts) {
    std::printf("{\"edges_correct\": %lld, \"edges_wrong\": %lld, \"edges_missed\": %lld}\n", report.edges_correct, report.edges_wrong,
                report.edges_missed);
  }
  if (a.link_classes) std::printf("%s\n", eval::link_classes_to_json_line(eval::count_link_classes(gt, pred, report)).c_str());
}
}  // namespace

void add_eval_command(CLI::App& app) {
  auto args = std::make_shared<EvalArgs>();
  CLI::App* cmd = app.add_subcommand("eval", "Score predictions against ground truth with the MapText metrics");
  cmd->add_option("--gt", args->gt, "Ground-truth MapText JSON")->required();
  cmd->add_option("--pred", args->pred, "Predicted MapText JSON")->required();
  cmd->add_option("--task", args->task, "det | detedges | detrec | detrecedges (2024: detlink, detreclink)")
      ->required();
  cmd->add_option("--iou-threshold", args->iou_threshold, "A match needs IoU above this")->capture_default_str();
  cmd->add_flag("--no-use-tightness", args->no_tightness, "Do not weigh matches and hmean by IoU (2025)");
  cmd->add_flag("--use-tightness{false}", args->no_tightness, "Weigh matches by IoU (the default)");
  cmd->add_option("--gt-regex", args->gt_regex, "Only images whose key matches (anchored at the start)");
  cmd->add_option("--per-image,--output", args->per_image, "Also write per-image metrics to this JSON file");
  cmd->add_option("--protocol", args->protocol, "2025 (word edges, default) or 2024 (phrases)")
      ->capture_default_str();
  cmd->add_flag("--all-warnings", args->all_warnings, "List every warning (default: the first 20)");
  cmd->add_flag("--counts", args->counts, "Also print the numbers of correct, wrong and missed links (a second JSON line)");
  cmd->add_flag("--link-classes", args->link_classes,
                "Also print links, recall and false links by where the next word lies: near, spread, next_line, above, backwards (a JSON line)");
  cmd->add_option("--threads", args->threads, "Worker threads (0 = all cores)")->capture_default_str();
  cmd->callback([args] { run_eval(*args); });
}

}  // namespace light::cli

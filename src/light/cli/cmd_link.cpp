// `light link`: group the loose words of every tile into ordered phrases (see README "light link").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/link/heuristic.h"
#include "light/maptext/maptext.h"
#include "light/util/error.h"

namespace light::cli {

namespace {
struct LinkArgs {
  std::string method, words, out, order = "path";
  std::vector<double> weights{1.0, 1.0, 1.0};
  int threads = 0;
  bool quiet = false;
};

void run_link(const LinkArgs& a) {
  link::HeuristicOptions opt;
  opt.method = baselines::parse_method(a.method);
  opt.order = link::parse_order(a.order);
  if (a.weights.size() != 3) throw Error("--weights: expected three numbers a,b,c");
  opt.weights = {a.weights[0], a.weights[1], a.weights[2]};
  opt.threads = a.threads;
  opt.progress = !a.quiet;
  const auto data = maptext::read_maptext(a.words, {maptext::Kind::Predictions, false});
  const auto linked = link::link_heuristic(data, opt);
  maptext::write_maptext(a.out, linked);
}
}  // namespace

void add_link_command(CLI::App& app) {
  auto args = std::make_shared<LinkArgs>();
  CLI::App* cmd = app.add_subcommand("link", "Link the words of every tile into ordered phrases");
  cmd->add_option("--method", args->method, "distance | mst (heuristic linkers; no model needed)")->required();
  cmd->add_option("--words", args->words, "MapText JSON whose words to link (ground truth or spotter output)")
      ->required();
  cmd->add_option("-o,--out", args->out, "Output MapText JSON (predictions, regrouped)")->required();
  cmd->add_option("--order", args->order, "path (follow the links) | yx (sort each phrase by y, then x)")
      ->capture_default_str();
  cmd->add_option("--weights", args->weights, "Edge cost weights a,b,c of D·HR^a·(1+b·S)·(1+c·C) (mst)")
      ->delimiter(',')
      ->expected(3);
  cmd->add_option("--threads", args->threads, "Worker threads (0 = all cores)")->capture_default_str();
  cmd->add_flag("-q,--quiet", args->quiet, "No progress line");
  cmd->callback([args] { run_link(*args); });
}

}  // namespace light::cli

// `light curves`: compare runs' logs in one drawing (see docs/commands.md, "light curves").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/image/run_curves.h"
#include "light/error.h"
#include "light/util/fs.h"

namespace light::cli {

void add_curves_command(CLI::App& app) {
  struct Args {
    std::vector<std::string> runs, names;
    std::string out;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("curves", full_command_description("curves"));
  cmd->add_option("runs", a->runs, "Run folders (or their log.jsonl files)")->required();
  cmd->add_option("-o,--out", a->out, "PNG to write (none: only the summary)");
  cmd->add_option("--names", a->names, "Legend labels, one a run (default: the folder names)")->delimiter(',');
  cmd->callback([a] {
    if (!a->names.empty() && a->names.size() != a->runs.size())
      throw Error("--names: " + std::to_string(a->names.size()) + " label(s) for " + std::to_string(a->runs.size()) + " run(s)");
    std::vector<NamedPath> inputs;
    for (const auto& r : a->runs) inputs.push_back({"run", r}), inputs.push_back({"run", r + "/log.jsonl"});
    check_output_is_not_input("-o/--out", a->out, inputs);
    std::vector<image::RunLog> logs;
    for (size_t k = 0; k < a->runs.size(); ++k) logs.push_back(image::read_run_log(a->runs[k], a->names.empty() ? "" : a->names[k]));
    if (!a->out.empty()) image::draw_runs(logs, a->out);
    std::fputs(image::summarise_runs(logs).c_str(), stdout);
    if (!a->out.empty()) std::fprintf(stderr, "curves: %zu run(s) -> %s\n", logs.size(), a->out.c_str());
  });
}

}  // namespace light::cli

// The command line of a training command from its options description (train/run_options.h): every
// option with a flag, the data-parallel flags, --overwrite, --resume and -q/--quiet; then, when it runs,
// either the resumed run's options.json (refusing the flags it holds) or the flags a new run needs.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "light/cli/commands.h"
#include "light/train/run_options.h"

namespace light::cli {

// --world-size, --rank, --store (data-parallel training; shared by train, pretrain-poly and pretrain).
inline void add_distributed_options(CLI::App* cmd, train::DistributedOptions& d) {
  cmd->add_option("--world-size", d.world_size, "Data-parallel processes in all (each takes --batch-size tiles a step)")->capture_default_str();
  cmd->add_option("--rank", d.rank, "This process's rank, 0..world-size-1 (rank 0 writes the run folder)")->capture_default_str();
  cmd->add_option("--store", d.store, "Where ranks meet: a fresh folder they all see, or host:port (rank 0 listens)");
}

struct RunFlags {
  std::string resume;
  bool quiet = false;
};

template <class Options>
std::shared_ptr<RunFlags> add_run_options(CLI::App* cmd, Options& o, const std::vector<train::RunOption<Options>>& options) {
  for (const auto& d : options) {
    if (!d.flag) continue;
    std::visit(
        [&](auto m) {
          using T = std::decay_t<decltype(o.*m)>;
          Options* op = &o;
          if constexpr (std::is_same_v<T, bool>) {
            if (d.negated) cmd->add_flag_callback(d.flag, [op, m] { op->*m = false; }, d.help);
            else cmd->add_flag(d.flag, o.*m, d.help);
          } else {
            CLI::Option* opt = cmd->add_option(d.flag, o.*m, d.help);
            if constexpr (std::is_same_v<T, std::string>) {
              if (!d.choices.empty()) opt->check(CLI::IsMember(d.choices));
              if (!(o.*m).empty()) opt->capture_default_str();
            } else {
              opt->capture_default_str();
            }
          }
        },
        d.member);
  }
  add_distributed_options(cmd, o.distributed);
  auto flags = std::make_shared<RunFlags>();
  cmd->add_flag("--overwrite", o.overwrite, "Replace what an existing, non-empty --out folder holds (a new run)");
  cmd->add_option("--resume", flags->resume, "Continue the run in this folder from its last checkpoint (its options.json holds the rest)");
  cmd->add_flag("-q,--quiet", flags->quiet, "No progress");
  return flags;
}

// Called first in the command's callback. `what` names the run kind in errors ("training", "pretrain").
template <class Options>
void resolve_run_options(CLI::App* cmd, Options& o, const std::vector<train::RunOption<Options>>& options, const RunFlags& flags,
                         const std::string& what) {
  o.progress = !flags.quiet;
  if (!flags.resume.empty()) {
    for (const auto& d : options)
      if (d.flag && d.resume == train::RunOption<Options>::Resume::Fixed && cmd->count(d.flag) > 0)
        throw CLI::ValidationError(std::string(d.flag) + ": not with --resume (the run's options.json holds it)");
    train::read_run_options(flags.resume, what, options, o, [cmd](const char* flag) { return cmd->count(flag) > 0; });
  } else {
    for (const auto& d : options)
      if (d.flag && d.required_flag && cmd->count(d.flag) == 0) throw CLI::RequiredError(d.flag);
  }
}

}  // namespace light::cli

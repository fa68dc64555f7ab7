// `light train`: fine-tune LIGHT on annotated maps (see docs/commands.md, "light train").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/cli/run_options.h"
#include "light/train/distributed_options.h"
#include "light/train/trainer.h"

namespace light::cli {

void add_train_command(CLI::App& app) {
  auto o = std::make_shared<train::TrainOptions>();
  CLI::App* cmd = app.add_subcommand("train", full_command_description("train"));
  const auto flags = add_run_options(cmd, *o, train::train_run_options());
  cmd->callback([o, flags, cmd] {
    resolve_run_options(cmd, *o, train::train_run_options(), *flags, "training");
    for (const char* name : {"--head", "--window-word-height", "--config", "--modalities", "--scale-jitter"})
      if (cmd->count(name) > 0) o->given.insert(name);
    const auto s = train::train(*o);
    if (o->distributed.rank != 0) return;
    std::fprintf(stderr, "train: %d epoch(s); best val loss %.4f at epoch %d (edges F %.3f) -> %s/best\n", s.epochs,
                 s.best_val_loss, s.best_epoch, s.best_edges_fscore, o->out_dir.c_str());
  });
}

}  // namespace light::cli

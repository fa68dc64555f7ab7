// `light pretrain`: pretrain LIGHT (MLM, MIM, WPA) on unlabelled tiles (see docs/commands.md, "light pretrain").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/cli/run_options.h"
#include "light/train/light_pretrain.h"

namespace light::cli {

void add_pretrain_command(CLI::App& app) {
  auto o = std::make_shared<train::LightPretrainOptions>();
  CLI::App* cmd = app.add_subcommand("pretrain", full_command_description("pretrain"));
  const auto flags = add_run_options(cmd, *o, train::light_pretrain_run_options());
  cmd->callback([o, flags, cmd] {
    resolve_run_options(cmd, *o, train::light_pretrain_run_options(), *flags, "pretrain");
    const auto s = train::light_pretrain(*o);
    if (o->distributed.rank == 0) {
      std::fprintf(stderr, "pretrain: %ld step(s) over %zu tile(s); loss %.4f -> %.4f -> %s/final\n", s.steps, s.tiles, s.first_loss,
                   s.last_loss, o->out_dir.c_str());
      if (s.left_out_words > 0)
        std::fprintf(stderr, "pretrain: %zu word draw(s) did not fit --max-length %d and were left out of their step\n", s.left_out_words,
                     o->max_length);
      if (s.degenerate_polygons > 0)
        std::fprintf(stderr, "pretrain: %zu polygon draw(s) could not be resampled to 16 points and were fed as given; first: %s\n",
                     s.degenerate_polygons, s.first_degenerate.c_str());
    }
  });
}

}  // namespace light::cli

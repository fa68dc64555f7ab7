// `light pretrain-poly`: pretrain the polygon encoder on word polygons (see docs/commands.md, "light pretrain-poly").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/cli/run_options.h"
#include "light/train/distributed_options.h"
#include "light/train/poly_pretrain.h"

namespace light::cli {

void add_pretrain_poly_command(CLI::App& app) {
  auto o = std::make_shared<train::PolyPretrainOptions>();
  CLI::App* cmd = app.add_subcommand("pretrain-poly", full_command_description("pretrain-poly"));
  const auto flags = add_run_options(cmd, *o, train::poly_pretrain_run_options());
  cmd->callback([o, flags, cmd] {
    resolve_run_options(cmd, *o, train::poly_pretrain_run_options(), *flags, "pretrain-poly");
    const auto s = train::poly_pretrain(*o);
    if (o->distributed.rank != 0) return;
    std::fprintf(stderr, "pretrain-poly: %ld step(s) over %zu tile(s); loss %.4f -> %.4f -> %s/final\n", s.steps, s.tiles,
                 s.first_loss, s.last_loss, o->out_dir.c_str());
    if (s.skipped_polygons > 0) std::fprintf(stderr, "pretrain-poly: %zu polygon(s) with fewer than 3 points left out\n", s.skipped_polygons);
    if (s.degenerate_polygons > 0)
      std::fprintf(stderr, "pretrain-poly: %zu polygon draw(s) could not be resampled to 16 points and were fed as given; first: %s\n",
                   s.degenerate_polygons, s.first_degenerate.c_str());
  });
}

}  // namespace light::cli

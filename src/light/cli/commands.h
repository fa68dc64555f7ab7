// Each `light` subcommand registers itself on the CLI11 app. Commands are thin: they parse
// options, call the library, print, and let light::Error reach main() for a clean exit.
#pragma once

namespace CLI {
class App;
}

namespace light::train {
struct DistributedOptions;
}

namespace light::cli {

void add_eval_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_link_command(CLI::App& app);
void add_synth_command(CLI::App& app);
void add_draw_command(CLI::App& app);
void add_prepare_command(CLI::App& app);
void add_forward_command(CLI::App& app);
void add_train_command(CLI::App& app);
void add_pretrain_poly_command(CLI::App& app);
void add_pretrain_command(CLI::App& app);
void add_curves_command(CLI::App& app);

// --world-size, --rank, --store (data-parallel training; shared by train, pretrain-poly and pretrain).
void add_distributed_options(CLI::App* cmd, train::DistributedOptions& options);

}  // namespace light::cli

// `light-full`: every `light` command, those with LibTorch, OpenCV and Pango included (synth, draw,
// prepare, curves, link --model, forward, train, pretrain-poly, pretrain, info). `light` hands
// those command lines here.
#include <CLI/CLI.hpp>

#include "light/cli/app.h"
#include "light/cli/commands.h"
#include "light/util/blas.h"

int main(int argc, char** argv) {
  light::ensure_fast_blas(argv);
  return light::cli::run_app(argc, argv, [](CLI::App& app) {
    light::cli::add_synth_command(app);
    light::cli::add_draw_command(app);
    light::cli::add_prepare_command(app);
    light::cli::add_forward_command(app);
    light::cli::add_train_command(app);
    light::cli::add_pretrain_poly_command(app);
    light::cli::add_pretrain_command(app);
    light::cli::add_curves_command(app);
    light::cli::add_info_command(app);
    light::cli::add_view_command(app);
    light::cli::add_spot_command(app);
    light::cli::add_train_spotter_command(app);
#ifdef LIGHT_HAVE_ONNX
    light::cli::add_import_ppocr_command(app);
#endif
  });
}

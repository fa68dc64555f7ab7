// The `light` command: links the words of historical maps into phrases, and measures how well.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>

#include "light/cli/commands.h"
#include "light/model/runtime.h"
#include "light/util/error.h"

int main(int argc, char** argv) {
  light::model::ensure_fast_blas(argv);
  CLI::App app{"light: link the words found on historical maps into place names (LIGHT, in C++)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "light 0.1.0");
  light::cli::add_link_command(app);
  light::cli::add_eval_command(app);
  light::cli::add_synth_command(app);
  light::cli::add_draw_command(app);
  light::cli::add_prepare_command(app);
  light::cli::add_forward_command(app);
  light::cli::add_train_command(app);
  light::cli::add_pretrain_poly_command(app);
  light::cli::add_pretrain_command(app);
  light::cli::add_curves_command(app);
  light::cli::add_info_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "light: error: out of memory\n");
    return 1;
  } catch (const light::Error& e) {
    std::fprintf(stderr, "light: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "light: internal error: %s\n", e.what());
    return 3;
  }
  return 0;
}

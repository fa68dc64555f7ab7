// The `light` command line, shared by its two binaries: `light` (eval and heuristic linking, without
// LibTorch, OpenCV or Pango: starts in milliseconds) and `light-full` (every command).
#pragma once
#include <functional>

namespace CLI {
class App;
}

namespace light::cli {

// Builds the app (link and eval, then `add_full_commands`, or without it stand-ins listed for --help),
// parses argv and runs the command. Returns the exit status: 0, 1 for a light::Error (message on
// stderr), CLI11's for a bad command line, 3 for an internal error.
int run_app(int argc, char** argv, const std::function<void(CLI::App&)>& add_full_commands = {});

}  // namespace light::cli

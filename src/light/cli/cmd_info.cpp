// `light info`: versions and the compute setup (LibTorch, threads, CUDA, BLAS kernel).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "light/cli/commands.h"
#include "light/error.h"
#include "light/link/default_model.h"
#include "light/model/device.h"
#include "light/model/runtime.h"
#include "light/train/distributed_options.h"

namespace light::cli {

void add_info_command(CLI::App& app) {
  auto threads = std::make_shared<int>(0);
  CLI::App* cmd = app.add_subcommand("info", full_command_description("info"));
  cmd->add_option("--threads", *threads, "Threads to configure (0 = all cores)")->capture_default_str();
  cmd->callback([threads] {
    model::set_threads(*threads);
    const model::RuntimeInfo info = model::runtime_info();
    std::printf("light 0.1.0\n");
    std::printf("libtorch %s, %d thread(s)\n", info.torch_version.c_str(), info.threads);
    std::printf("cuda: %s\n", info.cuda_available ? (std::to_string(info.cuda_devices) + " device(s)").c_str()
                                                   : "not available");
    std::printf("data-parallel: %s\n", train::distributed_available() ? "c10d/Gloo (--world-size)" : "not in this build (LibTorch's c10d/Gloo headers were missing)");
    std::string model;
    try {
      model = link::find_default_model(executable_dir());
    } catch (const Error& e) {
      model = e.what();
    }
    std::printf("default model (light link): %s\n", model.empty() ? "none found (give --model, or set LIGHT_MODEL)" : model.c_str());
    std::printf("blas: %s\n", info.blas_core.empty() ? "not OpenBLAS (or not loaded)" : ("OpenBLAS, kernel " + info.blas_core).c_str());
  });
}

}  // namespace light::cli

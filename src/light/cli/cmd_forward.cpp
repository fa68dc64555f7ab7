// `light forward`: the model's intermediate outputs for every tile of an inputs file (parity harness).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/link/forward_outputs.h"
#include "light/util/fs.h"

namespace light::cli {

void add_forward_command(CLI::App& app) {
  struct Args {
    std::string model, inputs, out;
    int threads = 0;
    std::string device = "cpu";
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("forward", full_command_description("forward"));
  cmd->add_option("--model", a->model, "Model folder (config.json + model.safetensors)")->required();
  cmd->add_option("--inputs", a->inputs, "Inputs .safetensors (light prepare output, or the parity fixtures)")->required();
  cmd->add_option("--out", a->out, "Output .safetensors")->required();
  cmd->add_option("--threads", a->threads, "LibTorch threads (0 = all cores)")->capture_default_str();
  cmd->add_option("--device", a->device, "cpu | cuda")->capture_default_str();
  cmd->callback([a] {
    check_output_is_not_input("--out", a->out, {{"--model", a->model}, {"--inputs", a->inputs}});
    model::PredictorOptions opt;
    opt.threads = a->threads;
    opt.device = a->device;
    const size_t n = link::write_forward_outputs(a->model, a->inputs, a->out, opt);
    std::fprintf(stderr, "forward: %zu tile(s) -> %s\n", n, a->out.c_str());
  });
}

}  // namespace light::cli

#include "light/model/device.h"

#include <torch/torch.h>

#include <thread>

#include "light/error.h"
#include "light/util/parallel.h"

namespace light::model {

// OpenMP threads beyond the cores only wait on each other (64 on 2 cores ran 40 times slower): at
// most one a core.
void set_threads(int n) {
  if (n <= 0 || n > core_count()) n = core_count();
  torch::set_num_threads(n);
}

void use_threads(int n) {
  if (n <= 0 || n > core_count()) n = core_count();
  if (torch::get_num_threads() != n) torch::set_num_threads(n);
}

int threads_in_use() { return torch::get_num_threads(); }

torch::Device pick_device(const std::string& name) {
  if (name == "cpu") return torch::kCPU;
  if (name == "cuda") {
    if (!torch::cuda::is_available()) throw Error("--device cuda: this LibTorch build has no CUDA device (see `light info`)");
    return torch::kCUDA;
  }
  throw Error("--device: expected cpu or cuda, got \"" + name + "\"");
}

}  // namespace light::model

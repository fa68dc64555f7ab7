#include "light/model/device.h"

#include <torch/torch.h>

#include <thread>

#include "light/error.h"

namespace light::model {

void set_threads(int n) {
  if (n <= 0) n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  torch::set_num_threads(n);
}

void use_threads(int n) {
  if (n <= 0) n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
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

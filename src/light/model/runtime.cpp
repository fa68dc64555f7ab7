#include "light/model/runtime.h"

#include <dlfcn.h>
#include <torch/torch.h>

#include <thread>

namespace light::model {

RuntimeInfo runtime_info() {
  RuntimeInfo info;
  info.torch_version = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
                       std::to_string(TORCH_VERSION_PATCH);
  info.threads = torch::get_num_threads();
  info.cuda_available = torch::cuda::is_available();
  info.cuda_devices = info.cuda_available ? static_cast<int>(torch::cuda::device_count()) : 0;
  // OpenBLAS, when it is the BLAS that LibTorch loaded, names the kernel it picked for this CPU.
  using CoreFn = char* (*)();
  if (auto fn = reinterpret_cast<CoreFn>(dlsym(RTLD_DEFAULT, "openblas_get_corename"))) {
    if (const char* name = fn()) info.blas_core = name;
  }
  return info;
}

void set_threads(int n) {
  if (n <= 0) n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  torch::set_num_threads(n);
}

}  // namespace light::model

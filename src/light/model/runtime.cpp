#include "light/model/runtime.h"
#include "light/train/distributed.h"

#include <dlfcn.h>
#include <torch/torch.h>

#include <cstdlib>
#include <thread>
#include <unistd.h>

namespace light::model {

RuntimeInfo runtime_info() {
  RuntimeInfo info;
  info.torch_version = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
                       std::to_string(TORCH_VERSION_PATCH);
  info.threads = torch::get_num_threads();
  info.cuda_available = torch::cuda::is_available();
  info.cuda_devices = info.cuda_available ? static_cast<int>(torch::cuda::device_count()) : 0;
  info.data_parallel = train::distributed_available();
  // OpenBLAS, when it is the BLAS that LibTorch loaded, names the kernel it picked for this CPU.
  using CoreFn = char* (*)();
  if (auto fn = reinterpret_cast<CoreFn>(dlsym(RTLD_DEFAULT, "openblas_get_corename"))) {
    if (const char* name = fn()) info.blas_core = name;
  }
  return info;
}

std::string blas_core_override(const std::string& detected, bool avx512, bool avx2, const char* user_setting) {
  if (user_setting && *user_setting) return "";  // the user decided
  if (detected != "Prescott" && detected != "Core2" && detected != "Nehalem") return "";
  if (avx512) return "SkylakeX";
  if (avx2) return "Haswell";
  return "";
}

void ensure_fast_blas(char** argv) {
  using CoreFn = char* (*)();
  auto fn = reinterpret_cast<CoreFn>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  if (!fn || !fn()) return;
  __builtin_cpu_init();
  const std::string force = blas_core_override(fn(), __builtin_cpu_supports("avx512f"), __builtin_cpu_supports("avx2"),
                                               std::getenv("OPENBLAS_CORETYPE"));
  if (force.empty() || std::getenv("LIGHT_BLAS_REEXEC")) return;
  setenv("OPENBLAS_CORETYPE", force.c_str(), 1);
  setenv("LIGHT_BLAS_REEXEC", "1", 1);
  execv("/proc/self/exe", argv);  // on failure, carry on with the slow kernel
}

void set_threads(int n) {
  if (n <= 0) n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  torch::set_num_threads(n);
}

}  // namespace light::model

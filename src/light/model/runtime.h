// What the LibTorch runtime looks like in this process: version, threads, devices, BLAS.
// (No <torch/torch.h> here: callers stay cheap to compile.)
#pragma once
#include <string>

namespace light::model {

struct RuntimeInfo {
  std::string torch_version;  // e.g. "1.13.1"
  int threads = 1;            // intra-op threads LibTorch will use
  bool cuda_available = false;
  int cuda_devices = 0;
  std::string blas_core;      // OpenBLAS kernel in use (e.g. "SkylakeX"), or "" if not OpenBLAS
  bool data_parallel = false;  // --world-size > 1 possible (c10d with Gloo built in)
};

RuntimeInfo runtime_info();

// Sets LibTorch's intra-op thread count (0 = all hardware threads).
void set_threads(int n);

// The OpenBLAS core type to force, or "" when the detected kernel is fine: OpenBLAS 0.3.21 takes
// some AVX-512 CPUs for "Prescott" (SSE3 kernels, 5x slower). `user_setting` is OPENBLAS_CORETYPE.
std::string blas_core_override(const std::string& detected, bool avx512, bool avx2, const char* user_setting);

// Called first thing in main(): when OpenBLAS picked a kernel below this CPU (and the user did not
// choose one), sets OPENBLAS_CORETYPE and re-executes the program, since OpenBLAS reads it at load.
void ensure_fast_blas(char** argv);

}  // namespace light::model

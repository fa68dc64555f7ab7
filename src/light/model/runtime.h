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
};

RuntimeInfo runtime_info();

}  // namespace light::model

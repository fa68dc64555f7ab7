#include "light/model/runtime.h"

#include <torch/torch.h>

#include "light/util/blas.h"

namespace light::model {

RuntimeInfo runtime_info() {
  RuntimeInfo info;
  info.torch_version = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
                       std::to_string(TORCH_VERSION_PATCH);
  info.threads = torch::get_num_threads();
  info.cuda_available = torch::cuda::is_available();
  info.cuda_devices = info.cuda_available ? static_cast<int>(torch::cuda::device_count()) : 0;
  info.blas_core = blas_core();  // OpenBLAS, when it is the BLAS that LibTorch loaded
  return info;
}

}  // namespace light::model

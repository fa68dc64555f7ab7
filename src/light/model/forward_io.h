// `light forward` without LibTorch in the header: runs a model folder on every tile of a
// `light prepare` / fixture inputs file and writes the intermediate outputs the parity fixtures hold.
#pragma once
#include <string>

namespace light::model {

struct ForwardOptions {
  int threads = 0;  // LibTorch intra-op threads (0 = all cores)
  std::string device = "cpu";  // cpu | cuda
};

// Returns the number of tiles run.
size_t run_forward(const std::string& model_dir, const std::string& inputs_path, const std::string& out_path,
                   const ForwardOptions& options);

}  // namespace light::model

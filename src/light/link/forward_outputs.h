// `light forward`, the parity harness: a model run on every tile of a prepared inputs file (`light
// prepare`, or the parity fixtures), its intermediate outputs written under the fixtures' names.
#pragma once
#include <string>

#include "light/model/predictor.h"

namespace light::link {

// Returns the number of tiles run. Every tile's tensors are checked against the model first (dtypes,
// shapes, ids, boxes, mask, first-token indices); errors name the file and the tensor.
size_t write_forward_outputs(const std::string& model_dir, const std::string& inputs_path, const std::string& out_path,
                             const model::PredictorOptions& options);

}  // namespace light::link

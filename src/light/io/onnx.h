// The learned tensors of an ONNX model file (ModelProto, read with Debian's libonnx protobuf classes),
// in the order the graph first uses them. Weights stored as graph initializers or as Constant nodes
// (paddle2onnx writes them so) both count; a tensor is "learned" when it is an initializer or when
// its name is a framework parameter name (Paddle: NAME.w_K / NAME.b_K), never an exporter's helper
// constant (the 3 and 6 of a hard-swish, a Resize scale). Only float32 tensors are read.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace light::io {

struct OnnxWeight {
  std::string name;            // the tensor's name in the file ("conv2d_394.w_0")
  std::string first_use;       // op type and input slot of its first use: "Conv:1", "Mul:0", ...
  std::vector<int64_t> shape;  // as stored ([] for a scalar)
  std::vector<float> values;
};

struct OnnxModel {
  std::string path;
  std::string sha256;  // of the file's bytes, lowercase hex
  int64_t opset = 0;   // the default domain's opset
  std::vector<std::string> input_names, output_names;
  std::vector<std::string> ops;      // every non-Constant node's op type, in graph order
  std::vector<OnnxWeight> weights;   // learned tensors in first-use order
};

// Reads `path`. Throws light::Error naming the file when it is not an ONNX model, when a learned
// tensor is not float32 or its data do not match its shape, or when the graph is empty.
OnnxModel read_onnx_model(const std::string& path);

// SHA-256 of `bytes`, lowercase hex.
std::string sha256_hex(const std::string& bytes);

}  // namespace light::io

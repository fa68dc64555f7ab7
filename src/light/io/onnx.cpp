#include "light/io/onnx.h"

#include <glib.h>
#include <onnx/onnx_pb.h>

#include <cstring>
#include <map>
#include <regex>
#include <set>

#include "light/error.h"
#include "light/util/fs.h"

namespace light::io {

std::string sha256_hex(const std::string& bytes) {
  gchar* hex = g_compute_checksum_for_data(G_CHECKSUM_SHA256, reinterpret_cast<const guchar*>(bytes.data()), bytes.size());
  std::string out(hex);
  g_free(hex);
  return out;
}

namespace {

// Paddle parameter names: conv2d_394.w_0, batch_norm_1.b_0, mobile_one_block_3.w_1, ...
bool is_parameter_name(const std::string& name) {
  static const std::regex paddle(R"(.*\.[wb]_[0-9]+$)");
  return std::regex_match(name, paddle);
}

OnnxWeight read_tensor(const onnx::TensorProto& t, const std::string& path) {
  const std::string where = path + ": tensor \"" + t.name() + "\"";
  if (t.data_type() != onnx::TensorProto::FLOAT)
    throw Error(where + ": data_type " + std::to_string(t.data_type()) + ", expected 1 (float32)");
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    throw Error(where + ": its data lie in an external file, which is not read");
  OnnxWeight w;
  w.name = t.name();
  int64_t n = 1;
  for (const int64_t d : t.dims()) {
    if (d < 0 || d > (int64_t{1} << 32)) throw Error(where + ": dimension " + std::to_string(d) + " out of range");
    w.shape.push_back(d);
    n *= d;
    if (n > (int64_t{1} << 32)) throw Error(where + ": more than 2^32 values");
  }
  if (!t.raw_data().empty()) {
    if (t.raw_data().size() != static_cast<size_t>(n) * 4)
      throw Error(where + ": " + std::to_string(t.raw_data().size()) + " bytes of data for " + std::to_string(n) + " float32 values");
    w.values.resize(static_cast<size_t>(n));
    std::memcpy(w.values.data(), t.raw_data().data(), t.raw_data().size());
  } else {
    if (t.float_data_size() != n)
      throw Error(where + ": " + std::to_string(t.float_data_size()) + " values for shape of " + std::to_string(n));
    w.values.assign(t.float_data().begin(), t.float_data().end());
  }
  return w;
}

}  // namespace

OnnxModel read_onnx_model(const std::string& path) {
  const std::string bytes = read_file(path);
  onnx::ModelProto model;
  if (bytes.empty() || !model.ParseFromString(bytes) || !model.has_graph() || model.graph().node_size() == 0)
    throw Error(path + ": not an ONNX model (no graph could be read)");
  OnnxModel out;
  out.path = path;
  out.sha256 = sha256_hex(bytes);
  for (const auto& o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") out.opset = o.version();
  const onnx::GraphProto& g = model.graph();
  std::map<std::string, const onnx::TensorProto*> learned;
  for (const auto& t : g.initializer()) learned[t.name()] = &t;
  for (const auto& node : g.node())
    if (node.op_type() == "Constant" && node.output_size() == 1 && is_parameter_name(node.output(0)))
      for (const auto& a : node.attribute())
        if (a.name() == "value" && a.has_t()) learned[node.output(0)] = &a.t();
  for (const auto& i : g.input()) {
    if (!learned.count(i.name())) out.input_names.push_back(i.name());
  }
  for (const auto& o : g.output()) out.output_names.push_back(o.name());
  std::set<std::string> seen;
  for (const auto& node : g.node()) {
    if (node.op_type() == "Constant") continue;
    out.ops.push_back(node.op_type());
    for (int k = 0; k < node.input_size(); ++k) {
      const std::string& name = node.input(k);
      const auto it = learned.find(name);
      if (it == learned.end() || !seen.insert(name).second) continue;
      OnnxWeight w = read_tensor(*it->second, path);
      w.name = name;
      w.first_use = node.op_type() + ":" + std::to_string(k);
      out.weights.push_back(std::move(w));
    }
  }
  return out;
}

}  // namespace light::io

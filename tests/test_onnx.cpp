// io/onnx: the learned tensors of an ONNX file, read from models built here with libonnx's classes.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

#include "light/error.h"
#include "light/io/onnx.h"
#include "test_util.h"

namespace {

onnx::TensorProto float_tensor(const std::string& name, const std::vector<int64_t>& dims, const std::vector<float>& values, bool raw) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (const int64_t d : dims) t.add_dims(d);
  if (raw)
    t.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
  else
    for (const float v : values) t.add_float_data(v);
  return t;
}

void add_node(onnx::GraphProto* g, const std::string& op, const std::vector<std::string>& inputs, const std::string& output) {
  onnx::NodeProto* n = g->add_node();
  n->set_op_type(op);
  for (const auto& i : inputs) n->add_input(i);
  n->add_output(output);
}

void add_constant(onnx::GraphProto* g, const onnx::TensorProto& t) {
  onnx::NodeProto* n = g->add_node();
  n->set_op_type("Constant");
  n->add_output(t.name());
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  *a->mutable_t() = t;
}

// x -> Conv(x, conv2d_1.w_0) -> Add(., hardswish helper 3) -> MatMul(., fc.weight) -> y, opset 11:
// a Paddle parameter held as a Constant node (raw bytes), an exporter's helper constant, an initializer.
std::string write_model(const std::string& path, const std::vector<float>& fc = {1, 2, 3, 4}) {
  onnx::ModelProto m;
  m.set_ir_version(7);
  onnx::OperatorSetIdProto* opset = m.add_opset_import();
  opset->set_domain("");
  opset->set_version(11);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("g");
  g->add_input()->set_name("x");
  g->add_output()->set_name("y");
  *g->add_initializer() = float_tensor("fc.weight", {2, 2}, fc, false);
  add_constant(g, float_tensor("conv2d_1.w_0", {3}, {0.5f, -1.0f, 2.0f}, true));
  add_constant(g, float_tensor("hardswish_3", {}, {3.0f}, false));
  add_node(g, "Conv", {"x", "conv2d_1.w_0"}, "a");
  add_node(g, "Add", {"a", "hardswish_3"}, "b");
  add_node(g, "MatMul", {"b", "fc.weight"}, "y");
  std::string bytes;
  m.SerializeToString(&bytes);
  light::test::write_text(path, bytes);
  return bytes;
}

}  // namespace

TEST(OnnxReader, ReadsLearnedTensorsInTheOrderTheGraphFirstUsesThem) {
  const std::string dir = light::test::temp_dir();
  const std::string bytes = write_model(dir + "/m.onnx");
  const light::io::OnnxModel m = light::io::read_onnx_model(dir + "/m.onnx");
  EXPECT_EQ(m.opset, 11);
  EXPECT_EQ(m.input_names, std::vector<std::string>{"x"});
  EXPECT_EQ(m.output_names, std::vector<std::string>{"y"});
  EXPECT_EQ(m.ops, (std::vector<std::string>{"Conv", "Add", "MatMul"}));
  ASSERT_EQ(m.weights.size(), 2u);  // the helper constant is not learned
  EXPECT_EQ(m.weights[0].name, "conv2d_1.w_0");
  EXPECT_EQ(m.weights[0].first_use, "Conv:1");
  EXPECT_EQ(m.weights[0].shape, std::vector<int64_t>{3});
  EXPECT_EQ(m.weights[0].values, (std::vector<float>{0.5f, -1.0f, 2.0f}));
  EXPECT_EQ(m.weights[1].name, "fc.weight");
  EXPECT_EQ(m.weights[1].first_use, "MatMul:1");
  EXPECT_EQ(m.weights[1].shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(m.weights[1].values, (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(m.sha256, light::io::sha256_hex(bytes));
  EXPECT_EQ(light::io::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(OnnxReader, RefusesAFileThatIsNotAModelOrATensorThatDoesNotFitItsShapeNamingIt) {
  const std::string dir = light::test::temp_dir();
  light::test::write_text(dir + "/notes.onnx", "these are not a model");
  try {
    light::io::read_onnx_model(dir + "/notes.onnx");
    FAIL();
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find(dir + "/notes.onnx: not an ONNX model"), std::string::npos) << e.what();
  }
  write_model(dir + "/short.onnx", {1, 2, 3});  // 3 values for a 2 x 2 tensor
  try {
    light::io::read_onnx_model(dir + "/short.onnx");
    FAIL();
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("tensor \"fc.weight\": 3 values for shape of 4"), std::string::npos) << e.what();
  }
}

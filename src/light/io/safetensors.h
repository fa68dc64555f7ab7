// safetensors files (Hugging Face's tensor format) without LibTorch: an 8-byte little-endian header
// length, a JSON header {name: {dtype, shape, data_offsets}, "__metadata__": {...}}, then raw
// little-endian row-major data. Reading maps the file into memory; writing is atomic.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "light/io/file_bytes.h"

namespace light::io {

enum class DType { F64, F32, F16, BF16, I64, I32, I16, I8, U8, BOOL };
size_t dtype_size(DType t);
const char* dtype_name(DType t);

struct TensorView {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  const unsigned char* data = nullptr;
  size_t nbytes = 0;
  int64_t numel() const;
  template <class T>
  const T* as() const { return reinterpret_cast<const T*>(data); }
};

class SafeTensorsFile {
 public:
  // Maps and validates the file: header size, JSON, dtypes, shapes and offsets. Errors name the file
  // and the tensor.
  explicit SafeTensorsFile(const std::string& path);
  // The same checks over a file's bytes held in memory (`name` stands for the file in errors).
  SafeTensorsFile(const std::string& name, std::string bytes);
  ~SafeTensorsFile();
  SafeTensorsFile(const SafeTensorsFile&) = delete;
  SafeTensorsFile& operator=(const SafeTensorsFile&) = delete;

  const std::map<std::string, TensorView>& tensors() const { return tensors_; }
  const std::map<std::string, std::string>& metadata() const { return metadata_; }
  bool contains(const std::string& name) const { return tensors_.count(name) > 0; }
  // The tensor `name`; throws light::Error("FILE: no tensor \"name\"") when absent.
  const TensorView& at(const std::string& name) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  FileBytes bytes_;
  std::map<std::string, TensorView> tensors_;
  std::map<std::string, std::string> metadata_;
  void index(const unsigned char* bytes, size_t size);
};

// A tensor to write (owning its bytes).
struct Tensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<unsigned char> bytes;

  static Tensor f32(std::vector<int64_t> shape, const std::vector<float>& values);
  static Tensor i64(std::vector<int64_t> shape, const std::vector<int64_t>& values);
};

// Writes tensors (8-byte aligned: wider dtypes first, header padded with spaces), atomically.
void write_safetensors(const std::string& path, const std::map<std::string, Tensor>& tensors,
                       const std::map<std::string, std::string>& metadata = {});

}  // namespace light::io

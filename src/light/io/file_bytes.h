// A model file's bytes, read-only: the file mapped whole (unmapped when let go; what is read from it
// may point into the mapping), or bytes already held in memory. The safetensors and PyTorch
// checkpoint readers share it.
#pragma once
#include <cstddef>
#include <string>

namespace light::io {

class FileBytes {
 public:
  // `path` mapped (and noted as a file the command reads). light::Error naming it when it cannot be
  // read or mapped, or "PATH: WHAT (N bytes)" when it holds fewer than `least` (at least 1): `what`
  // says what it is not ("not a safetensors file").
  FileBytes(const std::string& path, size_t least, const std::string& what);
  explicit FileBytes(std::string bytes);
  ~FileBytes();
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  const unsigned char* data() const { return map_ ? static_cast<const unsigned char*>(map_) : reinterpret_cast<const unsigned char*>(owned_.data()); }
  size_t size() const { return map_ ? size_ : owned_.size(); }

 private:
  std::string owned_;
  void* map_ = nullptr;
  size_t size_ = 0;
};

}  // namespace light::io

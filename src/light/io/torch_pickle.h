// PyTorch checkpoints (`torch.save`, zip format) without LibTorch: the zip archive (stored entries,
// zip64 sizes), and a pickle interpreter for what torch.save writes (protocols 2-4: OrderedDicts,
// _rebuild_tensor_v2 / _rebuild_parameter, persistent storage ids). LibTorch 1.13's pickle_load
// cannot read a saved state_dict (fixed only in 2.6), hence this reader.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "light/io/file_bytes.h"
#include "light/io/safetensors.h"

namespace light::io {

// One tensor of a checkpoint: a strided view into a storage of the mapped file.
struct PthTensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape, stride;
  int64_t offset = 0;                    // in elements
  const unsigned char* storage = nullptr;  // the storage's first byte (inside the mapped file)
  size_t storage_bytes = 0;
};

class PthFile {
 public:
  // Reads the archive and its pickle. The state dict is the top-level dict, or its
  // "model_state_dict" / "state_dict" entry (wrapped training checkpoints); a leading "module."
  // (DataParallel) is removed from every key. Errors name the file.
  explicit PthFile(const std::string& path);
  // The same reading of a file's bytes held in memory (`name` stands for the file in errors).
  PthFile(const std::string& name, std::string bytes);
  ~PthFile();
  PthFile(const PthFile&) = delete;
  PthFile& operator=(const PthFile&) = delete;

  const std::map<std::string, PthTensor>& tensors() const { return tensors_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  FileBytes bytes_;
  std::map<std::string, PthTensor> tensors_;
  void index(const unsigned char* bytes, size_t size);
};

// Exposed for tests: the state dict in a pickle stream, with storages looked up by key.
struct PickleStorage {
  const unsigned char* data = nullptr;
  size_t bytes = 0;
};
std::map<std::string, PthTensor> state_dict_from_pickle(const std::string& pickle,
                                                        const std::map<std::string, PickleStorage>& storages,
                                                        const std::string& source);

}  // namespace light::io

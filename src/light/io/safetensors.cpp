#include "light/io/safetensors.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/util/json.h"
#include "light/util/fs.h"

namespace light::io {

namespace {
struct DTypeInfo {
  DType t;
  const char* name;
  size_t size;
};
constexpr DTypeInfo kTypes[] = {{DType::F64, "F64", 8}, {DType::F32, "F32", 4}, {DType::F16, "F16", 2},
                                {DType::BF16, "BF16", 2}, {DType::I64, "I64", 8}, {DType::I32, "I32", 4},
                                {DType::I16, "I16", 2},  {DType::I8, "I8", 1},   {DType::U8, "U8", 1},
                                {DType::BOOL, "BOOL", 1}};
}  // namespace

size_t dtype_size(DType t) {
  for (const auto& i : kTypes)
    if (i.t == t) return i.size;
  return 0;
}
const char* dtype_name(DType t) {
  for (const auto& i : kTypes)
    if (i.t == t) return i.name;
  return "?";
}

int64_t TensorView::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

SafeTensorsFile::SafeTensorsFile(const std::string& path) : path_(path), bytes_(path, 8, "not a safetensors file") {
  index(bytes_.data(), bytes_.size());
}

SafeTensorsFile::SafeTensorsFile(const std::string& name, std::string bytes) : path_(name), bytes_(std::move(bytes)) {
  if (bytes_.size() < 8) throw Error(name + ": not a safetensors file (" + std::to_string(bytes_.size()) + " bytes)");
  index(bytes_.data(), bytes_.size());
}

void SafeTensorsFile::index(const unsigned char* bytes, size_t size) {
  const std::string& path = path_;
  uint64_t n = 0;
  for (int k = 7; k >= 0; --k) n = (n << 8) | bytes[k];
  auto fail = [&](const std::string& why) { throw Error(path + ": " + why); };
  if (n > size - 8 || n > (100u << 20)) fail("not a safetensors file (header length " + std::to_string(n) + ")");
  nlohmann::json header;
  try {
    header = parse_json(std::string_view(reinterpret_cast<const char*>(bytes) + 8, n), "header");
  } catch (const JsonError& e) {
    fail(std::string("not a safetensors file (") + e.what() + ")");
  }
  if (!header.is_object()) fail("not a safetensors file (header is not a JSON object)");
  const unsigned char* data = bytes + 8 + n;
  const size_t data_size = size - 8 - n;
  for (auto it = header.begin(); it != header.end(); ++it) {
    if (it.key() == "__metadata__") {
      if (it->is_object())
        for (auto m = it->begin(); m != it->end(); ++m)
          if (m->is_string()) metadata_[m.key()] = m->get<std::string>();
      continue;
    }
    const std::string where = "tensor \"" + it.key() + "\": ";
    const auto& e = *it;
    if (!e.is_object() || !e.contains("dtype") || !e.contains("shape") || !e.contains("data_offsets"))
      fail(where + "needs \"dtype\", \"shape\" and \"data_offsets\"");
    TensorView v;
    bool known = false;
    for (const auto& i : kTypes)
      if (e["dtype"].is_string() && e["dtype"].get<std::string>() == i.name) v.dtype = i.t, known = true;
    if (!known) fail(where + "unsupported dtype " + e["dtype"].dump().substr(0, 60));
    if (!e["shape"].is_array()) fail(where + "\"shape\" must be a list");
    // The byte count in 64 bits without overflow: a shape that needs more bytes than a file can hold is refused.
    uint64_t nbytes = dtype_size(v.dtype);
    bool overflow = false;
    for (const auto& d : e["shape"]) {
      if (!d.is_number_integer() || (!d.is_number_unsigned() && d.get<int64_t>() < 0) ||
          (d.is_number_unsigned() && d.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)))
        fail(where + "bad shape " + e["shape"].dump().substr(0, 80));
      v.shape.push_back(d.get<int64_t>());
      overflow = overflow || __builtin_mul_overflow(nbytes, d.get<uint64_t>(), &nbytes);
    }
    const auto& off = e["data_offsets"];
    if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() || !off[1].is_number_unsigned())
      fail(where + "bad data_offsets " + off.dump().substr(0, 80));
    const uint64_t b = off[0].get<uint64_t>(), en = off[1].get<uint64_t>();
    if (b > en || en > data_size) fail(where + "data_offsets " + off.dump() + " outside the file");
    v.nbytes = static_cast<size_t>(en - b);
    if (overflow)
      fail(where + "shape " + e["shape"].dump().substr(0, 80) + " needs more than 2^64 bytes, data_offsets give " + std::to_string(v.nbytes));
    if (nbytes != v.nbytes)
      fail(where + "shape " + e["shape"].dump().substr(0, 80) + " and dtype " + dtype_name(v.dtype) + " need " +
           std::to_string(nbytes) + " bytes, data_offsets give " + std::to_string(v.nbytes));
    v.data = data + b;
    tensors_.emplace(it.key(), std::move(v));
  }
}

SafeTensorsFile::~SafeTensorsFile() = default;

const TensorView& SafeTensorsFile::at(const std::string& name) const {
  auto it = tensors_.find(name);
  if (it == tensors_.end()) throw Error(path_ + ": no tensor \"" + name + "\"");
  return it->second;
}

Tensor Tensor::f32(std::vector<int64_t> shape, const std::vector<float>& values) {
  Tensor t{DType::F32, std::move(shape), {}};
  t.bytes.resize(values.size() * 4);
  std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}

Tensor Tensor::i64(std::vector<int64_t> shape, const std::vector<int64_t>& values) {
  Tensor t{DType::I64, std::move(shape), {}};
  t.bytes.resize(values.size() * 8);
  std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}

void write_safetensors(const std::string& path, const std::map<std::string, Tensor>& tensors,
                       const std::map<std::string, std::string>& metadata) {
  // Widest element first keeps every tensor aligned to its element size.
  std::vector<const std::pair<const std::string, Tensor>*> order;
  for (const auto& kv : tensors) order.push_back(&kv);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) {
    return dtype_size(a->second.dtype) > dtype_size(b->second.dtype);
  });
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  size_t offset = 0;
  for (auto* kv : order) {
    const Tensor& t = kv->second;
    int64_t numel = 1;
    for (int64_t d : t.shape) numel *= d;
    if (static_cast<size_t>(numel) * dtype_size(t.dtype) != t.bytes.size())
      throw Error(path + ": tensor \"" + kv->first + "\": shape does not match its data");
    header[kv->first] = {{"dtype", dtype_name(t.dtype)}, {"shape", t.shape}, {"data_offsets", {offset, offset + t.bytes.size()}}};
    offset += t.bytes.size();
  }
  std::string h = header.dump();
  while (h.size() % 8) h.push_back(' ');
  std::string out(8, '\0');
  const uint64_t n = h.size();
  for (int k = 0; k < 8; ++k) out[k] = static_cast<char>((n >> (8 * k)) & 0xFF);
  out += h;
  out.reserve(out.size() + offset);
  for (auto* kv : order) out.append(reinterpret_cast<const char*>(kv->second.bytes.data()), kv->second.bytes.size());
  write_file_atomic(path, out);
}

}  // namespace light::io

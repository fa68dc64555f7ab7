#include "light/io/torch_pickle.h"

#include <cerrno>
#include <cstring>
#include <variant>

#include "light/error.h"
#include "light/util/fs.h"

namespace light::io {

namespace {

// ---- pickle values ----------------------------------------------------------------------------
struct Value;
// Values live in the unpickler's arena and point at each other plainly: a pickle can make a list
// contain itself (memo), and can nest deeply; neither leaks nor recurses when the arena goes.
using Ptr = Value*;
struct Global { std::string module, name; };
struct StorageRef { DType dtype; std::string key; };
struct Value {
  enum Kind { None, Bool, Int, Float, Str, Tuple, List, Dict, GlobalK, Storage, Tensor, Mark, Opaque } kind = None;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<Ptr> items;                       // Tuple / List
  std::vector<std::pair<Ptr, Ptr>> dict;        // Dict (ordered)
  Global global;
  StorageRef storage;
  PthTensor tensor;
};

DType storage_dtype(const std::string& name, const std::string& source) {
  static const std::map<std::string, DType> m{{"FloatStorage", DType::F32}, {"HalfStorage", DType::F16},
                                              {"BFloat16Storage", DType::BF16}, {"DoubleStorage", DType::F64},
                                              {"LongStorage", DType::I64}, {"IntStorage", DType::I32},
                                              {"ShortStorage", DType::I16}, {"CharStorage", DType::I8},
                                              {"ByteStorage", DType::U8}, {"BoolStorage", DType::BOOL}};
  auto it = m.find(name);
  if (it == m.end()) throw Error(source + ": unsupported tensor storage torch." + name);
  return it->second;
}

class Unpickler {
 public:
  Unpickler(const std::string& data, const std::map<std::string, PickleStorage>& storages, const std::string& source)
      : d_(data), storages_(storages), source_(source) {}

  Ptr run() {
    while (true) {
      const unsigned char op = byte();
      switch (op) {
        case 0x80: byte(); break;                          // PROTO
        case 0x95: take(8); break;                         // FRAME
        case '(': push(make(Value::Mark)); break;          // MARK
        case ')': push(make(Value::Tuple)); break;         // EMPTY_TUPLE
        case ']': push(make(Value::List)); break;          // EMPTY_LIST
        case '}': push(make(Value::Dict)); break;          // EMPTY_DICT
        case 'N': push(make(Value::None)); break;
        case 0x88: case 0x89: { auto v = make(Value::Bool); v->i = op == 0x88; push(v); break; }
        case 'K': push_int(byte()); break;                 // BININT1
        case 'M': push_int(u16()); break;                  // BININT2
        case 'J': push_int(static_cast<int32_t>(u32())); break;  // BININT
        case 0x8a: {                                       // LONG1
          const int n = byte();
          if (n > 8) fail("an integer of " + std::to_string(n) + " bytes");
          uint64_t u = 0;
          for (int k = 0; k < n; ++k) u |= static_cast<uint64_t>(byte()) << (8 * k);
          if (n > 0 && n < 8 && (u >> (8 * n - 1)) & 1) u |= ~uint64_t{0} << (8 * n);  // sign-extend
          push_int(static_cast<int64_t>(u));
          break;
        }
        case 'G': {                                        // BINFLOAT (big-endian)
          uint64_t b = 0;
          for (int k = 0; k < 8; ++k) b = (b << 8) | byte();
          auto v = make(Value::Float);
          std::memcpy(&v->f, &b, 8);
          push(v);
          break;
        }
        case 'X': push_str(take(u32())); break;            // BINUNICODE
        case 0x8c: push_str(take(byte())); break;          // SHORT_BINUNICODE
        case 'T': push_str(take(u32())); break;            // BINSTRING
        case 'U': push_str(take(byte())); break;           // SHORT_BINSTRING
        case 'c': {                                        // GLOBAL
          auto v = make(Value::GlobalK);
          v->global.module = line();
          v->global.name = line();
          push(v);
          break;
        }
        case 0x93: {                                       // STACK_GLOBAL
          auto name = pop(), module = pop();
          auto v = make(Value::GlobalK);
          v->global = {module->s, name->s};
          push(v);
          break;
        }
        case 'q': memo_[byte()] = top(); break;            // BINPUT
        case 'r': memo_[u32()] = top(); break;             // LONG_BINPUT
        case 0x94: memo_[memo_.size()] = top(); break;     // MEMOIZE
        case 'h': push(memo(byte())); break;               // BINGET
        case 'j': push(memo(u32())); break;                // LONG_BINGET
        case 't': { auto v = make(Value::Tuple); v->items = pop_mark(); push(v); break; }
        case 0x85: case 0x86: case 0x87: {                 // TUPLE1..3
          const int n = op - 0x84;
          auto v = make(Value::Tuple);
          v->items.resize(n);
          for (int k = n - 1; k >= 0; --k) v->items[k] = pop();
          push(v);
          break;
        }
        case 'a': { auto x = pop(); top()->items.push_back(x); break; }  // APPEND
        case 'e': { auto xs = pop_mark(); auto l = top(); l->items.insert(l->items.end(), xs.begin(), xs.end()); break; }
        case 's': { auto v = pop(), k = pop(); top()->dict.emplace_back(k, v); break; }  // SETITEM
        case 'u': {                                        // SETITEMS
          auto xs = pop_mark();
          auto dct = top();
          for (size_t k = 0; k + 1 < xs.size(); k += 2) dct->dict.emplace_back(xs[k], xs[k + 1]);
          break;
        }
        case 'Q': push(persistent(pop())); break;          // BINPERSID
        case 'R': { auto args = pop(), fn = pop(); push(reduce(fn, args)); break; }
        case 0x81: { auto args = pop(), cls = pop(); push(reduce(cls, args)); break; }  // NEWOBJ
        case 'b': pop(); break;                            // BUILD: state (e.g. _metadata) is not needed
        case '.': return pop();                            // STOP
        default:
          throw Error(source_ + ": unsupported pickle opcode 0x" + hex(op) + " at byte " + std::to_string(pos_ - 1) +
                      " (not a torch.save checkpoint?)");
      }
    }
  }

 private:
  const std::string& d_;
  const std::map<std::string, PickleStorage>& storages_;
  const std::string& source_;
  size_t pos_ = 0;
  std::vector<Ptr> stack_;
  std::map<uint64_t, Ptr> memo_;
  std::vector<std::unique_ptr<Value>> arena_;

  Ptr make(Value::Kind k) {
    arena_.push_back(std::make_unique<Value>());
    arena_.back()->kind = k;
    return arena_.back().get();
  }

  static std::string hex(unsigned v) {
    char b[8];
    std::snprintf(b, sizeof b, "%02x", v);
    return b;
  }
  [[noreturn]] void fail(const std::string& why) { throw Error(source_ + ": bad pickle (" + why + ")"); }
  unsigned char byte() {
    if (pos_ >= d_.size()) fail("truncated");
    return static_cast<unsigned char>(d_[pos_++]);
  }
  uint32_t u16() { uint32_t a = byte(); return a | (uint32_t(byte()) << 8); }
  uint32_t u32() { uint32_t v = 0; for (int k = 0; k < 4; ++k) v |= uint32_t(byte()) << (8 * k); return v; }
  std::string take(size_t n) {
    if (pos_ + n > d_.size()) fail("truncated");
    std::string s = d_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::string line() {
    const size_t e = d_.find('\n', pos_);
    if (e == std::string::npos) fail("truncated");
    std::string s = d_.substr(pos_, e - pos_);
    pos_ = e + 1;
    return s;
  }
  void push(Ptr v) { stack_.push_back(std::move(v)); }
  void push_int(int64_t i) { auto v = make(Value::Int); v->i = i; push(v); }
  void push_str(std::string s) { auto v = make(Value::Str); v->s = std::move(s); push(v); }
  Ptr pop() {
    if (stack_.empty()) fail("stack underflow");
    Ptr v = stack_.back();
    stack_.pop_back();
    return v;
  }
  Ptr top() {
    if (stack_.empty()) fail("stack underflow");
    return stack_.back();
  }
  Ptr memo(uint64_t k) {
    auto it = memo_.find(k);
    if (it == memo_.end()) fail("unknown memo " + std::to_string(k));
    return it->second;
  }
  std::vector<Ptr> pop_mark() {
    std::vector<Ptr> xs;
    while (true) {
      Ptr v = pop();
      if (v->kind == Value::Mark) break;
      xs.push_back(v);
    }
    return {xs.rbegin(), xs.rend()};
  }
  Ptr persistent(const Ptr& pid) {
    // ('storage', torch.<Type>Storage, key, location, numel)
    if (pid->kind != Value::Tuple || pid->items.size() < 3 || pid->items[1]->kind != Value::GlobalK) fail("unexpected persistent id");
    auto v = make(Value::Storage);
    v->storage.dtype = storage_dtype(pid->items[1]->global.name, source_);
    v->storage.key = pid->items[2]->s;
    return v;
  }
  Ptr reduce(const Ptr& fn, const Ptr& args) {
    if (fn->kind != Value::GlobalK) return make(Value::Opaque);
    const std::string f = fn->global.module + "." + fn->global.name;
    if (f == "collections.OrderedDict") return make(Value::Dict);
    if (f == "torch._utils._rebuild_parameter" && !args->items.empty()) return args->items[0];
    if (f == "torch._utils._rebuild_tensor_v2" || f == "torch._utils._rebuild_tensor") {
      if (args->items.size() < 4 || args->items[0]->kind != Value::Storage) fail("unexpected _rebuild_tensor arguments");
      auto v = make(Value::Tensor);
      const StorageRef& st = args->items[0]->storage;
      auto it = storages_.find(st.key);
      if (it == storages_.end()) fail("storage " + st.key + " is missing from the archive");
      v->tensor.dtype = st.dtype;
      v->tensor.offset = args->items[1]->i;
      for (const auto& x : args->items[2]->items) v->tensor.shape.push_back(x->i);
      for (const auto& x : args->items[3]->items) v->tensor.stride.push_back(x->i);
      v->tensor.storage = it->second.data;
      v->tensor.storage_bytes = it->second.bytes;
      return v;
    }
    return make(Value::Opaque);
  }
};

}  // namespace

std::map<std::string, PthTensor> state_dict_from_pickle(const std::string& pickle, const std::map<std::string, PickleStorage>& storages,
                                                        const std::string& source) {
  Unpickler u(pickle, storages, source);
  Ptr root = u.run();
  if (root->kind != Value::Dict) throw Error(source + ": the checkpoint is not a dict of tensors");
  // A wrapped training checkpoint keeps the weights under "model_state_dict" (or "state_dict").
  for (const char* wrap : {"model_state_dict", "state_dict"})
    for (const auto& [k, v] : root->dict)
      if (k->kind == Value::Str && k->s == wrap && v->kind == Value::Dict) root = v;
  std::map<std::string, PthTensor> out;
  for (const auto& [k, v] : root->dict) {
    if (k->kind != Value::Str || v->kind != Value::Tensor) continue;
    std::string name = k->s;
    if (name.rfind("module.", 0) == 0) name = name.substr(7);
    const PthTensor& t = v->tensor;
    // Check the view stays inside its storage (without overflow: every number comes from the file).
    const auto beyond = [&] { return Error(source + ": tensor \"" + name + "\" reaches beyond its storage"); };
    if (t.offset < 0 || t.shape.size() != t.stride.size()) throw beyond();
    uint64_t last = static_cast<uint64_t>(t.offset), numel = 1, step = 0, bytes = 0;
    bool overflow = false;
    for (size_t d = 0; d < t.shape.size(); ++d) {
      if (t.shape[d] < 0 || t.stride[d] < 0) throw beyond();
      overflow = overflow || __builtin_mul_overflow(numel, static_cast<uint64_t>(t.shape[d]), &numel);
      if (t.shape[d] > 0) {
        overflow = overflow || __builtin_mul_overflow(static_cast<uint64_t>(t.shape[d] - 1), static_cast<uint64_t>(t.stride[d]), &step);
        overflow = overflow || __builtin_add_overflow(last, step, &last);
      }
    }
    overflow = overflow || __builtin_add_overflow(last, uint64_t{1}, &last) || __builtin_mul_overflow(last, dtype_size(t.dtype), &bytes);
    if (numel > 0 && (overflow || bytes > t.storage_bytes)) throw beyond();
    out.emplace(std::move(name), t);
  }
  if (out.empty()) throw Error(source + ": no tensors found in the checkpoint");
  return out;
}

PthFile::PthFile(const std::string& path) : path_(path), bytes_(path, 1, "not a PyTorch checkpoint") { index(bytes_.data(), bytes_.size()); }

PthFile::PthFile(const std::string& name, std::string bytes) : path_(name), bytes_(std::move(bytes)) {
  if (bytes_.size() == 0) throw Error(name + ": not a PyTorch checkpoint (0 bytes)");
  index(bytes_.data(), bytes_.size());
}

void PthFile::index(const unsigned char* b, size_t size) {
  const std::string& path = path_;
  auto fail = [&](const std::string& why) { throw Error(path + ": not a PyTorch zip checkpoint (" + why + ")"); };
  // Every read is checked against the file's end first (offsets come from the file itself).
  auto fits = [&](uint64_t o, uint64_t n) { return o <= size && n <= size - o; };
  auto u16 = [&](uint64_t o) {
    if (!fits(o, 2)) fail("a field reaches beyond the file");
    return static_cast<uint32_t>(b[o] | (b[o + 1] << 8));
  };
  auto u32 = [&](uint64_t o) { return static_cast<uint64_t>(u16(o) | (static_cast<uint32_t>(u16(o + 2)) << 16)); };
  auto u64 = [&](uint64_t o) { return u32(o) | (u32(o + 4) << 32); };
  // End of central directory (and its zip64 form).
  if (size < 22) fail("too small");
  size_t eocd = std::string::npos;
  for (size_t o = size - 22 + 1; o-- > (size > 65557 ? size - 65557 : 0);)
    if (u32(o) == 0x06054b50) {
      eocd = o;
      break;
    }
  if (eocd == std::string::npos) fail("no zip directory; old pickle-only checkpoints are not supported, re-save with torch >= 1.6");
  uint64_t entries = u16(eocd + 10), cd_offset = u32(eocd + 16);
  if ((entries == 0xFFFF || cd_offset == 0xFFFFFFFF) && eocd >= 20 && u32(eocd - 20) == 0x07064b50) {
    const uint64_t z64 = u64(eocd - 20 + 8);
    if (!fits(z64, 56) || u32(z64) != 0x06064b50) fail("bad zip64 directory");
    entries = u64(z64 + 32);
    cd_offset = u64(z64 + 48);
  }
  if (entries > size / 46) fail("more directory entries than the file can hold");
  std::string pickle;
  bool have_pickle = false;
  std::map<std::string, PickleStorage> storages;
  uint64_t o = cd_offset;
  for (uint64_t e = 0; e < entries; ++e) {
    if (!fits(o, 46) || u32(o) != 0x02014b50) fail("bad central directory");
    const uint32_t method = u16(o + 10);
    uint64_t csize = u32(o + 20), usize = u32(o + 24);
    const uint32_t nlen = u16(o + 28), xlen = u16(o + 30), clen = u16(o + 32);
    uint64_t local = u32(o + 42);
    if (!fits(o + 46, static_cast<uint64_t>(nlen) + xlen + clen)) fail("a directory entry reaches beyond the file");
    const std::string name(reinterpret_cast<const char*>(b + o + 46), nlen);
    for (uint64_t x = o + 46 + nlen; x + 4 <= o + 46 + nlen + xlen;) {  // zip64 extra field
      const uint32_t id = u16(x), len = u16(x + 2);
      if (id == 0x0001) {
        uint64_t p = x + 4;
        if (usize == 0xFFFFFFFF) usize = u64(p), p += 8;
        if (csize == 0xFFFFFFFF) csize = u64(p), p += 8;
        if (local == 0xFFFFFFFF) local = u64(p);
      }
      x += 4 + len;
    }
    o += 46 + nlen + xlen + clen;
    if (!fits(local, 30) || u32(local) != 0x04034b50) fail("bad local header for " + name);
    const uint64_t data = local + 30 + u16(local + 26) + u16(local + 28);
    if (!fits(data, csize)) fail(name + " reaches beyond the file");
    if (method != 0) fail(name + " is compressed; torch.save stores entries uncompressed");
    if (usize != csize) fail(name + ": stored sizes differ (" + std::to_string(usize) + " and " + std::to_string(csize) + ")");
    const auto slash = name.find('/');
    const std::string rel = slash == std::string::npos ? name : name.substr(slash + 1);
    if (rel == "data.pkl") pickle.assign(reinterpret_cast<const char*>(b + data), usize), have_pickle = true;
    else if (rel.rfind("data/", 0) == 0) storages[rel.substr(5)] = {b + data, static_cast<size_t>(usize)};
  }
  if (!have_pickle || pickle.empty()) fail("no data.pkl");
  tensors_ = state_dict_from_pickle(pickle, storages, path);
}

PthFile::~PthFile() = default;

}  // namespace light::io

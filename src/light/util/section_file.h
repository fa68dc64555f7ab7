// A binary file of sections, each 8-aligned, that is built in memory and mapped from disk alike: a
// header (an 8-byte signature, a version, the section count), a table of (offset, size) pairs, then
// the sections. `light search` indexes and `light gazetteer` indexes are such files: opened in
// milliseconds whatever their size, because nothing is read until it is used.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace light {

// The bytes of a vector, as a section.
template <typename T>
std::string raw_bytes(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

// Strings one after the other, with offsets: string i is bytes[off[i], off[i + 1]).
struct StringTable {
  std::vector<uint64_t> off{0};
  std::string bytes;
  void add(const std::string& s) {
    bytes += s;
    off.push_back(bytes.size());
  }
};

// The file's bytes: the header with `magic` (8 bytes) and `version`, the table, the sections.
std::string section_file_bytes(const char (&magic)[8], uint32_t version, const std::vector<std::string>& sections);

// A read-only view of a section file, owned (built in memory) or mapped from a file.
class SectionFile {
 public:
  struct View {
    const char* data = nullptr;
    size_t bytes = 0;
  };
  SectionFile() = default;
  SectionFile(SectionFile&&) noexcept;
  SectionFile& operator=(SectionFile&&) noexcept;
  SectionFile(const SectionFile&) = delete;
  SectionFile& operator=(const SectionFile&) = delete;
  ~SectionFile();

  // Views `bytes` (kept), or maps `path`. Each checks the signature, the version and that `sections`
  // sections fit in the file; `what` names the kind of file in the light::Error otherwise ("<name>:
  // not a <what>, or damaged (<why>); <remedy>").
  static SectionFile own(std::string bytes, const char (&magic)[8], uint32_t version, size_t sections, const std::string& name,
                         const std::string& what, const std::string& remedy);
  static SectionFile map(const std::string& path, const char (&magic)[8], uint32_t version, size_t sections, const std::string& what,
                         const std::string& remedy);
  // Whether the file begins with `magic`.
  static bool starts_with(const std::string& path, const char (&magic)[8]);

  const View& section(size_t k) const { return views_.at(k); }
  template <typename T>
  const T* at(size_t k) const {
    return reinterpret_cast<const T*>(views_[k].data);
  }
  template <typename T>
  size_t count(size_t k) const {
    return views_[k].bytes / sizeof(T);
  }
  // String i of the string table whose offsets are section `off` and bytes section `bytes`.
  std::string string(size_t off, size_t bytes, size_t i) const;
  // Checks that sections off/bytes hold a string table of `items` strings (light::Error otherwise).
  void check_string_table(size_t off, size_t bytes, size_t items) const;
  const char* data() const { return base_; }
  size_t size() const { return size_; }
  const std::string& name() const { return name_; }
  // Throws the file's "not a ..., or damaged" error with `why`.
  [[noreturn]] void corrupt(const std::string& why) const;

 private:
  void attach(const char (&magic)[8], uint32_t version, size_t sections);
  std::string owned_;
  void* map_ = nullptr;
  size_t map_size_ = 0;
  const char* base_ = nullptr;
  size_t size_ = 0;
  std::string name_, what_, remedy_;
  std::vector<View> views_;
};

}  // namespace light

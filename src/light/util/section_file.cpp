#include "light/util/section_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "light/error.h"

namespace light {

namespace {
struct Header {
  char magic[8];
  uint32_t version;
  uint32_t sections;
};
}  // namespace

std::string section_file_bytes(const char (&magic)[8], uint32_t version, const std::vector<std::string>& sections) {
  Header h{};
  std::memcpy(h.magic, magic, 8);
  h.version = version;
  h.sections = static_cast<uint32_t>(sections.size());
  std::string out(reinterpret_cast<const char*>(&h), sizeof h);
  std::vector<uint64_t> table;
  uint64_t at = sizeof h + sections.size() * 16;
  for (const std::string& s : sections) {
    at = (at + 7) / 8 * 8;
    table.push_back(at);
    table.push_back(s.size());
    at += s.size();
  }
  out += raw_bytes(table);
  for (const std::string& s : sections) {
    out.resize((out.size() + 7) / 8 * 8, '\0');
    out += s;
  }
  return out;
}

SectionFile::SectionFile(SectionFile&& o) noexcept { *this = std::move(o); }

SectionFile& SectionFile::operator=(SectionFile&& o) noexcept {
  if (this == &o) return *this;
  if (map_) munmap(map_, map_size_);
  // A moved std::string may move its bytes (short strings live inside it): the views are rebased.
  const char* old_base = o.base_;
  const bool owned = o.map_ == nullptr;
  owned_ = std::move(o.owned_);
  map_ = o.map_, map_size_ = o.map_size_, size_ = o.size_;
  base_ = owned ? owned_.data() : o.base_;
  name_ = std::move(o.name_), what_ = std::move(o.what_), remedy_ = std::move(o.remedy_);
  views_ = std::move(o.views_);
  if (owned && old_base != base_)
    for (View& v : views_)
      if (v.data) v.data = base_ + (v.data - old_base);
  o.map_ = nullptr, o.map_size_ = 0, o.base_ = nullptr, o.size_ = 0;
  o.views_.clear();
  return *this;
}

SectionFile::~SectionFile() {
  if (map_) munmap(map_, map_size_);
}

void SectionFile::corrupt(const std::string& why) const {
  throw Error(name_ + ": not a " + what_ + ", or damaged (" + why + ")" + (remedy_.empty() ? "" : "; " + remedy_));
}

void SectionFile::attach(const char (&magic)[8], uint32_t version, size_t sections) {
  if (size_ < sizeof(Header)) corrupt("shorter than its header");
  Header h;
  std::memcpy(&h, base_, sizeof h);
  if (std::memcmp(h.magic, magic, 8) != 0) corrupt("no signature");
  if (h.version != version) corrupt("version " + std::to_string(h.version) + ", this light reads " + std::to_string(version));
  if (h.sections != sections) corrupt("section count");
  if (size_ < sizeof h + 16 * sections) corrupt("cut short");
  std::vector<uint64_t> table(2 * sections);
  std::memcpy(table.data(), base_ + sizeof h, 16 * sections);
  views_.assign(sections, {});
  for (size_t k = 0; k < sections; ++k) {
    const uint64_t off = table[2 * k], len = table[2 * k + 1];
    if (off % 8 != 0 || off > size_ || len > size_ - off) corrupt("cut short");
    views_[k] = {base_ + off, static_cast<size_t>(len)};
  }
}

SectionFile SectionFile::own(std::string bytes, const char (&magic)[8], uint32_t version, size_t sections, const std::string& name,
                             const std::string& what, const std::string& remedy) {
  SectionFile f;
  f.owned_ = std::move(bytes);
  f.base_ = f.owned_.data(), f.size_ = f.owned_.size();
  f.name_ = name, f.what_ = what, f.remedy_ = remedy;
  f.attach(magic, version, sections);
  return f;
}

SectionFile SectionFile::map(const std::string& path, const char (&magic)[8], uint32_t version, size_t sections, const std::string& what,
                             const std::string& remedy) {
  SectionFile f;
  f.name_ = path, f.what_ = what, f.remedy_ = remedy;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(path + ": cannot read: " + std::strerror(errno));
  struct stat st{};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw Error(path + ": not a regular file");
  }
  f.map_size_ = static_cast<size_t>(st.st_size);
  if (f.map_size_ > 0) {
    void* m = mmap(nullptr, f.map_size_, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (m == MAP_FAILED) throw Error(path + ": cannot map: " + std::strerror(errno));
    f.map_ = m;
  } else {
    ::close(fd);
  }
  f.base_ = static_cast<const char*>(f.map_), f.size_ = f.map_size_;
  f.attach(magic, version, sections);
  return f;
}

bool SectionFile::starts_with(const std::string& path, const char (&magic)[8]) {
  std::ifstream f(path, std::ios::binary);
  char head[8] = {};
  return f.read(head, 8) && std::memcmp(head, magic, 8) == 0;
}

std::string SectionFile::string(size_t off, size_t bytes, size_t i) const {
  const uint64_t* o = at<uint64_t>(off);
  return std::string(views_[bytes].data + o[i], o[i + 1] - o[i]);
}

void SectionFile::check_string_table(size_t off, size_t bytes, size_t items) const {
  if (count<uint64_t>(off) != items + 1) corrupt("table sizes");
  const uint64_t* o = at<uint64_t>(off);
  if (o[0] != 0 || o[items] != views_[bytes].bytes) corrupt("string offsets");
  for (size_t i = 0; i < items; ++i)
    if (o[i] > o[i + 1]) corrupt("string offsets");
}

}  // namespace light

#include "light/io/file_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "light/error.h"
#include "light/util/fs.h"

namespace light::io {

FileBytes::FileBytes(const std::string& path, size_t least, const std::string& what) {
  note_input(path, "a model file this command reads");
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw Error(path + ": cannot read: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    throw Error(path + ": cannot read: " + std::strerror(e));
  }
  const size_t size = static_cast<size_t>(st.st_size);
  if (size < least || size == 0) {
    ::close(fd);
    throw Error(path + ": " + what + " (" + std::to_string(size) + " bytes)");
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int e = errno;
  ::close(fd);
  if (map == MAP_FAILED) throw Error(path + ": cannot map: " + std::strerror(e));
  map_ = map;
  size_ = size;
}

FileBytes::FileBytes(std::string bytes) : owned_(std::move(bytes)) {}

FileBytes::~FileBytes() {
  if (map_) ::munmap(map_, size_);
}

}  // namespace light::io

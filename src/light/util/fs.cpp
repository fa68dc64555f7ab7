#include "light/util/fs.h"

#include <filesystem>
#include <vector>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "light/util/error.h"

namespace light {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot read: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Error(path + ": read error");
  return ss.str();
}

void write_file_atomic(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw Error(path + ": cannot write: " + std::strerror(errno));
  bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  ok = (std::fflush(f) == 0) && ok;
  ok = (::fsync(::fileno(f)) == 0) && ok;
  const int saved_errno = errno;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) {
    std::remove(tmp.c_str());
    throw Error(path + ": cannot write: " + std::strerror(saved_errno));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw Error(path + ": cannot write (rename failed): " + std::strerror(e));
  }
}

void remove_tree(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  if (ec || !fs::exists(st)) return;
  if (fs::is_directory(st)) {
    std::vector<std::string> children;
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) children.push_back(it->path().string());
    if (ec) throw Error(path + ": cannot list the folder: " + ec.message());
    for (const auto& c : children) remove_tree(c);
  }
  if (!fs::remove(path, ec) || ec) throw Error(path + ": cannot remove: " + (ec ? ec.message() : "unknown reason"));
}

}  // namespace light

// Small file helpers: whole-file reads with clear errors, and atomic writes (write, then rename),
// so that a failed command never leaves a half-written output behind.
#pragma once
#include <string>

namespace light {

// Reads a whole file; throws light::Error("PATH: cannot read: REASON") on failure.
std::string read_file(const std::string& path);

// Writes `content` to a temporary file beside `path`, flushes it, then renames it over `path`.
// On any failure the temporary file is removed and light::Error is thrown; `path` is untouched.
void write_file_atomic(const std::string& path, const std::string& content);

// Removes `path` and, for a folder, everything in it (symbolic links themselves, never what they
// point to); nothing when it does not exist. Written with directory iteration rather than
// std::filesystem::remove_all: PyTorch's pip LibTorch exports its own copy of that function, which the
// dynamic linker may bind instead of libstdc++'s, and that copy crashes (seen with torch 2.11).
void remove_tree(const std::string& path);

}  // namespace light

// The map images a command reads from --images (spot/spotter.h list_map_images): a file, or a folder's
// images in its subfolders too, each under a key that goes into MapText.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "light/error.h"
#include "light/spot/spotter.h"
#include "light/util/fs.h"
#include "light/util/utf8.h"

namespace light::spot {

namespace fs = std::filesystem;

namespace {
bool is_image_name(const fs::path& p) {
  std::string ext = p.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* e : {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".webp", ".jp2"})
    if (ext == e) return true;
  return false;
}
}  // namespace

namespace {
// The images in `dir` and its subfolders (symbolic links to folders not followed: no loop), keys
// relative to `root`; a subfolder that cannot be read is named in `unreadable` and passed over.
void list_folder(const fs::path& root, const fs::path& dir, std::vector<std::pair<std::string, std::string>>& out,
                 std::vector<std::string>& unreadable) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  for (const fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
    std::error_code ignored;  // a dangling link or a file gone since: not an image to read
    if (it->is_symlink(ignored) ? false : it->is_directory(ignored)) list_folder(root, it->path(), out, unreadable);
    else if (it->is_regular_file(ignored) && is_image_name(it->path()))
      out.emplace_back(it->path().lexically_relative(root).generic_string(), it->path().string());
  }
  if (ec) unreadable.push_back(shown_bytes(dir.string()) + " (" + ec.message() + ")");
}

// An image key goes into MapText (JSON, UTF-8): a file name in another encoding (Latin-1, as old
// archives hold) is refused before any work, naming it.
void check_key(const std::string& key, const std::string& path) {
  if (!is_valid_utf8(key))
    throw Error(shown_bytes(path) + ": the file name is not UTF-8 (image keys are written into JSON); rename it, e.g. "
                "convmv -f latin1 -t utf8 --notest FILE");
}
}  // namespace

std::vector<std::pair<std::string, std::string>> list_map_images(const std::string& images) {
  std::vector<std::pair<std::string, std::string>> out;
  if (fs::is_regular_file(images)) {
    out.emplace_back(fs::path(images).filename().string(), images);
    check_key(out.back().first, images);
    note_input(images, "an image this command reads");
    return out;
  }
  if (!fs::is_directory(images)) throw Error(shown_bytes(images) + " (--images): no such file or folder");
  std::error_code ec;
  fs::directory_iterator top(images, ec);
  if (ec) throw Error(shown_bytes(images) + " (--images): cannot read the folder: " + ec.message());
  std::vector<std::string> unreadable;
  list_folder(images, images, out, unreadable);
  for (const auto& u : unreadable) std::fprintf(stderr, "note: %s: cannot read this folder; its maps are passed over\n", u.c_str());
  std::sort(out.begin(), out.end());
  for (const auto& [key, path] : out) {
    check_key(key, path);
    note_input(path, "an image this command reads");
  }
  if (out.empty()) throw Error(shown_bytes(images) + " (--images): no image files (.png, .jpg, .tif, ...) in it");
  return out;
}

}  // namespace light::spot

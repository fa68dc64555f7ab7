#include "light/util/bundled.h"

#include <algorithm>
#include <filesystem>

namespace light {

std::vector<std::string> bundled_folder_candidates(const std::string& exe_dir, const std::string& name) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const std::string rel : {"models/", "../share/light/models/", "../models/"})
    out.push_back((fs::path(exe_dir) / (rel + name)).lexically_normal().string());
  auto add = [&](const fs::path& dir) {
    const std::string d = (dir / name).lexically_normal().string();
    if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  };
#ifdef LIGHT_SOURCE_MODELS_DIR
  add(LIGHT_SOURCE_MODELS_DIR);
#endif
#ifdef LIGHT_INSTALLED_MODELS_DIR
  add(LIGHT_INSTALLED_MODELS_DIR);
#endif
  return out;
}

}  // namespace light

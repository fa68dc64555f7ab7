#include "light/util/bundled.h"

#include <algorithm>
#include <filesystem>

namespace light {

std::vector<std::string> bundled_folder_candidates(const std::string& exe_dir, const std::string& name) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const std::string rel : {"models/", "../share/light/models/", "../models/"})
    out.push_back((fs::path(exe_dir) / (rel + name)).lexically_normal().string());
#ifdef LIGHT_SOURCE_MODELS_DIR
  const std::string source = (fs::path(LIGHT_SOURCE_MODELS_DIR) / name).lexically_normal().string();
  if (std::find(out.begin(), out.end(), source) == out.end()) out.push_back(source);
#endif
  return out;
}

}  // namespace light

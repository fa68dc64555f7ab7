#include "light/link/default_model.h"
#include <algorithm>

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>

#include "light/error.h"
#include "light/util/bundled.h"

namespace light::link {

namespace fs = std::filesystem;

std::vector<std::string> default_model_candidates(const std::string& exe_dir) {
  std::vector<std::string> out;
  if (const char* env = std::getenv("LIGHT_MODEL"); env && *env) out.push_back(env);
  for (const std::string& c : bundled_folder_candidates(exe_dir, kDefaultModelName)) out.push_back(c);
  return out;
}

namespace {
bool is_model_folder(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::path(dir) / "config.json", ec)) return false;
  for (const char* weights : {"model.safetensors", "best_model.pth", "model.pth"})
    if (fs::is_regular_file(fs::path(dir) / weights, ec)) return true;
  return false;
}
}  // namespace

std::string find_default_model(const std::string& exe_dir) {
  if (const char* env = std::getenv("LIGHT_MODEL"); env && *env) {
    if (!is_model_folder(env))
      throw Error(std::string("LIGHT_MODEL=") + env + ": not a model folder (config.json and model.safetensors expected)");
    return env;
  }
  for (const std::string& c : default_model_candidates(exe_dir))
    if (is_model_folder(c)) return c;
  return "";
}

std::string require_default_model(const std::string& exe_dir, const std::string& who, const std::string& remedy) {
  const std::string found = find_default_model(exe_dir);
  if (!found.empty()) return found;
  std::string looked;
  for (const auto& c : default_model_candidates(exe_dir)) looked += (looked.empty() ? "" : ", ") + c;
  throw Error((who.empty() ? "" : who + ": ") + "no model given and the bundled model \"" + kDefaultModelName + "\" is not found (looked in " +
              looked + "); " + remedy);
}

}  // namespace light::link

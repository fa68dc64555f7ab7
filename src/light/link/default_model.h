// The model `light link` runs when neither --model nor --method is given: the bundled one, found
// without LibTorch (the `light` binary names it in errors and `light info` prints it).
#pragma once
#include <string>
#include <vector>

#include "light/util/fs.h"  // executable_dir

namespace light::link {

// The bundled model's folder name (models/<name>/ in the source tree, share/light/models/<name>/
// when installed).
inline constexpr const char* kDefaultModelName = "light-small";

// Where the default model is looked for, in order: $LIGHT_MODEL (a model folder) when set; then,
// beside the running binary `exe_dir`: models/<name>, ../share/light/models/<name> (an install
// prefix), ../models/<name> (a build folder inside the source tree).
std::vector<std::string> default_model_candidates(const std::string& exe_dir);

// The first candidate holding config.json and weights (model.safetensors, best_model.pth, model.pth); "" when none does. A $LIGHT_MODEL
// that names no such folder is a light::Error (a user's setting is never silently passed over).
std::string find_default_model(const std::string& exe_dir);

// The same, or a light::Error: "<who>: no model given and the bundled model ... is not found (looked
// in ...); <remedy>" (`who` "" for none).
std::string require_default_model(const std::string& exe_dir, const std::string& who, const std::string& remedy);


}  // namespace light::link

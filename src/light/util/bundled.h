// Where a bundled folder (models/<name>: the default linking model, the spotter) is looked for, beside
// the running binary `exe_dir`, in order: models/<name>, ../share/light/models/<name> (an install
// prefix), ../models/<name> (a build folder inside the source tree), the source tree's models/
// remembered at configure time (a build outside it: the build's own models, not an older install),
// and the install prefix's share/light/models/<name> (a program or Python module that is not beside
// it, its source tree gone).
#pragma once
#include <string>
#include <vector>

namespace light {

std::vector<std::string> bundled_folder_candidates(const std::string& exe_dir, const std::string& name);

}  // namespace light

#include "light/train/run_options.h"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/json.h"

namespace light::train {

namespace fs = std::filesystem;

void check_range(double value, double lo, double hi, const std::string& option) {
  if (!(std::isfinite(value) && value >= lo && value <= hi)) {
    std::ostringstream m;
    m << option << ": expected a number from " << lo << " to " << hi << ", got " << value;
    throw Error(m.str());
  }
}

void check_optimiser(double lr, double weight_decay, double warmup_ratio) {
  check_range(lr, 0, 1, "--lr");  // 0 freezes the weights (a dry run of the loop)
  check_range(weight_decay, 0, 1, "--weight-decay");
  check_range(warmup_ratio, 0, 1, "--warmup-ratio");
}

std::string absolute_path(const std::string& p) { return p.empty() ? p : fs::absolute(p).lexically_normal().string(); }

std::string path_or_name(const std::string& p) { return fs::exists(p) ? absolute_path(p) : p; }

void check_resume_world_size(int saved, int now, const std::string& options_path) {
  if (saved != now)
    throw Error(options_path + ": the run was started with --world-size " + std::to_string(saved) + "; resume it with the same");
}

nlohmann::json read_options_file(const std::string& run_dir, const std::string& what) {
  const std::string path = run_dir + "/options.json";
  if (!fs::exists(path)) throw Error(run_dir + ": not a " + what + " run (no options.json) (--resume)");
  return parse_json(read_file(path), path);
}

}  // namespace light::train

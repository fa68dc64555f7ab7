// One description of a training command's options, which drives its command line (cli/run_options.h),
// RUN/options.json (run_options_json) and --resume (read_run_options, and the flags a resumed run
// refuses): each option's flag, help, options.json key and what a resumed run does with it.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "light/train/distributed_options.h"
#include "light/error.h"

namespace light::train {

// options.json paths: absolute (an empty path stays empty); a preset name that is no file stays a name.
std::string absolute_path(const std::string& path);
std::string path_or_name(const std::string& path);
// Throws light::Error naming `option` unless `value` is a finite number in [lo, hi].
void check_range(double value, double lo, double hi, const std::string& option);
// The optimiser's numbers: --lr, --weight-decay and a warm-up ratio, each in [0, 1].
void check_optimiser(double lr, double weight_decay, double warmup_ratio = 0);
// A run resumes with the --world-size it was started with (`saved`, from `options_path`), or not at all.
void check_resume_world_size(int saved, int now, const std::string& options_path);

// The options every step-based run has (`light pretrain-poly`, `light pretrain`); each command's
// options derive from it and set their own defaults.
struct StepRunOptions {
  std::string data, images, out_dir;
  std::string config = "small";  // small | base | tiny | a config.json
  std::string init = "none";
  long max_steps = 10000;
  int batch_size = 2, threads = 0, log_every = 50, checkpoint_every = 500;
  double lr = 5e-5, weight_decay = 0.01, warmup_ratio = 0.05;
  uint64_t seed = 4321;
  std::string device = "cpu";
  // How word polygons reach the model (data/model_polygons.h): resample | keep.
  std::string polygon_points = "resample";
  bool progress = false, resume = false;
  bool overwrite = false;  // --overwrite: replace what a non-empty out_dir holds (a new run only)
  DistributedOptions distributed;
  // Called after each step of this call (counted from 1): a test throws as if the run were killed there.
  std::function<void(long step)> on_step;
};

// What a step-based run reports.
struct StepRunSummary {
  long steps = 0;
  double first_loss = 0, last_loss = 0;  // the first and last logged mean losses
  size_t tiles = 0;
  size_t degenerate_polygons = 0;        // polygons that could not be resampled (fed as given)
  std::string first_degenerate;          // the first of them: file, image, word and why
};

template <class Options>
struct RunOption {
  using Member = std::variant<std::string Options::*, int Options::*, long Options::*, double Options::*, bool Options::*,
                              uint64_t Options::*>;
  enum class Resume {
    Fixed,     // saved; a resumed run takes it from options.json and refuses the flag
    Renewable, // saved; a resumed run takes a new value when given one (--max-epochs)
    Local,     // not saved: this process's (threads, device, the run folder itself)
  };
  enum class Path { No, Absolute, AbsoluteOrName };  // how options.json keeps a path: as given, absolute, or a preset name as is

  const char* flag;  // "--name"; nullptr: options.json only
  const char* key;   // options.json key; nullptr: not saved
  Member member;
  const char* help;
  Resume resume = Resume::Fixed;
  Path path = Path::No;
  bool required_flag = false;  // a new run must give it
  bool negated = false;        // a bool whose flag sets it false (--no-focal sets focal)
  const char* saved_before = nullptr;  // JSON of the value runs saved before the option existed had
  std::vector<std::string> choices;    // the values a string may take (empty: any)

  RunOption(const char* flag_, const char* key_, Member member_, const char* help_)
      : flag(flag_), key(key_), member(member_), help(help_) {}
  RunOption& renewable() { return resume = Resume::Renewable, *this; }
  RunOption& local() { return resume = Resume::Local, *this; }
  RunOption& absolute() { return path = Path::Absolute, *this; }
  RunOption& absolute_or_name() { return path = Path::AbsoluteOrName, *this; }
  RunOption& required() { return required_flag = true, *this; }
  RunOption& negate() { return negated = true, *this; }
  RunOption& before(const char* json) { return saved_before = json, *this; }
  RunOption& one_of(std::vector<std::string> values) { return choices = std::move(values), *this; }
  bool saved() const { return key != nullptr && resume != Resume::Local; }
};

// RUN/options.json: every saved option in description order, then world_size.
template <class Options>
std::string run_options_json(const Options& o, const std::vector<RunOption<Options>>& options) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& d : options) {
    if (!d.saved()) continue;
    std::visit(
        [&](auto m) {
          using T = std::decay_t<decltype(o.*m)>;
          if constexpr (std::is_same_v<T, std::string>)
            j[d.key] = d.path == RunOption<Options>::Path::Absolute        ? absolute_path(o.*m)
                       : d.path == RunOption<Options>::Path::AbsoluteOrName ? path_or_name(o.*m)
                                                                            : o.*m;
          else
            j[d.key] = o.*m;
        },
        d.member);
  }
  j["world_size"] = o.distributed.world_size;
  return j.dump(1) + "\n";
}

// The text of RUN/options.json parsed (light::Error naming `what` when the folder holds none).
nlohmann::json read_options_file(const std::string& run_dir, const std::string& what);

// Fills `o` from RUN/options.json for --resume: every saved option (a renewable one only where
// keep(flag) is false), world_size checked; out_dir and resume set. Local options stay as they are.
// A bad file is a light::Error naming it and the key.
template <class Options>
void read_run_options(const std::string& run_dir, const std::string& what, const std::vector<RunOption<Options>>& options,
                      Options& o, const std::function<bool(const char* flag)>& keep = {}) {
  const std::string path = run_dir + "/options.json";
  const nlohmann::json j = read_options_file(run_dir, what);
  try {
    for (const auto& d : options) {
      if (!d.saved() || (d.resume == RunOption<Options>::Resume::Renewable && keep && keep(d.flag))) continue;
      const nlohmann::json v = !j.contains(d.key) && d.saved_before ? nlohmann::json::parse(d.saved_before) : j.at(d.key);
      std::visit([&](auto m) { o.*m = v.get<std::decay_t<decltype(o.*m)>>(); }, d.member);
    }
    check_resume_world_size(j.value("world_size", 1), o.distributed.world_size, path);
  } catch (const nlohmann::json::exception& e) {
    throw light::Error(path + ": " + e.what());
  }
  o.out_dir = run_dir;
  o.resume = true;
}

}  // namespace light::train

#include "light/train/spotter_run.h"

#include <torch/torch.h>

#include <filesystem>

#include "light/error.h"
#include "light/model/checkpoint.h"
#include "light/util/fs.h"

namespace light::train {

namespace fs = std::filesystem;

namespace {
constexpr const char* kSpotterFiles[] = {"detector.safetensors", "recognizer.safetensors", "keys.txt"};
}

void check_spotter_run(const std::string& spotter_dir, double lr, const std::string& out_dir, bool resume) {
  for (const char* f : kSpotterFiles)
    if (!fs::is_regular_file(fs::path(spotter_dir) / f)) throw Error(spotter_dir + " (--spotter): not a spotter folder (no " + f + ")");
  if (!(lr > 0 && lr < 1)) throw Error("--lr: expected a learning rate in (0, 1)");
  const fs::path out(out_dir);
  if (resume ? !fs::exists(out / "last.safetensors") : fs::exists(out))
    throw Error(out_dir + (resume ? " (--out): no run to resume (no last.safetensors)" : " (--out): exists; give a new folder, or --resume"));
}

void start_spotter_run(const std::string& spotter_dir, const std::string& out_dir) {
  const fs::path best = fs::path(out_dir) / "best";
  fs::create_directories(best);
  for (const char* f : kSpotterFiles) fs::copy_file(fs::path(spotter_dir) / f, best / f);
}

nlohmann::json resume_spotter_run(torch::nn::Module& module, const std::string& out_dir) {
  const std::string last = (fs::path(out_dir) / "last.safetensors").string();
  model::load_state(module, model::read_safetensors_state_dict(last), last);
  return nlohmann::json::parse(read_file((fs::path(out_dir) / "state.json").string()));
}

void append_run_log(const std::string& out_dir, const std::string& line) {
  const fs::path log = fs::path(out_dir) / "log.jsonl";
  const std::string before = fs::exists(log) ? read_file(log.string()) : "";
  write_file_atomic(log.string(), before + line + "\n");
}

}  // namespace light::train

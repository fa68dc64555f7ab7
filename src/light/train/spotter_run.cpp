#include "light/train/spotter_run.h"

#include <torch/torch.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "light/error.h"
#include "light/model/checkpoint.h"
#include "light/model/ppocr_det.h"
#include "light/model/ppocr_rec.h"
#include "light/text/ctc_dictionary.h"
#include "light/util/fs.h"
#include "light/util/json.h"

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
  const bool started = fs::exists(out / "last.safetensors");
  if (resume && !started) {
    if (fs::is_directory(out))
      throw Error(out_dir + " (--out): no epoch of this run finished (no last.safetensors), so there is nothing to resume; remove the "
                  "folder (rm -r " + out_dir + ") and start the run again without --resume");
    throw Error(out_dir + " (--out): no run to resume (no such folder)");
  }
  if (resume && !fs::is_directory(out / "best"))
    throw Error(out_dir + "/best: missing (the run's best spotter so far); the run cannot go on without it: start a new run");
  if (!resume && fs::exists(out)) {
    if (fs::is_directory(out / "best") && !fs::exists(out / "state.json"))
      throw Error(out_dir + " (--out): holds a run stopped before its first epoch ended (no state.json); remove it (rm -r " + out_dir +
                  ") or give a new folder");
    throw Error(out_dir + " (--out): exists; give a new folder, or --resume");
  }
  if (!resume) check_can_make_folder("--out", out_dir);
  // Both models read whole (a damaged one refused naming the file and the tensor): the run copies the
  // part it does not train into best/ as it is.
  const text::Dictionary keys(spotter_dir + "/keys.txt", static_cast<int>(model::load_text_recognizer(spotter_dir + "/recognizer.safetensors")->classes));
  model::load_text_detector(spotter_dir + "/detector.safetensors");
}

void start_spotter_run(const std::string& spotter_dir, const std::string& out_dir) {
  const fs::path best = fs::path(out_dir) / "best";
  make_folder("--out", best.string());
  for (const char* f : kSpotterFiles) fs::copy_file(fs::path(spotter_dir) / f, best / f);
  // The settings the spotter runs with go with it (the command checked them before the run).
  if (fs::is_regular_file(fs::path(spotter_dir) / "spotter.json")) fs::copy_file(fs::path(spotter_dir) / "spotter.json", best / "spotter.json");
}

nlohmann::json resume_spotter_run(torch::nn::Module& module, const std::string& out_dir, const std::vector<std::string>& scores) {
  // The state first, read as every JSON file a user hands over (one strict reader), and held to what
  // this run can have written: a finished epoch from 1 to a million, finite scores of 0 or more.
  const std::string path = (fs::path(out_dir) / "state.json").string();
  const nlohmann::json state = parse_json(read_file(path), path);
  if (!state.is_object()) throw Error(path + ": expected a JSON object (the run's state), got " + std::string(state.type_name()));
  const auto number = [&](const std::string& key) -> double {
    const auto it = state.find(key);
    if (it == state.end()) throw Error(path + ": no \"" + key + "\" (a run's state has epoch, " + [&] {
                                         std::string s;
                                         for (const auto& k : scores) s += (s.empty() ? "" : ", ") + k;
                                         return s;
                                       }() + ")");
    if (!it->is_number()) throw Error(path + ": \"" + key + "\": expected a number, got " + std::string(it->type_name()));
    const double v = it->get<double>();
    if (!std::isfinite(v) || v < 0) throw Error(path + ": \"" + key + "\": expected a finite number of 0 or more, got " + it->dump());
    return v;
  };
  const double epoch = number("epoch");
  if (!state.at("epoch").is_number_integer() || epoch < 1 || epoch > 1e6)
    throw Error(path + ": \"epoch\": expected the last finished epoch, a whole number from 1 to 1000000, got " + state.at("epoch").dump());
  for (const auto& k : scores) number(k);
  const std::string last = (fs::path(out_dir) / "last.safetensors").string();
  model::load_state(module, model::read_safetensors_state_dict(last), last);
  return state;
}

void append_run_log(const std::string& out_dir, const std::string& line) {
  const fs::path log = fs::path(out_dir) / "log.jsonl";
  const std::string before = fs::exists(log) ? read_file(log.string()) : "";
  write_file_atomic(log.string(), before + line + "\n");
}

}  // namespace light::train

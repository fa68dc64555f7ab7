// What the spotter's two fine-tuning runs (train/recognizer_training, train/detector_training) share:
// the checks before a run, its best/ folder, its log.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace torch::nn {
class Module;
}

namespace light::train {

// A spotter folder to start from (detector.safetensors, recognizer.safetensors, keys.txt), a learning
// rate in (0, 1), and an out folder that is new (or, resuming, holds a run's last.safetensors). Throws
// light::Error naming the option.
void check_spotter_run(const std::string& spotter_dir, double lr, const std::string& out_dir, bool resume);

// A new run's best/: a copy of the starting spotter's three files (the fine-tuned one is replaced as
// the run improves).
void start_spotter_run(const std::string& spotter_dir, const std::string& out_dir);

// A resumed run: `module` loaded from RUN/last.safetensors; returns RUN/state.json (its "epoch": the last
// finished, and the best epoch's `scores`), checked: light::Error naming the file and the key.
nlohmann::json resume_spotter_run(torch::nn::Module& module, const std::string& out_dir, const std::vector<std::string>& scores);

// Appends one line to RUN/log.jsonl (the file rewritten atomically).
void append_run_log(const std::string& out_dir, const std::string& line);

}  // namespace light::train

#include "light/image/run_curves.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "light/image/plot.h"
#include "light/error.h"
#include "light/util/json.h"
#include "light/util/fs.h"

namespace light::image {

namespace {
double number_or_nan(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : NAN;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
}  // namespace

RunLog read_run_log(const std::string& run, const std::string& name) {
  RunLog log;
  log.path = std::filesystem::is_directory(run) ? (std::filesystem::path(run) / "log.jsonl").string() : run;
  if (!std::filesystem::exists(log.path)) throw Error(log.path + ": not found (a run folder of light train, pretrain-poly or pretrain)");
  log.name = name.empty() ? std::filesystem::path(run).lexically_normal().filename().string() : name;
  if (log.name.empty() || log.name == ".") log.name = std::filesystem::path(run).lexically_normal().parent_path().filename().string();
  std::istringstream in(read_file(log.path));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json j;
    try {
      j = parse_json(line, "log line");
    } catch (const std::exception& e) {
      throw Error(log.path + ": line " + std::to_string(n) + ": not JSON (" + e.what() + ")");
    }
    const bool epoch = j.contains("epoch"), step = j.contains("step");
    if (!j.is_object() || (!epoch && !step))
      throw Error(log.path + ": line " + std::to_string(n) + ": neither \"epoch\" nor \"step\" (not a light run log)");
    if (log.x.empty()) log.epochs = epoch;
    if (epoch != log.epochs) throw Error(log.path + ": line " + std::to_string(n) + ": mixes epoch and step lines");
    const char* xkey = epoch ? "epoch" : "step";
    const char* lkey = epoch ? "train_loss" : "loss";
    if (!j[xkey].is_number()) throw Error(log.path + ": line " + std::to_string(n) + ": \"" + xkey + "\" is not a number");
    log.x.push_back(j[xkey].get<double>());
    log.loss.push_back(number_or_nan(j, lkey));
    if (epoch) {
      log.val_loss.push_back(number_or_nan(j, "val_loss"));
      log.val_fscore.push_back(number_or_nan(j, "edges_fscore"));
    }
  }
  if (log.x.empty()) throw Error(log.path + ": empty (the run has not logged anything yet)");
  return log;
}

std::string summarise_runs(const std::vector<RunLog>& runs) {
  std::string out;
  for (const auto& r : runs) {
    out += r.name + ": ";
    if (r.epochs) {
      int best = -1;
      for (size_t i = 0; i < r.val_fscore.size(); ++i)
        if (std::isfinite(r.val_fscore[i]) && (best < 0 || r.val_fscore[i] > r.val_fscore[best])) best = static_cast<int>(i);
      out += fmt("%.0f epochs", r.x.back());
      if (best >= 0)
        out += fmt(", best validation edges F %.3f", r.val_fscore[best]) + fmt(" (epoch %.0f)", r.x[best]) +
               fmt(", last %.3f", r.val_fscore.back()) + fmt(", epoch 1 %.3f", r.val_fscore.front());
      else
        out += ", no validation scores";
    } else {
      out += fmt("%.0f steps", r.x.back()) + fmt(", loss %.4g", r.loss.front()) + fmt(" -> %.4g", r.loss.back());
    }
    out += "\n";
  }
  return out;
}

void draw_runs(const std::vector<RunLog>& runs, const std::string& path) {
  if (runs.empty()) throw Error("curves: no runs to draw");
  for (const auto& r : runs)
    if (r.epochs != runs[0].epochs)
      throw Error(r.path + ": a " + (r.epochs ? "fine-tuning" : "pretraining") + " log among " +
                  (runs[0].epochs ? "fine-tuning" : "pretraining") + " logs: draw one kind at a time");
  std::vector<Panel> panels;
  if (runs[0].epochs) {
    Panel f{"Validation edges F", "epoch", {}, -1, false, 0.0, 1.0}, l{"Validation loss", "epoch", {}, -1, true};
    for (size_t k = 0; k < runs.size(); ++k) {
      f.series.push_back({runs[k].name, runs[k].x, runs[k].val_fscore, palette_colour(k)});
      l.series.push_back({runs[k].name, runs[k].x, runs[k].val_loss, palette_colour(k)});
    }
    panels = {f, l};
  } else {
    Panel p{"Pretraining loss", "step", {}, -1, true};
    for (size_t k = 0; k < runs.size(); ++k) {
      std::vector<double> y = runs[k].loss;
      for (double& v : y) v = v > 0 ? v : NAN;
      p.series.push_back({runs[k].name, runs[k].x, y, palette_colour(k)});
    }
    panels = {p};
  }
  write_plot_png(path, panels);
}

void draw_step_curves(const std::string& log_text, const std::vector<std::string>& names, const std::string& parts_title,
                      const std::string& path) {
  std::vector<Series> series;  // the total in black, the parts in the palette's colours
  for (size_t k = 0; k < names.size(); ++k) series.push_back({names[k], {}, {}, k == 0 ? 0x000000u : palette_colour(k - 1)});
  std::istringstream in(log_text);
  std::string line;
  while (std::getline(in, line)) {
    const auto j = parse_json(line, "log line");
    for (size_t k = 0; k < names.size(); ++k) {
      series[k].x.push_back(j["step"].get<double>());
      const double v = j.contains(names[k]) && j[names[k]].is_number() ? j[names[k]].get<double>() : NAN;
      series[k].y.push_back(v > 0 ? v : NAN);
    }
  }
  write_plot_png(path, {{"Total loss", "step", {series[0]}, -1, true},
                               {parts_title, "step", std::vector<Series>(series.begin() + 1, series.end()), -1, true}});
}

void draw_epoch_curves(const std::string& log_text, int best_epoch, const std::string& path) {
  Series train{"train loss (batch total)", {}, {}, 0x1f77b4}, val{"val loss (successor CE)", {}, {}, 0xd62728};
  Series r{"edges recall", {}, {}, 0x2ca02c}, p{"edges precision", {}, {}, 0xff7f0e}, f{"edges F", {}, {}, 0x9467bd};
  std::istringstream in(log_text);
  std::string line;
  while (std::getline(in, line)) {
    const auto j = parse_json(line, "log line");
    const double e = j["epoch"];
    for (auto [series, key] : {std::pair{&train, "train_loss"}, {&val, "val_loss"}, {&r, "edges_recall"},
                               {&p, "edges_precision"}, {&f, "edges_fscore"}}) {
      series->x.push_back(e);
      series->y.push_back(j[key].is_number() ? j[key].get<double>() : NAN);
    }
  }
  write_plot_png(path, {{"Loss", "epoch", {train, val}, static_cast<double>(best_epoch), true},
                               {"Validation links (detedges)", "epoch", {r, p, f}, static_cast<double>(best_epoch), false, 0.0, 1.0}});
}


}  // namespace light::image

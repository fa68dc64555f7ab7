// A spotter folder's spotter.json: its stages and every stage's settings (spot/spot_options.h), read
// and checked as the linker's config.json is (the file and the key named on error), written by
// `light import-ppocr` and `light train-spotter` so that a spotter carries the settings it was tuned
// with. A folder without one runs the defaults. docs/spotter.md lists the keys.
#pragma once
#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "light/spot/spot_options.h"

namespace light::spot {

struct StageInfo {
  Stage stage;
  const char* name;  // spotter.json's name for it (its "stages" list, and the section of its settings)
  bool required;     // always runs
  const char* does;  // what it does, for `light spot --stages` and the docs
};
// Every stage, in the order they run.
const std::vector<StageInfo>& spotter_stages();
const StageInfo& stage_info(Stage s);

// One setting: the section it is in (a stage's name, or "detector" / "recognizer"), its key there,
// where it lives in SpotOptions, its range (both ends allowed; ignored for text and flags) and what it does.
struct SpotSetting {
  using Field = std::variant<double*, int*, size_t*, bool*, std::string*>;
  const char* section;
  const char* key;
  Field (*field)(SpotOptions&);
  double lo, hi;
  const char* help;
};
// Every setting, in spotter.json's order.
const std::vector<SpotSetting>& spot_settings();

// The settings in `config` (a spotter.json's contents; `where` names it in messages) over the
// defaults: every key known, every value of its type and in its range, "stages" a list of known
// stages in the order they run, naming db_boxes and reading.
SpotOptions parse_spotter_config(const nlohmann::json& config, const std::string& where);
// The folder's spotter.json read so (the defaults when it has none).
SpotOptions spotter_settings(const std::string& dir);
// spotter.json's contents for `options`: every stage and every setting, so that the file says all.
nlohmann::ordered_json spotter_config_json(const SpotOptions& options);
// Written beside the weights in `dir` (whole or not at all).
void write_spotter_config(const std::string& dir, const SpotOptions& options);
// The stages of `options` as `light spot --stages` prints them: each with whether it runs, what it
// does, and its settings' values.
std::string describe_stages(const SpotOptions& options);

}  // namespace light::spot

// Helpers shared by the tests: paths to bundled data and running the `light` binary.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "light/maptext.h"

namespace light::test {

inline std::string source_path(const std::string& rel) { return std::string(LIGHT_SOURCE_DIR) + "/" + rel; }
inline std::string example_path(const std::string& file) { return source_path("data/maptext-example/" + file); }

// A word whose polygon is the box (x0, y0)-(x1, y1), as MapText gives an upright word: the lower edge
// in reading direction, then the upper edge back.
inline maptext::Word upright_word(double x0, double y0, double x1, double y1, const std::string& text) {
  maptext::Word w;
  w.vertices = {{x0, y1}, {x1, y1}, {x1, y0}, {x0, y0}};
  w.text = text;
  return w;
}

// The box (x0, y0)-(x1, y1) as a 16-point upright word polygon in MapText order: the lower edge
// (y = y1) left to right, then the upper edge (y = y0) back.
inline std::vector<maptext::Point> upright_polygon16(double x0, double y0, double x1, double y1) {
  std::vector<maptext::Point> p;
  for (int k = 0; k < 8; ++k) p.push_back({x0 + (x1 - x0) * k / 7.0, y1});
  for (int k = 7; k >= 0; --k) p.push_back({x0 + (x1 - x0) * k / 7.0, y0});
  return p;
}

// A fresh empty directory under the system temp folder.
std::string temp_dir();

void write_text(const std::string& path, const std::string& text);
std::string read_text(const std::string& path);
bool file_exists(const std::string& path);

struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

// A tokenizer folder (vocab.json + merges.txt) in which every byte is its own token, ids 3..258
// (<s> 0, <pad> 1, </s> 2): fits small test models' vocabularies. Returns `dir`.
std::string write_byte_level_tokenizer(const std::string& dir);

// Every file under `dir` (relative path -> bytes): "nothing changed" compares two of these.
std::map<std::string, std::string> snapshot(const std::string& dir);

// A run's log.jsonl without its timings (each line cut at its "seconds" key): two runs compared.
std::string strip_seconds(const std::string& log);

// A 4-point word box in MapText order (top edge left to right, then the bottom edge back).
maptext::Word box_word(const std::string& text, double x0, double y0, double x1, double y1);

// A shell-quoted argument ('...'; the tests' paths hold no quote).
inline std::string q(const std::string& s) { return "'" + s + "'"; }

// Runs `light ARGS` (ARGS is a shell fragment) and captures exit code, stdout and stderr.
RunResult run_light(const std::string& args);

// A refusal: exit 1, "light: error: " and `message` on stderr (gtest expectations).
void expect_error(const RunResult& r, const std::string& message);

// A setting of a spotter folder's spotter.json: its section, key and value.
struct SpotterSetting {
  std::string section, key;
  double value;
};

// A copy of the bundled spotter (models/spotter) in `dir`, its spotter.json with `settings` changed;
// returns `dir`. `detector_from`: the folder whose detector it takes (models/ppocr-v4: the released one).
std::string spotter_with(const std::string& dir, const std::vector<SpotterSetting>& settings,
                         const std::string& detector_from = "models/spotter");

// The bundled spotter with the released detector (models/ppocr-v4), made once a process. The tests
// of a pipeline stage read with it: each stage mends a failure of the released detector's (a line
// cut short, a box left level), which the fine-tuned one may not show on the test's crop.
const std::string& released_detector_spotter();

}  // namespace light::test

#include "test_util.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <nlohmann/json.hpp>
#include <sstream>

#include "light/text/bpe.h"

namespace light::test {

std::string temp_dir() {
  static std::mt19937_64 rng(std::random_device{}());
  auto dir = std::filesystem::temp_directory_path() / ("light_test_" + std::to_string(rng()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool file_exists(const std::string& path) { return std::filesystem::exists(path); }

std::string spotter_with(const std::string& dir, const std::vector<SpotterSetting>& settings, const std::string& detector_from) {
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(source_path(detector_from + "/detector.safetensors"), dir + "/detector.safetensors");
  for (const char* f : {"recognizer.safetensors", "keys.txt"})
    std::filesystem::copy_file(source_path(std::string("models/spotter/") + f), dir + "/" + f);
  nlohmann::json c = nlohmann::json::parse(read_text(source_path("models/spotter/spotter.json")));
  for (const SpotterSetting& s : settings) c.at(s.section).at(s.key) = s.value;
  write_text(dir + "/spotter.json", c.dump(2));
  return dir;
}

const std::string& released_detector_spotter() {
  static const std::string dir = spotter_with(temp_dir() + "/released-detector", {}, "models/ppocr-v4");
  return dir;
}

std::string write_byte_level_tokenizer(const std::string& dir) { return light::text::BpeTokenizer::write_byte_level(dir); }

RunResult run_light(const std::string& args) {
  const std::string dir = temp_dir();
  const std::string out = dir + "/stdout", err = dir + "/stderr";
  const std::string cmd = std::string("'") + LIGHT_BINARY + "' " + args + " >'" + out + "' 2>'" + err + "'";
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  std::filesystem::remove_all(dir);
  return r;
}

std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[std::filesystem::relative(e.path(), dir).string()] = read_text(e.path().string());
  return out;
}

void expect_error(const RunResult& r, const std::string& message) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("light: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << "expected \"" << message << "\" in: " << r.err;
}

std::string strip_seconds(const std::string& log) {
  std::string out, line;
  std::istringstream in(log);
  while (std::getline(in, line)) out += line.substr(0, line.find("\"seconds\"")) + "\n";
  return out;
}

maptext::Word box_word(const std::string& text, double x0, double y0, double x1, double y1) {
  maptext::Word w;
  w.vertices = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  w.text = text;
  w.illegible = false;
  w.truncated = false;
  return w;
}

}  // namespace light::test

#include "light/link/collection.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "light/error.h"
#include "light/util/json.h"
#include "light/util/utf8.h"

namespace light::link {

namespace fs = std::filesystem;

namespace {

std::string resolve(const std::string& p, const fs::path& base) {
  if (p.empty() || fs::path(p).is_absolute()) return p;
  return (base / p).lexically_normal().string();
}

// One CSV line's cells; double quotes may wrap a cell (a doubled quote inside is one quote).
std::vector<std::string> csv_cells(const std::string& line, const std::string& where) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cells.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else cells.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  if (quoted) throw Error(where + ": an unclosed quote");
  for (auto& c : cells) {
    const size_t a = c.find_first_not_of(" \t"), b = c.find_last_not_of(" \t");
    c = a == std::string::npos ? "" : c.substr(a, b - a + 1);
  }
  return cells;
}

}  // namespace

std::vector<MapJob> read_collection(const std::string& path) {
  std::vector<MapJob> jobs;
  if (fs::is_directory(path)) {
    for (const auto& e : fs::directory_iterator(path))
      if (e.is_regular_file() && (e.path().extension() == ".json" || e.path().extension() == ".geojson"))
        jobs.push_back({e.path().stem().string(), e.path().string(), "", ""});
    std::sort(jobs.begin(), jobs.end(), [](const MapJob& a, const MapJob& b) { return a.name < b.name || (a.name == b.name && a.words < b.words); });
    if (jobs.empty()) throw Error(path + ": no .json or .geojson words file in this folder (--collection)");
    for (size_t i = 1; i < jobs.size(); ++i)
      if (jobs[i].name == jobs[i - 1].name)
        throw Error(path + ": " + fs::path(jobs[i - 1].words).filename().string() + " and " + fs::path(jobs[i].words).filename().string() +
                    " would both be written as the map \"" + jobs[i].name + "\"; rename one, or name each in a manifest (--collection)");
    return jobs;
  }
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot read the manifest (--collection)");
  const fs::path base = fs::path(path).parent_path();
  bool jsonl = fs::path(path).extension() == ".jsonl" || fs::path(path).extension() == ".ndjson";
  std::vector<std::string> columns;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1) line = std::string(without_bom(line));  // as Excel's "CSV UTF-8" starts
    if (number == 1) {
      const size_t first = line.find_first_not_of(" \t");
      const char c = first == std::string::npos ? ' ' : line[first];
      bool words_file = false;
      if (c == '[') {  // a MapText words file is a list of image entries; any other list is neither
        std::ifstream whole(path);
        const nlohmann::json j = nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(whole), {}), nullptr, false);
        words_file = j.is_array() && std::all_of(j.begin(), j.end(), [](const nlohmann::json& e) { return e.is_object(); });
        if (!words_file)
          throw Error(path + ": line " + std::to_string(number) + ": neither a manifest row (CSV, or a JSON object a line: words, image, "
                      "georef, name) nor a words file (a MapText list of image entries)");
      }
      if (c == '{') {  // JSON lines, whatever the file is called, unless the file is one JSON document
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded()) {
          std::ifstream whole(path);
          words_file = nlohmann::json::accept(std::string(std::istreambuf_iterator<char>(whole), {}));
        } else {
          words_file = j.is_object() && (j.contains("annotations") || j.contains("groups") || j.contains("features"));
        }
        jsonl = true;
      }
      if (words_file)
        throw Error(path + ": a words file, not a manifest; link it with --words, or give --collection a folder of words files or a "
                           "manifest (CSV, or JSON lines: words, image, georef, name)");
    }
    if (line.find_first_not_of(" \t") == std::string::npos || line[0] == '#') continue;
    const std::string where = path + ": line " + std::to_string(number);
    std::map<std::string, std::string> row;
    if (jsonl) {
      const nlohmann::json j = parse_json(line, where);  // a key given twice is refused there
      if (!j.is_object()) throw Error(where + ": expected an object {\"words\": ..., \"image\": ..., \"georef\": ..., \"name\": ...}");
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() != "words" && it.key() != "image" && it.key() != "georef" && it.key() != "name")
          throw Error(where + ": unknown key \"" + it.key() + "\" (words, image, georef, name)");
        if (!it.value().is_string()) throw Error(where + ": \"" + it.key() + "\" must be a string");
        row[it.key()] = it.value().get<std::string>();
      }
      if (row.count("name") && row["name"].empty()) throw Error(where + ": \"name\" is empty (leave it out for the words file's name)");
    } else {
      const auto cells = csv_cells(line, where);
      if (columns.empty()) {  // the header
        columns = cells;
        for (size_t k = 0; k < columns.size(); ++k) {
          const std::string& c = columns[k];
          if (c != "words" && c != "image" && c != "georef" && c != "name")
            throw Error(where + ": unknown column \"" + c + "\" (the header names words, image, georef, name)");
          if (std::find(columns.begin(), columns.begin() + static_cast<long>(k), c) != columns.begin() + static_cast<long>(k))
            throw Error(where + ": the column \"" + c + "\" is named twice");
        }
        if (std::find(columns.begin(), columns.end(), "words") == columns.end()) throw Error(where + ": the header needs a \"words\" column");
        continue;
      }
      if (cells.size() != columns.size())
        throw Error(where + ": " + std::to_string(cells.size()) + " cells for " + std::to_string(columns.size()) + " columns");
      for (size_t k = 0; k < cells.size(); ++k) row[columns[k]] = cells[k];
    }
    if (row["words"].empty()) throw Error(where + ": \"words\" is empty");
    MapJob j;
    j.words = resolve(row["words"], base);
    if (fs::is_directory(j.words))
      throw Error(where + ": \"words\" is a folder (" + j.words + "); a manifest row names one words file (give --collection the folder instead)");
    for (const char* key : {"image", "georef"})
      if (row.count(key) && !row[key].empty() && row[key].find_first_not_of(" \t") == std::string::npos)
        throw Error(where + ": \"" + key + "\" is blank");
    j.image = resolve(row["image"], base);
    j.georef = row["georef"] == "none" || row["georef"] == "auto" ? row["georef"] : resolve(row["georef"], base);
    j.name = row["name"].empty() ? fs::path(j.words).stem().string() : row["name"];
    if (j.name.find('/') != std::string::npos || j.name == "." || j.name == "..")
      throw Error(where + ": \"name\" must be a file name, got \"" + j.name + "\"");
    if (std::any_of(j.name.begin(), j.name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
      throw Error(where + ": \"name\" holds a control character (a NUL, a tab, a line break): not a file name");
    jobs.push_back(std::move(j));
  }
  if (jobs.empty()) throw Error(path + ": no map in the manifest (--collection)");
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < jobs.size(); ++i)
    if (!seen.emplace(jobs[i].name, i).second)
      throw Error(path + ": two maps named \"" + jobs[i].name + "\" would write one output; give each a \"name\"");
  return jobs;
}

std::vector<size_t> shard_indices(const std::vector<std::string>& names, const std::string& spec) {
  std::vector<size_t> out;
  if (spec.empty()) {
    for (size_t i = 0; i < names.size(); ++i) out.push_back(i);
    return out;
  }
  const auto slash = spec.find('/');
  long k = 0, n = 0;
  try {
    size_t a = 0, b = 0;
    if (slash == std::string::npos) throw std::invalid_argument(spec);
    k = std::stol(spec.substr(0, slash), &a);
    n = std::stol(spec.substr(slash + 1), &b);
    if (a != slash || b != spec.size() - slash - 1) throw std::invalid_argument(spec);
  } catch (const std::exception&) {
    throw Error("--shard: expected K/N (this machine's share, 1 <= K <= N), got \"" + spec + "\"");
  }
  if (!(n >= 1 && k >= 1 && k <= n)) throw Error("--shard: expected K/N with 1 <= K <= N, got \"" + spec + "\"");
  // By a hash of each map's name, not its place in a listing: a map keeps its shard when maps are
  // added to the folder between the shards' runs (FNV-1a, 64 bits: the same on every machine).
  for (size_t i = 0; i < names.size(); ++i) {
    uint64_t h = 14695981039346656037ull;
    for (const unsigned char c : names[i]) h = (h ^ c) * 1099511628211ull;
    if (h % static_cast<uint64_t>(n) == static_cast<uint64_t>(k - 1)) out.push_back(i);
  }
  return out;
}

std::vector<MapJob> shard(const std::vector<MapJob>& jobs, const std::string& spec) {
  std::vector<std::string> names;
  for (const MapJob& j : jobs) names.push_back(j.name);
  std::vector<MapJob> out;
  for (const size_t i : shard_indices(names, spec)) out.push_back(jobs[i]);
  return out;
}

}  // namespace light::link

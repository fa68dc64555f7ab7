#include "light/maptext.h"

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "light/error.h"
#include "light/util/parallel.h"
#include "light/util/fs.h"
#include "light/util/json.h"

namespace light::maptext {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

size_t Tile::word_count() const {
  size_t n = 0;
  for (const Group& g : groups) n += g.size();
  return n;
}

namespace {

std::string type_of(const json& v) {
  if (v.is_array()) return "a list";
  if (v.is_object()) return "an object";
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number()) return "a number";
  if (v.is_null()) return "null";
  return v.type_name();
}

// Short rendering of a JSON value for error messages.
std::string preview(const json& v) {
  std::string s = v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

// Where an error happened, rendered as `file: image "x", group 3, word 1`.
struct Where {
  const std::string& source;
  std::string image;  // quoted image key, or "image entry N"
  long group = -1;
  long word = -1;

  std::string str() const {
    std::string s = source + ": " + image;
    if (group >= 0) s += ", group " + std::to_string(group);
    if (word >= 0) s += ", word " + std::to_string(word);
    return s;
  }
  [[noreturn]] void fail(const std::string& what) const { throw Error(str() + ": " + what); }
};

const char* kGtWordKeys = "\"vertices\", \"text\", \"illegible\", \"truncated\"";

Word parse_word(const json& w, const Where& at, const ReadOptions& opt) {
  if (!w.is_object()) at.fail("a word must be an object, got " + type_of(w) + " " + preview(w));
  const bool gt = opt.kind == Kind::GroundTruth;
  Word word;
  json extra = json::object();
  bool has_vertices = false;
  for (auto it = w.begin(); it != w.end(); ++it) {
    const std::string& key = it.key();
    const json& v = it.value();
    if (key == "vertices") {
      has_vertices = true;
      if (!v.is_array()) at.fail("\"vertices\" must be a list of [x, y] points, got " + type_of(v));
      if (v.size() < 3)
        at.fail("\"vertices\" needs at least 3 [x, y] points, got " + std::to_string(v.size()));
      word.vertices.reserve(v.size());
      for (size_t k = 0; k < v.size(); ++k) {
        const json& p = v[k];
        // Booleans are not numbers here (Python's isinstance(True, int) would accept them).
        if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
          at.fail("\"vertices\"[" + std::to_string(k) + "] must be [x, y] with two numbers, got " + preview(p));
        word.vertices.push_back({p[0].get<double>(), p[1].get<double>()});
      }
    } else if (key == "text") {
      if (!v.is_string()) at.fail("\"text\" must be a string, got " + type_of(v) + " " + preview(v));
      word.text = v.get<std::string>();
    } else if (key == "illegible" || key == "truncated") {
      if (!v.is_boolean()) at.fail("\"" + key + "\" must be true or false, got " + type_of(v) + " " + preview(v));
      (key == "illegible" ? word.illegible : word.truncated) = v.get<bool>();
    } else {
      extra[key] = v;
    }
  }
  if (!has_vertices) at.fail("missing \"vertices\"");
  if (gt) {
    if (!word.text) at.fail(std::string("missing \"text\" (ground-truth words need ") + kGtWordKeys + ")");
    if (!word.illegible) at.fail(std::string("missing \"illegible\" (ground-truth words need ") + kGtWordKeys + ")");
    if (!word.truncated) at.fail(std::string("missing \"truncated\" (ground-truth words need ") + kGtWordKeys + ")");
  } else if (opt.require_text && !word.text) {
    at.fail("missing \"text\" (recognition tasks need a transcription for every predicted word)");
  }
  if (!extra.empty()) word.extra = extra.dump();
  return word;
}

}  // namespace

namespace {

[[noreturn]] void throw_json_error(const std::string& json_text, const std::string& source) {
  try {
    const json unused = json::parse(json_text);
  } catch (const json::exception& e) {
    std::string msg = e.what();
    const auto p = msg.find("] ");
    if (p != std::string::npos) msg = msg.substr(p + 2);
    throw Error(source + ": not valid JSON: " + msg);
  }
  throw Error(source + ": not valid JSON");
}

// Byte ranges of the elements of a top-level JSON array, found by a scan that tracks strings and
// nesting. Returns false when the text is not a well-formed-looking array (the caller then
// parses it whole, which reports the exact problem).
bool split_top_level_array(const std::string& s, std::vector<std::pair<size_t, size_t>>& out) {
  size_t i = 0;
  const size_t n = s.size();
  auto skip_ws = [&] {
    while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
  };
  skip_ws();
  if (i >= n || s[i] != '[') return false;
  ++i;
  skip_ws();
  if (i < n && s[i] == ']') {
    ++i;
    skip_ws();
    return i == n;
  }
  while (i < n) {
    const size_t begin = i;
    int depth = 0;
    bool in_string = false;
    for (; i < n; ++i) {
      const char c = s[i];
      if (in_string) {
        if (c == '\\') ++i;
        else if (c == '"') in_string = false;
        continue;
      }
      if (c == '"') in_string = true;
      else if (c == '{' || c == '[') ++depth;
      else if (c == '}' || c == ']') {
        if (depth == 0) break;
        --depth;
      } else if (c == ',' && depth == 0) break;
    }
    if (i >= n || depth != 0 || in_string) return false;
    out.emplace_back(begin, i);
    if (s[i] == ']') {
      ++i;
      skip_ws();
      return i == n;
    }
    ++i;  // ','
  }
  return false;
}

Tile parse_tile(const json& entry, size_t t, const std::string& source, const ReadOptions& opt) {
  Where at{source, "image entry " + std::to_string(t)};
  if (!entry.is_object()) at.fail("must be an object {\"image\", \"groups\"}, got " + type_of(entry));
  // Exactly the keys "image" and "groups", as the official evaluator demands.
  const auto img = entry.find("image");
  if (img == entry.end()) at.fail("missing \"image\"");
  if (!img->is_string()) at.fail("\"image\" must be a string, got " + type_of(*img) + " " + preview(*img));
  Tile tile;
  tile.image = img->get<std::string>();
  at.image = "image \"" + tile.image + "\"";
  for (auto it = entry.begin(); it != entry.end(); ++it)
    if (it.key() != "image" && it.key() != "groups")
      at.fail("unknown key \"" + it.key() + "\" (an image entry has exactly \"image\" and \"groups\")");
  const auto groups = entry.find("groups");
  if (groups == entry.end()) at.fail("missing \"groups\"");
  if (!groups->is_array()) at.fail("\"groups\" must be a list of groups, got " + type_of(*groups));
  tile.groups.reserve(groups->size());
  for (size_t g = 0; g < groups->size(); ++g) {
    const json& group = (*groups)[g];
    at.group = static_cast<long>(g);
    at.word = -1;
    if (!group.is_array()) at.fail("a group must be a list of words, got " + type_of(group));
    Group words;
    words.reserve(group.size());
    for (size_t w = 0; w < group.size(); ++w) {
      at.word = static_cast<long>(w);
      words.push_back(parse_word(group[w], at, opt));
    }
    tile.groups.push_back(std::move(words));
  }
  return tile;
}

void check_unique_images(const Dataset& data, const std::string& source) {
  std::unordered_map<std::string, size_t> seen;
  for (size_t t = 0; t < data.size(); ++t) {
    if (auto [pos, inserted] = seen.emplace(data[t].image, t); !inserted)
      throw Error(source + ": image \"" + data[t].image + "\": appears twice (image entries " +
                  std::to_string(pos->second) + " and " + std::to_string(t) + ")");
  }
}

}  // namespace

Dataset parse_maptext(const std::string& json_text, const std::string& source, const ReadOptions& opt) {
  // Parse one image entry at a time (memory stays at one tile's JSON tree), on all cores.
  std::vector<std::pair<size_t, size_t>> spans;
  if (!split_top_level_array(json_text, spans)) {
    json root;
    try {
      root = parse_json(json_text, source);
    } catch (const JsonError& e) {
      if (e.kind == JsonError::Syntax) throw_json_error(json_text, source);  // with the whole file's position
      throw;
    }
    if (!root.is_array())
      throw Error(source + ": the top level must be a list of image entries ({\"image\", \"groups\"}), got " +
                  type_of(root));
    Dataset data;
    for (size_t t = 0; t < root.size(); ++t) data.push_back(parse_tile(root[t], t, source, opt));
    check_unique_images(data, source);
    return data;
  }

  const size_t n = spans.size();
  Dataset data(n);
  // Entries parsed in parallel (64 or more a thread); the first problem in file order is reported,
  // as a sequential reader would.
  const int threads = thread_count(0, (n + 63) / 64);
  try {
    parallel_for(n, threads, [&](size_t t, int) {
      const json entry = parse_json(std::string_view(json_text).substr(spans[t].first, spans[t].second - spans[t].first),
                                    source + ": image entry " + std::to_string(t));
      data[t] = parse_tile(entry, t, source, opt);
    });
  } catch (const JsonError& e) {
    if (e.kind == JsonError::Syntax) throw_json_error(json_text, source);
    throw;
  }
  check_unique_images(data, source);
  return data;
}

Dataset read_maptext(const std::string& path, const ReadOptions& options) {
  return parse_maptext(read_file(path), path, options);
}

std::string to_json_text(const Dataset& data) {
  std::string out = "[\n";
  for (size_t t = 0; t < data.size(); ++t) {
    const Tile& tile = data[t];
    ordered_json jt;
    jt["image"] = tile.image;
    ordered_json groups = ordered_json::array();
    for (const Group& g : tile.groups) {
      ordered_json jg = ordered_json::array();
      for (const Word& w : g) {
        ordered_json jw;
        ordered_json verts = ordered_json::array();
        for (const Point& p : w.vertices) verts.push_back({p.x, p.y});
        jw["vertices"] = std::move(verts);
        if (w.text) jw["text"] = *w.text;
        if (w.illegible) jw["illegible"] = *w.illegible;
        if (w.truncated) jw["truncated"] = *w.truncated;
        if (!w.extra.empty()) {
          const ordered_json extra = ordered_json::parse(w.extra);
          for (auto it = extra.begin(); it != extra.end(); ++it) jw[it.key()] = it.value();
        }
        jg.push_back(std::move(jw));
      }
      groups.push_back(std::move(jg));
    }
    jt["groups"] = std::move(groups);
    out += jt.dump();
    out += (t + 1 < data.size()) ? ",\n" : "\n";
  }
  out += "]\n";
  return out;
}

void write_maptext(const std::string& path, const Dataset& data) { write_file_atomic(path, to_json_text(data)); }

}  // namespace light::maptext

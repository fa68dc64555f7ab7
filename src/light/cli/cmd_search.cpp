// `light search`: place names among linked phrases, tolerant of recognition errors (docs/view-and-search.md).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "light/cli/commands.h"
#include "light/error.h"
#include "light/geometry/polygon.h"
#include "light/search/phrase_index.h"
#include "light/util/fs.h"

namespace light::cli {

namespace {
// Text for a terminal line: control characters (a NUL, which would end the line there, a tab, an
// escape sequence) shown as \xNN.
std::string shown(const std::string& text) {
  std::string out;
  for (const unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02X", c);
      out += b;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

struct SearchArgs {
  std::string query, in, index;
  int max_distance = -1;
  long long limit = 20;
  bool json = false, whole = false, quiet = false;
};

// Vertices are kept as float32 in an index: printed to 1/100 px, not as float32's binary expansion.
double round2(double v) { return std::round(v * 100.0) / 100.0; }

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

void run_index(const SearchArgs& a) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(a.index)) throw Error(a.index + " (--index): expected a folder of linked files");
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> notes;
  const search::PhraseIndex index = search::build_folder_index(a.index, &notes);
  const std::string out = (fs::path(a.index) / search::kIndexFileName).string();
  index.save(out);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!a.quiet) {
    for (const auto& n : notes) std::fprintf(stderr, "note: %s\n", n.c_str());
    std::fprintf(stderr, "search: indexed %zu phrases of %zu file(s) in %.2f s: %s (%.1f MB)\n", index.size(), index.sources().size(), s,
                 out.c_str(), index.bytes() / 1e6);
  }
}

void run_search(const SearchArgs& a) {
  if (a.query.empty()) throw Error("QUERY: give the place name to look for (or --index DIR to build an index)");
  if (a.in.empty()) throw Error("--in: give a linked file, a folder of them or an index");
  if (a.max_distance < -1) throw Error("--max-distance: expected a number of character edits, 0 or more");
  std::vector<std::string> notes;
  const search::PhraseIndex index = search::open_for_search(a.in, &notes);
  if (!a.quiet)
    for (const auto& n : notes) std::fprintf(stderr, "note: %s\n", n.c_str());
  search::FindOptions o;
  o.max_edits = a.max_distance;
  o.parts = !a.whole;
  if (a.limit < 0) throw Error("--limit: expected 0 (all) or a number of matches, got " + std::to_string(a.limit));
  o.limit = static_cast<size_t>(a.limit);
  std::vector<search::Match> matches;
  try {
    matches = index.find(a.query, o);
  } catch (const Error& e) {
    throw Error("QUERY: " + std::string(e.what()));
  }
  if (a.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& m : matches) {
      const search::Phrase p = index.phrase(m.phrase);
      nlohmann::json words = nlohmann::json::array();
      for (const auto& w : p.words) {
        nlohmann::json v = nlohmann::json::array();
        for (const auto& pt : w.vertices) v.push_back({round2(pt.x), round2(pt.y)});
        words.push_back({{"text", w.text}, {"vertices", v}});
      }
      nlohmann::json r = {{"text", p.text()},        {"file", p.file},       {"image", p.image},  {"group", p.group},
                          {"edits", m.edits},         {"distance", m.distance}, {"whole", m.whole}, {"words", words},
                          {"matched_words", {m.first_word, m.last_word}}};
      if (p.lonlat) r["lonlat"] = {p.lonlat->x, p.lonlat->y};
      out.push_back(std::move(r));
    }
    // One match a line: a file that line tools read, and that json parsers read whole.
    std::string text = "[";
    for (size_t i = 0; i < out.size(); ++i) text += (i ? ",\n" : "\n") + out[i].dump();
    std::printf("%s\n", (text + (out.empty() ? "]" : "\n]")).c_str());
    return;
  }
  if (matches.empty()) {
    if (!a.quiet) std::fprintf(stderr, "search: no phrase within %s of \"%s\" among %zu\n",
                               a.max_distance >= 0 ? (std::to_string(a.max_distance) + " edit(s)").c_str() : "the default distance",
                               a.query.c_str(), index.size());
    return;
  }
  for (const auto& m : matches) {
    const search::Phrase p = index.phrase(m.phrase);
    geometry::Polygon all;
    for (const auto& w : p.words) all.insert(all.end(), w.vertices.begin(), w.vertices.end());
    std::string where = p.image + " phrase " + std::to_string(p.group);
    if (!all.empty()) {
      const geometry::BBox b = geometry::bbox(all);
      where += " at x " + fixed(b.x0, 0) + "-" + fixed(b.x1, 0) + ", y " + fixed(b.y0, 0) + "-" + fixed(b.y1, 0);
    }
    if (p.lonlat) where += ", lon " + fixed(p.lonlat->x, 5) + " lat " + fixed(p.lonlat->y, 5);
    std::printf("%-32s %u edit%s%s  %s (%s)\n", ("\"" + shown(p.text()) + "\"").c_str(), m.edits, m.edits == 1 ? "" : "s",
                m.whole ? "" : " (part)", shown(where).c_str(), shown(p.file).c_str());
  }
}
}  // namespace

void add_search_command(CLI::App& app) {
  auto args = std::make_shared<SearchArgs>();
  CLI::App* cmd = app.add_subcommand("search", "Find place names among linked phrases, tolerant of misread letters");
  cmd->add_option("query", args->query, "The place name to look for (\"Lodge Pole Creek\")");
  cmd->add_option("--in", args->in, "A linked file (MapText JSON or light's GeoJSON), a folder of them, or an index");
  cmd->add_option("--index", args->index, "Build DIR/light-search.index over the folder's linked files, then exit");
  cmd->add_option("--max-distance", args->max_distance,
                  "Most character edits a match may have (default: a quarter of the query's letters, at most 3)");
  cmd->add_option("--limit", args->limit, "Most matches shown (0 = all)")->capture_default_str();
  cmd->add_flag("--whole", args->whole, "Whole phrases only (not a run of a phrase's words)");
  cmd->add_flag("--json", args->json, "Matches as JSON: text, file, image, group, edits, distance, words with polygons, lonlat");
  cmd->add_flag("-q,--quiet", args->quiet, "No notes on standard error");
  cmd->callback([args] {
    if (!args->index.empty()) {
      if (!args->query.empty() || !args->in.empty()) throw Error("--index builds an index and takes no QUERY or --in");
      return run_index(*args);
    }
    run_search(*args);
  });
}

}  // namespace light::cli

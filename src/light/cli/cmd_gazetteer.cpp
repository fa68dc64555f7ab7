// `light gazetteer`: build a gazetteer index from GeoNames dumps or a user's places, and look names up
// in it (docs/gazetteer.md).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "light/cli/commands.h"
#include "light/error.h"
#include "light/geo/gazetteer_index.h"
#include "light/geo/read_confusions.h"
#include "light/util/bundled.h"
#include "light/util/fs.h"

namespace light::cli {

std::string default_gazetteer() { return geo::default_gazetteer(executable_dir()); }

std::shared_ptr<const geo::ReadConfusions> read_confusions(const std::string& option) {
  const std::string path = option.empty() ? geo::default_confusions_path(executable_dir()) : option == "none" ? "" : option;
  if (path.empty()) return nullptr;
  return std::make_shared<const geo::ReadConfusions>(geo::ReadConfusions::read(path));
}

namespace {

struct BuildArgs {
  std::vector<std::string> geonames, alternate_names, places;
  std::string out;
  bool overwrite = false, all_scripts = false, quiet = false;
};

struct FindArgs {
  std::string gazetteer, name;
  int max_edits = -1;
  long long limit = 10;
  bool json = false;
};

void run_build(const BuildArgs& a) {
  namespace fs = std::filesystem;
  if (a.out.empty()) throw Error("--out: give the index file to write");
  if (a.geonames.empty() && a.places.empty()) throw Error("give --geonames (GeoNames dumps) or --places (a CSV/TSV of places), or both");
  std::vector<NamedPath> inputs;
  for (const auto& p : a.geonames) inputs.push_back({"--geonames", p});
  for (const auto& p : a.alternate_names) inputs.push_back({"--alternate-names", p});
  for (const auto& p : a.places) inputs.push_back({"--places", p});
  check_output_is_not_input("--out", a.out, inputs);
  if (fs::exists(a.out) && !a.overwrite) throw Error(a.out + " (--out): exists; give --overwrite to replace it");
  if (fs::exists(a.out) && !fs::is_regular_file(a.out)) throw Error(a.out + " (--out): not a file");
  const auto t0 = std::chrono::steady_clock::now();
  geo::GazetteerSources s;
  s.geonames = a.geonames, s.alternate_names = a.alternate_names, s.tables = a.places, s.all_scripts = a.all_scripts;
  const auto say = [&](const std::string& line) {
    if (!a.quiet) std::fprintf(stderr, "gazetteer: %s (%.0f s)\n", line.c_str(),
                               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  };
  const geo::Gazetteer g = geo::Gazetteer::build(s, say);
  check_output_is_not_input("--out", a.out, inputs);
  g.save(a.out);
  const std::string date = g.data_date();
  say(std::to_string(g.size()) + " places, " + std::to_string(g.name_count()) + " names" + (date.empty() ? "" : ", data of " + date) +
      " -> " + a.out + " (" + std::to_string(g.bytes() / 1000000) + " MB)");
}

void run_find(const FindArgs& a) {
  if (a.name.empty()) throw Error("NAME: give the place name to look up");
  if (a.max_edits < -1) throw Error("--max-edits: expected a number of character edits, 0 or more");
  if (a.limit < 0) throw Error("--limit: expected 0 (all) or a number of matches, got " + std::to_string(a.limit));
  const geo::Gazetteer g = geo::Gazetteer::open(a.gazetteer);
  const auto matches = g.find(a.name, a.max_edits, static_cast<size_t>(a.limit));
  nlohmann::json out = nlohmann::json::array();
  for (const auto& m : matches) {
    const geo::Place p = g.place(m.place);
    const geo::PlaceName n = g.name(m.name);
    nlohmann::json r = {{"id", p.id},           {"name", p.name},           {"matched", n.text},   {"edits", m.edits},
                        {"feature_class", p.feature_class}, {"feature_code", p.feature_code}, {"country", p.country},
                        {"lon", p.lon},         {"lat", p.lat},             {"population", p.population}};
    if (!n.about.language.empty()) r["language"] = n.about.language;
    if (n.about.historic) r["historic"] = true;
    if (a.json) {
      out.push_back(std::move(r));
      continue;
    }
    std::printf("%-28s %u edit%s  %s (%s %s, %s) %.5f %.5f pop %lld  geonames %lld\n", ("\"" + n.text + "\"").c_str(), m.edits,
                m.edits == 1 ? "" : "s", p.name.c_str(), p.feature_class.c_str(), p.feature_code.c_str(), p.country.c_str(), p.lon, p.lat,
                static_cast<long long>(p.population), static_cast<long long>(p.id));
  }
  if (a.json) std::printf("%s\n", out.dump(1).c_str());
  else if (matches.empty()) std::fprintf(stderr, "gazetteer: no name near \"%s\" among %zu places\n", a.name.c_str(), g.size());
}

}  // namespace

void add_gazetteer_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("gazetteer", "Build a gazetteer index (GeoNames, your own places) and look names up in it");
  cmd->require_subcommand(1);
  auto b = std::make_shared<BuildArgs>();
  CLI::App* build = cmd->add_subcommand("build", "Index GeoNames dumps and a table of places into one file, mapped when opened");
  build->add_option("--geonames", b->geonames, "GeoNames dumps: a country file (US.txt), allCountries.txt, cities500.txt ...");
  build->add_option("--alternate-names", b->alternate_names, "GeoNames alternateNamesV2.txt (languages, historic names, periods)");
  build->add_option("--places", b->places, "Your own places: CSV or TSV with a header (name, lon, lat; type, id, country optional)");
  build->add_option("-o,--out", b->out, "The index file to write")->required();
  build->add_flag("--overwrite", b->overwrite, "Replace --out when it exists");
  build->add_flag("--all-scripts", b->all_scripts, "Keep names in scripts other than Latin too");
  build->add_flag("-q,--quiet", b->quiet, "No progress on standard error");
  build->callback([b] { run_build(*b); });
  auto f = std::make_shared<FindArgs>();
  CLI::App* find = cmd->add_subcommand("find", "The places whose names lie within a few letters of NAME, best first");
  find->add_option("gazetteer", f->gazetteer, "An index made by `light gazetteer build`")->required();
  find->add_option("name", f->name, "The name to look up (\"Lodge Pole Cr.\")")->required();
  find->add_option("--max-edits", f->max_edits, "Most character edits (default: a quarter of the name's letters, at most 3)");
  find->add_option("--limit", f->limit, "Most places shown (0 = all)")->capture_default_str();
  find->add_flag("--json", f->json, "Matches as JSON");
  find->callback([f] { run_find(*f); });
}

}  // namespace light::cli

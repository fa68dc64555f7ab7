// `light place`: the linked phrases of a map matched to places in a gazetteer (docs/gazetteer.md).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "light/cli/commands.h"
#include "light/error.h"
#include "light/geo/place_matching.h"
#include "light/search/phrase_index.h"
#include "light/util/bundled.h"
#include "light/util/fs.h"

namespace light::cli {

namespace {

struct PlaceArgs {
  std::string linked, gazetteer, out, confusions;
  long long candidates = 5;
  int max_edits = -1;
  bool all = false, quiet = false;
};

nlohmann::ordered_json candidate_json(const geo::PlaceCandidate& c) {
  nlohmann::ordered_json j = {{"id", c.place.id},
                              {"uri", geo::place_uri(c.place)},
                              {"name", c.place.name},
                              {"matched", c.matched},
                              {"edits", c.edits},
                              {"score", std::round(c.score * 1000) / 1000},
                              {"feature_class", c.place.feature_class},
                              {"feature_code", c.place.feature_code},
                              {"country", c.place.country},
                              {"lon", c.place.lon},
                              {"lat", c.place.lat},
                              {"population", c.place.population}};
  if (c.historic) j["historic"] = true;
  return j;
}

void run_place(const PlaceArgs& a) {
  if (a.candidates < 1) throw Error("--candidates: expected 1 or more, got " + std::to_string(a.candidates));
  if (a.max_edits < -1) throw Error("--max-edits: expected a number of character edits, 0 or more");
  const std::string gazetteer_path = a.gazetteer.empty() ? default_gazetteer() : a.gazetteer;
  if (!a.out.empty())
    check_output_is_not_input("-o/--out", a.out, {{"LINKED", a.linked}, {"--gazetteer", gazetteer_path}, {"--confusions", a.confusions}});
  const auto phrases = search::read_linked_phrases(a.linked);
  if (!phrases) throw Error(a.linked + ": not a linked file (MapText JSON or light's GeoJSON)");
  const geo::Gazetteer g = geo::Gazetteer::open(gazetteer_path);
  std::vector<std::string> texts;
  for (const auto& p : *phrases) texts.push_back(p.text());
  geo::MatchOptions o;
  o.candidates = static_cast<size_t>(a.candidates);
  o.max_edits = a.max_edits;
  const auto confusions = read_confusions(a.confusions);
  o.confusions = confusions.get();
  const std::vector<geo::PhrasePlaces> matched = geo::match_places(g, texts, o);
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  size_t with = 0, accepted = 0;
  for (size_t k = 0; k < matched.size(); ++k) {
    const geo::PhrasePlaces& m = matched[k];
    with += !m.candidates.empty(), accepted += m.accepted;
    if (m.candidates.empty() && !a.all) continue;
    nlohmann::ordered_json r = {{"image", (*phrases)[k].image}, {"group", (*phrases)[k].group}, {"text", m.text}};
    if (m.query != m.text) r["query"] = m.query;
    if (!m.implied_class.empty()) r["implied_class"] = m.implied_class;
    r["accepted"] = m.accepted;
    r["candidates"] = nlohmann::ordered_json::array();
    for (const auto& c : m.candidates) r["candidates"].push_back(candidate_json(c));
    out.push_back(std::move(r));
    if (a.out.empty() && !m.candidates.empty()) {
      const geo::PlaceCandidate& c = m.candidates[0];
      std::printf("%-30s %s %s (%s %s, %s) %.5f %.5f score %.2f\n", ("\"" + m.text + "\"").c_str(), m.accepted ? "=" : "?", c.place.name.c_str(),
                  c.place.feature_class.c_str(), c.place.feature_code.c_str(), c.place.country.c_str(), c.place.lon, c.place.lat, c.score);
    }
  }
  if (!a.out.empty()) {
    check_output_is_not_input("-o/--out", a.out, {{"LINKED", a.linked}, {"--gazetteer", gazetteer_path}});
    write_file_atomic(a.out, out.dump(1) + "\n");
  }
  if (!a.quiet)
    std::fprintf(stderr, "place: %zu phrases, %zu with candidates, %zu accepted (%s, %zu places)\n", matched.size(), with, accepted,
                 gazetteer_path.c_str(), g.size());
}

}  // namespace

void add_place_command(CLI::App& app) {
  auto a = std::make_shared<PlaceArgs>();
  CLI::App* cmd = app.add_subcommand("place", "Match a map's linked phrases to places in a gazetteer");
  cmd->add_option("linked", a->linked, "A linked file (MapText JSON or light's GeoJSON)")->required();
  cmd->add_option("--gazetteer", a->gazetteer, "An index made by `light gazetteer build` (default: GeoNames cities500)");
  cmd->add_option("-o,--out", a->out, "JSON: each phrase's candidate places, best first, and whether the best is accepted");
  cmd->add_option("--candidates", a->candidates, "Candidates kept a phrase")->capture_default_str();
  cmd->add_option("--max-edits", a->max_edits, "Most character edits (default: a quarter of the phrase's letters, at most 3)");
  cmd->add_option("--confusions", a->confusions,
                  "The spotter's misreadings that cost less (printed, read, cost rows; none: every one an edit; default: the bundled spotter's)");
  cmd->add_flag("--all", a->all, "Also list the phrases without a candidate");
  cmd->add_flag("-q,--quiet", a->quiet, "No summary on standard error");
  cmd->callback([a] { run_place(*a); });
}

}  // namespace light::cli

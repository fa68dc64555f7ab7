// The gazetteer index (`light gazetteer`): opening the default cities500 index (199,568 places,
// 587,112 names; built by scripts/fetch-gazetteer.sh, or $LIGHT_GAZETTEER), exact look-ups of
// normalised names, and finds of names as a map writes them, exactly and with two letters misread.
// docs/gazetteer.md holds the numbers.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <random>

#include "light/geo/gazetteer_index.h"
#include "light/geo/map_names.h"
#include "light/geo/point_transforms.h"
#include "light/search/normalize.h"

using namespace light;

namespace {
std::string path() {
  if (const char* env = std::getenv("LIGHT_GAZETTEER"); env && *env) return env;
  return std::string(LIGHT_SOURCE_DIR) + "/gazetteers/cities500/cities500.gaz";
}

const geo::Gazetteer* gazetteer() {
  static const std::unique_ptr<geo::Gazetteer> g =
      std::filesystem::exists(path()) ? std::make_unique<geo::Gazetteer>(geo::Gazetteer::open(path())) : nullptr;
  return g.get();
}

// 1,000 places' names as written, drawn once.
const std::vector<std::string>& names() {
  static const std::vector<std::string> out = [] {
    std::vector<std::string> v;
    std::mt19937_64 rng(5);
    for (int i = 0; i < 1000; ++i) v.push_back(gazetteer()->place(static_cast<uint32_t>(rng() % gazetteer()->size())).name);
    return v;
  }();
  return out;
}

bool ready(benchmark::State& state) {
  if (gazetteer()) return true;
  state.SkipWithError((path() + ": not built (bash scripts/fetch-gazetteer.sh)").c_str());
  return false;
}

void BM_OpenIndex(benchmark::State& state) {
  if (!ready(state)) return;
  for (auto _ : state) {
    const geo::Gazetteer g = geo::Gazetteer::open(path());
    benchmark::DoNotOptimize(g.size());
  }
  state.counters["places"] = static_cast<double>(gazetteer()->size());
  state.counters["MB"] = static_cast<double>(gazetteer()->bytes()) / 1e6;
}
BENCHMARK(BM_OpenIndex)->Unit(benchmark::kMillisecond);

void BM_ExactLookup(benchmark::State& state) {
  if (!ready(state)) return;
  std::vector<std::string> keys;
  for (const auto& n : names()) keys.push_back(search::normalize(n));
  size_t i = 0, hits = 0;
  for (auto _ : state) hits += gazetteer()->exact(keys[i++ % keys.size()]).size();
  state.counters["lookups/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  benchmark::DoNotOptimize(hits);
}
BENCHMARK(BM_ExactLookup);

// Arg 0: the names as written (normalised, found exactly, then within the default edits); arg 2: two
// letters of each replaced.
void BM_Find(benchmark::State& state) {
  if (!ready(state)) return;
  std::vector<std::string> queries = names();
  std::mt19937_64 rng(9);
  for (auto& q : queries)
    for (int k = 0, tries = 0; k < state.range(0) && q.size() > 2 && tries < 100; ++tries) {
      const size_t at = 1 + rng() % (q.size() - 2);
      if (static_cast<unsigned char>(q[at]) < 128 && q[at] != 'x') q[at] = 'x', ++k;  // ASCII letters only: the text stays UTF-8
    }
  size_t i = 0, hits = 0;
  for (auto _ : state) hits += gazetteer()->find(queries[i++ % queries.size()], -1, 5).size();
  state.counters["finds/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  benchmark::DoNotOptimize(hits);
}
BENCHMARK(BM_Find)->Arg(0)->Arg(2);

// A map of 10,000 words (6,000 phrases of one to three words): the 60 largest places within 300 km of
// Leeds where they lie (30 m a pixel, 20,000 px square) and 5,940 names of places from anywhere at
// random spots; every phrase matched, the map placed by its names.
void BM_MatchAndGeoreferenceAMapOf10000Words(benchmark::State& state) {
  if (!ready(state)) return;
  const geo::Gazetteer& g = *gazetteer();
  const double lon0 = -1.55, lat0 = 53.8, metres_per_px = 30.0, side = 20000;
  std::vector<std::pair<int64_t, uint32_t>> near;
  for (uint32_t k = 0; k < g.size(); ++k) {
    const geo::Place p = g.place(k);
    if (geo::great_circle_metres(lon0, lat0, p.lon, p.lat) < 280000) near.push_back({-p.population, k});
  }
  std::sort(near.begin(), near.end());
  near.resize(std::min<size_t>(near.size(), 60));
  std::mt19937_64 rng(9);
  std::vector<search::Phrase> phrases;
  size_t words = 0;
  const auto add = [&](const std::string& name, double x, double y) {
    search::Phrase p;
    p.image = "map.png", p.group = static_cast<uint32_t>(phrases.size());
    double at = x;
    for (const auto& w : {name}) {
      search::PhraseWord word;
      word.text = w;
      const double len = 12.0 * static_cast<double>(w.size());
      word.vertices = {{at, y - 10}, {at + len, y - 10}, {at + len, y + 10}, {at, y + 10}};
      p.words.push_back(word);
      at += len + 6;
    }
    words += static_cast<size_t>(1 + std::count(name.begin(), name.end(), ' '));
    phrases.push_back(std::move(p));
  };
  for (const auto& [pop, k] : near) {
    const geo::Place p = g.place(k);
    const geo::PlanePoint e = geo::azimuthal_equidistant(lon0, lat0, p.lon, p.lat);
    add(p.name, side / 2 + e.x / metres_per_px + 8, side / 2 - e.y / metres_per_px);
  }
  while (words < 10000) add(g.place(static_cast<uint32_t>(rng() % g.size())).name, static_cast<double>(rng() % 19000), static_cast<double>(rng() % 19900));
  size_t placed = 0;
  for (auto _ : state) {
    const geo::MapNames m = geo::match_map_names("map.png", phrases, static_cast<int>(side), static_cast<int>(side), g, true);
    placed = m.result.gcps.size();
  }
  state.counters["phrases"] = static_cast<double>(phrases.size());
  state.counters["words"] = static_cast<double>(words);
  state.counters["names_agreeing"] = static_cast<double>(placed);
}
BENCHMARK(BM_MatchAndGeoreferenceAMapOf10000Words)->Unit(benchmark::kSecond)->Iterations(1);
}  // namespace
BENCHMARK_MAIN();

// The gazetteer index (`light gazetteer`): opening the default cities500 index (199,568 places,
// 587,112 names; built by scripts/fetch-gazetteer.sh, or $LIGHT_GAZETTEER), exact look-ups of
// normalised names, and finds of names as a map writes them, exactly and with two letters misread.
// docs/gazetteer.md holds the numbers.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "light/geo/gazetteer_index.h"
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
}  // namespace
BENCHMARK_MAIN();

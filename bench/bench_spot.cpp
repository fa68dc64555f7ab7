// Spotting: one 2000 x 2000 synthetic tile of about 180 words (the tile of bench_link), model loading
// excluded, by the bundled spotter (models/spotter, or $LIGHT_SPOTTER); Arg = LibTorch threads. And the
// whole map of bench_link (15,000 x 12,000 px, about 10,000 words) by `light spot` end to end, its peak
// memory the child process's. BM_SpotTile's second Arg: 1 with the turned pass (the default), 0
// upright only (`light spot --upright`). docs/spotter.md holds the numbers.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "bench_util.h"
#include "light/spot/spotter.h"

using namespace light;

namespace {
const bench::SynthTile& tile() {
  static const bench::SynthTile t = bench::synth_tile(1.6, 11);
  return t;
}

std::string spotter_dir() {
  if (const char* env = std::getenv("LIGHT_SPOTTER"); env && *env) return env;
  return std::string(LIGHT_SOURCE_DIR) + "/models/spotter";
}

void BM_SpotTile(benchmark::State& state) {
  model::PredictorOptions runtime;
  runtime.threads = static_cast<int>(state.range(0));
  spot::SpotOptions options;
  if (state.range(1) == 0) options.switch_off(spot::Stage::turned);
  spot::Spotter spotter(spotter_dir(), runtime, options);
  size_t words = 0;
  for (auto _ : state) words = spotter.spot(tile().rgb).size();
  state.counters["words_found"] = static_cast<double>(words);
  state.counters["words_drawn"] = static_cast<double>(tile().tile.word_count());
  state.counters["peak_MiB"] = bench::peak_rss_mib();
}

void BM_SpotWholeMap(benchmark::State& state) {
  const std::string dir = bench::whole_map(LIGHT_BINARY);
  if (dir.empty()) {
    state.SkipWithError("light synth failed");
    return;
  }
  const std::string cmd = std::string(LIGHT_BINARY) + " spot --images '" + dir + "/images' -o '" + dir + "/spotted.json' --threads 2 -q";
  if (!bench::run_command_iterations(state, cmd)) return;
}
}  // namespace

BENCHMARK(BM_SpotTile)->Args({1, 1})->Args({2, 1})->Args({2, 0})->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_SpotWholeMap)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

int main(int argc, char** argv) { return bench::run_benchmarks(argc, argv); }

// `light synth` speed: one 2000 x 2000 tile (background, lettering, degradations, PNG encoding).
#include <benchmark/benchmark.h>

#include "light/data/synth/synth.h"

using namespace light;

namespace {
void BM_SynthTile(benchmark::State& state) {
  const synth::Gazetteer names(synth::Gazetteer::default_path());
  synth::SynthOptions opt;
  opt.width = opt.height = static_cast<int>(state.range(0));
  uint64_t index = 0;
  size_t words = 0;
  for (auto _ : state) {
    synth::SynthImage img;
    words += generate_tile(names, opt, index++, "t.png", &img).word_count();
    benchmark::DoNotOptimize(synth::encode_png(img));
  }
  state.counters["words/tile"] = static_cast<double>(words) / state.iterations();
  state.counters["tiles/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SynthTile)->Arg(2000)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(5.0);
}  // namespace

BENCHMARK_MAIN();

// `light synth` speed: one 2000 x 2000 tile (background, lettering, degradations, PNG encoding), of
// each map style on one thread; and sets of 2000 px tiles of every style written to disk on 2 threads
// (`light synth --size 2000 --threads 2`).
#include <benchmark/benchmark.h>

#include <filesystem>

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

void BM_SynthStyle(benchmark::State& state) {
  const synth::Gazetteer names(synth::Gazetteer::default_path());
  synth::SynthOptions opt;
  opt.map_style = static_cast<synth::MapStyle>(state.range(0));
  state.SetLabel(synth::map_style_name(opt.map_style));
  uint64_t index = 0;
  for (auto _ : state) {
    synth::SynthImage img;
    generate_tile(names, opt, index++, "t.png", &img);
    benchmark::DoNotOptimize(synth::encode_png(img));
  }
  state.counters["tiles/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SynthStyle)->DenseRange(0, 4)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);

// 8 tiles of 2000 px, every style, word heights drawn, written as PNG on 2 threads.
void BM_SynthSetTwoThreads(benchmark::State& state) {
  const synth::Gazetteer names(synth::Gazetteer::default_path());
  synth::SynthOptions opt;
  opt.vary_style = opt.vary_height = opt.vary_density = true;
  const std::string dir = (std::filesystem::temp_directory_path() / "light_bench_synth").string();
  size_t tiles = 0;
  for (auto _ : state) {
    std::filesystem::remove_all(dir);
    opt.seed = tiles;
    tiles += synth::synthesize(names, opt, dir, 8, 2, false).size();
  }
  std::filesystem::remove_all(dir);
  state.counters["tiles/s"] = benchmark::Counter(static_cast<double>(tiles), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SynthSetTwoThreads)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(10.0);
}  // namespace

BENCHMARK_MAIN();

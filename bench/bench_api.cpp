// The public API (include/light/light.h) linking one 2000 x 2000 tile of `light synth` (density 1.6,
// seed 11: about 180 words) with the bundled model, loaded once: from the image file (decoding
// included) and from pixels already decoded. Arg = LibTorch threads. bench/bench_python.py times the
// same calls through `import light`; docs/python.md compares them (the Python call's overhead).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "bench_util.h"
#include "light/light.h"

namespace {
// The tile's folder (annotations.json, its image), made once by `light synth`.
std::string tile_dir() {
  const std::string dir = std::string(LIGHT_BINARY_DIR) + "/bench-data/api-tile";
  if (!std::filesystem::exists(dir + "/annotations.json"))
    if (std::system((std::string(LIGHT_BINARY) + " synth --count 1 --size 2000 --density 1.6 --seed 11 --layouts default --threads 2 -q --out " +
                     dir).c_str()) != 0)
      return "";
  return dir;
}

void api_link(benchmark::State& state, bool from_pixels) {
  const std::string dir = tile_dir();
  if (dir.empty() || light::default_model().empty()) {
    state.SkipWithError("no tile or no bundled model");
    return;
  }
  const auto words = light::maptext::read_maptext(dir + "/annotations.json", {light::maptext::Kind::GroundTruth});
  const std::string image = light::find_tile_image(dir, words[0].image);
  light::LinkByModelOptions o;
  o.threads = static_cast<int>(state.range(0));
  light::Linker linker("", o);
  const light::Image pixels = light::read_image(image);
  for (auto _ : state) {
    if (from_pixels)
      benchmark::DoNotOptimize(linker.link_pixels(words[0], pixels));
    else
      benchmark::DoNotOptimize(linker.link_file(words[0], image));
  }
  state.counters["words"] = static_cast<double>(words[0].word_count());
}
void BM_ApiLinkTileFromFile(benchmark::State& s) { api_link(s, false); }
void BM_ApiLinkTileFromPixels(benchmark::State& s) { api_link(s, true); }
}  // namespace

BENCHMARK(BM_ApiLinkTileFromFile)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);
BENCHMARK(BM_ApiLinkTileFromPixels)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);

int main(int argc, char** argv) { return light::bench::run_benchmarks(argc, argv); }

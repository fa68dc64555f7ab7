// The public API (include/light/light.h) linking one 2000 x 2000 tile of `light synth` (density 1.6,
// seed 11: about 180 words) with the bundled model, loaded once: from the image file (decoding
// included) and from pixels already decoded. Arg = LibTorch threads. bench/bench_python.py times the
// same calls through `import light`; docs/python.md compares them (the Python call's overhead).
//
// `bench_api --serve`: one C++ process kept alive beside the Python one, so that the two take turns
// call by call (the machine's speed drifts over seconds): it reads lines "file|pixels THREADS" on
// stdin, links the tile once that way (each thread count with its own Linker, made on first use) and
// prints the call's milliseconds; "quit" or the end of stdin ends it.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
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

namespace {
int serve() {
  const std::string dir = tile_dir();
  if (dir.empty() || light::default_model().empty()) {
    std::cerr << "bench_api --serve: no tile or no bundled model\n";
    return 1;
  }
  const auto words = light::maptext::read_maptext(dir + "/annotations.json", {light::maptext::Kind::GroundTruth});
  const std::string image = light::find_tile_image(dir, words[0].image);
  const light::Image pixels = light::read_image(image);
  std::map<int, std::unique_ptr<light::Linker>> linkers;
  std::cout << "ready" << std::endl;
  for (std::string line; std::getline(std::cin, line) && line != "quit";) {
    std::istringstream in(line);
    std::string how;
    int threads = 0;
    if (!(in >> how >> threads) || (how != "file" && how != "pixels") || threads < 1) {
      std::cerr << "bench_api --serve: expected \"file|pixels THREADS\", got \"" << line << "\"\n";
      return 2;
    }
    auto& linker = linkers[threads];
    if (!linker) {
      light::LinkByModelOptions o;
      o.threads = threads;
      linker = std::make_unique<light::Linker>("", o);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const auto out = how == "file" ? linker->link_file(words[0], image) : linker->link_pixels(words[0], pixels);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    benchmark::DoNotOptimize(out);
    std::cout << ms << std::endl;
  }
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--serve") == 0) return serve();
  return light::bench::run_benchmarks(argc, argv);
}

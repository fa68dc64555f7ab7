// Linking one 2000 x 2000 synthetic tile of about 180 words (`light synth`'s first style, density
// 1.6), start-up and model loading excluded: the bundled model (models/light-small, or $LIGHT_MODEL:
// scale windows, pairwise head) against the two heuristics. Arg = threads (LibTorch's for the model;
// the heuristics link one tile on one thread). And a whole map, 15,000 x 12,000 px with about 10,000
// words, linked by the `light link` command end to end (start-up, image decoding and writing
// included), its peak memory the child process's. docs/performance.md holds the numbers.
#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "bench_util.h"
#include "light/image/resize.h"
#include "light/link/default_model.h"
#include "light/link/heuristic_linking.h"
#include "light/link/model_linking.h"

using namespace light;

namespace {
const bench::SynthTile& tile() {
  static const bench::SynthTile t = bench::synth_tile(1.6, 11);  // the tile of bench_model
  return t;
}

std::string model_dir() {
  if (const char* env = std::getenv("LIGHT_MODEL"); env && *env) return env;
  return std::string(LIGHT_SOURCE_DIR) + "/models/" + link::kDefaultModelName;
}

void BM_LinkTileDefaultModel(benchmark::State& state) {
  if (!std::filesystem::exists(model_dir() + "/config.json")) {
    state.SkipWithError(("no model at " + model_dir()).c_str());
    return;
  }
  link::ModelLinkOptions o;
  o.threads = static_cast<int>(state.range(0));
  link::ModelLinker linker(model_dir(), o);
  link::ModelLinkReport r;
  for (auto _ : state) benchmark::DoNotOptimize(linker.link(tile().tile, tile().rgb, r));
  state.counters["words"] = static_cast<double>(tile().tile.word_count());
  state.counters["windows_per_tile"] = r.tiles ? static_cast<double>(r.windowed_tiles) / static_cast<double>(r.tiles) : 0;
}

void heuristic(benchmark::State& state, baselines::Method method) {
  link::HeuristicOptions o;
  o.method = method;
  o.threads = 1;
  const maptext::Dataset one{tile().tile};
  for (auto _ : state) benchmark::DoNotOptimize(link::link_heuristic(one, o));
  state.counters["words"] = static_cast<double>(tile().tile.word_count());
}
void BM_LinkTileDistance(benchmark::State& s) { heuristic(s, baselines::Method::Distance); }

// `light link ARGS` on the whole map, once per iteration; counters: words, peak memory (MiB).
void whole_map_link(benchmark::State& state, const std::string& args) {
  const std::string dir = bench::whole_map(LIGHT_BINARY);
  if (dir.empty()) {
    state.SkipWithError("light synth failed");
    return;
  }
  const auto data = maptext::read_maptext(dir + "/annotations.json", {maptext::Kind::GroundTruth});
  const std::string cmd = std::string(LIGHT_BINARY) + " link " + args + " --words '" + dir + "/annotations.json' --images '" + dir +
                          "/images' -o '" + dir + "/linked.json' --threads 2 -q";
  if (!bench::run_command_iterations(state, cmd)) return;
  state.counters["words"] = static_cast<double>(data[0].word_count());
}
void BM_LinkWholeMapDefaultModel(benchmark::State& s) { whole_map_link(s, ""); }
void BM_LinkWholeMapDistance(benchmark::State& s) { whole_map_link(s, "--method distance"); }
void BM_LinkWholeMapMst(benchmark::State& s) { whole_map_link(s, "--method mst"); }
void BM_LinkTileMst(benchmark::State& s) { heuristic(s, baselines::Method::Mst); }
}  // namespace

BENCHMARK(BM_LinkTileDefaultModel)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_LinkTileDistance)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LinkTileMst)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LinkWholeMapDefaultModel)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_LinkWholeMapDistance)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_LinkWholeMapMst)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(3);
int main(int argc, char** argv) { return bench::run_benchmarks(argc, argv); }

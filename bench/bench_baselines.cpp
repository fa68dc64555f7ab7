// Heuristic linkers on one tile of 200, 1,000 and 5,000 words (features + links + cuts + phrases).
// Word density stays map-like: the tile grows with the word count (2000 px side at 200 words).
#include <benchmark/benchmark.h>

#include <cmath>

#include "bench_util.h"
#include "light/link/heuristic_linking.h"

using namespace light;

namespace {
void run(benchmark::State& state, baselines::Method method) {
  const int n = static_cast<int>(state.range(0));
  const auto tile = bench::make_eval_data(1, n, 7, 2000.0 * std::sqrt(n / 200.0)).gt[0];
  link::HeuristicOptions opt;
  opt.method = method;
  size_t groups = 0;
  for (auto _ : state) groups = link::link_tile_heuristic(tile, opt).groups.size();
  state.counters["phrases"] = static_cast<double>(groups);
  state.counters["words/s"] = benchmark::Counter(static_cast<double>(n) * state.iterations(), benchmark::Counter::kIsRate);
}
void BM_LinkMst(benchmark::State& state) { run(state, baselines::Method::Mst); }
void BM_LinkDistance(benchmark::State& state) { run(state, baselines::Method::Distance); }
BENCHMARK(BM_LinkMst)->Arg(200)->Arg(1000)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LinkDistance)->Arg(200)->Arg(1000)->Arg(5000)->Unit(benchmark::kMillisecond);
}  // namespace

BENCHMARK_MAIN();

// `light eval` speed: 700 tiles of 200 words (the MapText test split's size, denser), detrecedges.
//   build/bench_eval                      (all)
//   build/bench_eval --benchmark_filter=File
#include <benchmark/benchmark.h>

#include <filesystem>
#include <thread>

#include "bench_util.h"
#include "light/eval/evaluator.h"
#include "light/maptext.h"

using namespace light;

namespace {
const bench::SynthPair& data() {
  static const bench::SynthPair d = bench::make_eval_data(700, 200, 42);
  return d;
}

void BM_EvaluateInMemory(benchmark::State& state) {
  const auto& d = data();
  eval::Options opt;
  opt.task = eval::Task::DetRecEdges;
  opt.threads = static_cast<int>(state.range(0));
  double hmean = 0;
  for (auto _ : state) hmean = eval::evaluate(d.gt, d.pred, opt).overall[5].second;
  state.counters["hmean"] = hmean;
  state.counters["tiles/s"] = benchmark::Counter(700.0 * state.iterations(), benchmark::Counter::kIsRate);
  state.counters["peak_MiB"] = bench::peak_rss_mib();
}
BENCHMARK(BM_EvaluateInMemory)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// What `light eval` does end to end: parse and validate both files, then evaluate (2 threads).
void BM_EvalFiles(benchmark::State& state) {
  const auto& d = data();
  const auto dir = std::filesystem::temp_directory_path() / "light_bench_eval";
  std::filesystem::create_directories(dir);
  const std::string gt = (dir / "gt.json").string(), pred = (dir / "pred.json").string();
  maptext::write_maptext(gt, d.gt);
  maptext::write_maptext(pred, d.pred);
  eval::Options opt;
  opt.task = eval::Task::DetRecEdges;
  opt.threads = 2;
  for (auto _ : state) {
    const auto g = maptext::read_maptext(gt, {maptext::Kind::GroundTruth});
    const auto p = maptext::read_maptext(pred, {maptext::Kind::Predictions, true});
    benchmark::DoNotOptimize(eval::evaluate(g, p, opt));
  }
  state.counters["file_MiB"] = std::filesystem::file_size(gt) / 1048576.0;
  state.counters["peak_MiB"] = bench::peak_rss_mib();
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_EvalFiles)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
}  // namespace

BENCHMARK_MAIN();

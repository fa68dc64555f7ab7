// `light view`: cutting a map into its Deep Zoom pyramid (a 4000 x 3000 and an 8000 x 6000 px image,
// JPEG tiles of quality 85), and the page's data for a tile of 200 and 2,000 words with ground truth
// (the evaluator's verdicts included).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <random>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "bench_util.h"
#include "light/util/fs.h"
#include "light/view/pyramid.h"
#include "light/view/view.h"

using namespace light;

namespace {

void BM_Pyramid(benchmark::State& state) {
  const int w = static_cast<int>(state.range(0)), h = w * 3 / 4;
  const auto dir = std::filesystem::temp_directory_path() / ("light-bench-view-" + std::to_string(w));
  std::filesystem::create_directories(dir);
  // A map-like image: paper with lines and noise (JPEG tiles of a flat colour would be unfairly small).
  cv::Mat img(h, w, CV_8UC3, cv::Scalar(200, 225, 240));
  cv::Mat noise(h, w, CV_8UC3);
  cv::randn(noise, cv::Scalar(0, 0, 0), cv::Scalar(12, 12, 12));
  img += noise;
  std::mt19937 rng(3);
  for (int k = 0; k < 400; ++k)
    cv::line(img, {static_cast<int>(rng() % w), static_cast<int>(rng() % h)}, {static_cast<int>(rng() % w), static_cast<int>(rng() % h)},
             cv::Scalar(60, 60, 60), 2);
  cv::imwrite((dir / "map.jpg").string(), img, {cv::IMWRITE_JPEG_QUALITY, 92});
  size_t tiles = 0;
  for (auto _ : state) {
    remove_tree((dir / "tiles").string());
    tiles = view::write_pyramid((dir / "map.jpg").string(), (dir / "tiles").string()).tiles;
  }
  uintmax_t bytes = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir / "tiles")) bytes += e.is_regular_file() ? e.file_size() : 0;
  state.counters["tiles"] = static_cast<double>(tiles);
  state.counters["tiles_MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["peak_rss_MiB"] = bench::peak_rss_mib();
  remove_tree(dir.string());
}
BENCHMARK(BM_Pyramid)->Arg(4000)->Arg(8000)->Unit(benchmark::kSecond)->Iterations(1);

void BM_PageData(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto data = bench::make_eval_data(1, n, 3, 2000.0 * std::sqrt(n / 200.0));
  view::ViewOptions o;
  o.gt = &data.gt;
  view::Pyramid p;
  p.width = p.height = 4000, p.max_level = 12;
  size_t bytes = 0;
  for (auto _ : state) bytes = view::view_data_json(data.pred, {p}, o).size();
  state.counters["data_MB"] = static_cast<double>(bytes) / 1e6;
}
BENCHMARK(BM_PageData)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

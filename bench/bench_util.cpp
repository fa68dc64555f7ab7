#include <cstdlib>
#include <filesystem>
#include <unistd.h>
#include <sys/wait.h>
#include "bench_util.h"

#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <cmath>
#include <random>

#include "light/util/blas.h"

namespace light::bench {

namespace {
maptext::Word make_word(double x, double y, double w, double h, double angle, const std::string& text) {
  maptext::Word word;
  const double c = std::cos(angle), s = std::sin(angle);
  auto at = [&](double u, double v) { return geometry::Point{x + u * c - v * s, y + u * s + v * c}; };
  for (int k = 0; k < 8; ++k) word.vertices.push_back(at(w * k / 7.0, h));      // baseline, left to right
  for (int k = 7; k >= 0; --k) word.vertices.push_back(at(w * k / 7.0, 0.0));  // top, right to left
  word.text = text;
  word.illegible = false;
  word.truncated = false;
  return word;
}
}  // namespace

SynthPair make_eval_data(int tiles, int words, uint64_t seed, double canvas) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> pos(0, canvas - 100), unit(0, 1), jit(-3, 3);
  SynthPair out;
  for (int t = 0; t < tiles; ++t) {
    maptext::Tile g{"synth/tile_" + std::to_string(t) + ".png", {}}, p{g.image, {}};
    int made = 0;
    while (made < words) {
      const int len = std::min(words - made, 1 + static_cast<int>(rng() % 4));
      double x = pos(rng), y = pos(rng);
      const double angle = (unit(rng) < 0.7) ? 0.0 : (unit(rng) - 0.5) * 1.2, h = 15 + 25 * unit(rng);
      maptext::Group gg, pg;
      for (int k = 0; k < len; ++k) {
        const int letters = 2 + static_cast<int>(rng() % 9);
        std::string text;
        for (int c = 0; c < letters; ++c) text.push_back(static_cast<char>('a' + rng() % 26));
        const double w = letters * h * 0.6;
        gg.push_back(make_word(x, y, w, h, angle, text));
        // A spotter's polygon: the word shifted and stretched a little (vertices stay in order).
        maptext::Word pw = gg.back();
        const double dx = jit(rng), dy = jit(rng), sx = 1 + jit(rng) / 60, sy = 1 + jit(rng) / 30;
        const double cx = pw.vertices[0].x, cy = pw.vertices[0].y;
        for (auto& v : pw.vertices) {
          v.x = cx + (v.x - cx) * sx + dx;
          v.y = cy + (v.y - cy) * sy + dy;
        }
        if (unit(rng) < 0.2) (*pw.text)[0] = 'z';
        pg.push_back(pw);
        x += (w + h * 0.5) * std::cos(angle);
        y += (w + h * 0.5) * std::sin(angle);
      }
      g.groups.push_back(gg);
      if (len > 1 && unit(rng) < 0.1) {
        p.groups.push_back(maptext::Group(pg.begin(), pg.begin() + 1));
        p.groups.push_back(maptext::Group(pg.begin() + 1, pg.end()));
      } else {
        p.groups.push_back(pg);
      }
      made += len;
    }
    out.gt.push_back(std::move(g));
    out.pred.push_back(std::move(p));
  }
  return out;
}

SynthTile synth_tile(double density, uint64_t seed) {
  const synth::Gazetteer names(synth::Gazetteer::default_path());
  synth::SynthOptions opt;
  opt.density = density;
  SynthTile t;
  t.tile = synth::generate_tile(names, opt, seed, "t.png", &t.image);
  t.rgb = {t.image.width, t.image.height, {}};
  t.rgb.rgb.resize(t.image.bgr.size());
  for (size_t i = 0; i < t.image.bgr.size(); i += 3)
    t.rgb.rgb[i] = t.image.bgr[i + 2], t.rgb.rgb[i + 1] = t.image.bgr[i + 1], t.rgb.rgb[i + 2] = t.image.bgr[i];
  return t;
}

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024.0;
}

int run_benchmarks(int argc, char** argv) {
  ensure_fast_blas(argv);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

std::string whole_map(const std::string& light_binary) {
  const std::string dir = (std::filesystem::temp_directory_path() / "light-bench-map").string();
  if (!std::filesystem::exists(dir + "/annotations.json") &&
      std::system((light_binary + " synth --count 1 --size 15000x12000 --seed 2202 --word-height 0.0015-0.0022 --density 3.8 "
                   "--overwrite -q --out '" + dir + "'").c_str()) != 0)
    return "";
  return dir;
}

long run_measuring_peak_kib(const std::string& cmd) {
  // wait4 gives this child's own peak memory (RUSAGE_CHILDREN would hold earlier children too).
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage u{};
  if (pid < 0 || wait4(pid, &status, 0, &u) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return u.ru_maxrss;
}

bool run_command_iterations(benchmark::State& state, const std::string& cmd) {
  long peak_kib = 0;
  for (auto _ : state) {
    const long kib = run_measuring_peak_kib(cmd);
    if (kib < 0) {
      state.SkipWithError(("failed: " + cmd).c_str());
      return false;
    }
    peak_kib = std::max(peak_kib, kib);
  }
  state.counters["peak_MiB"] = static_cast<double>(peak_kib) / 1024.0;
  return true;
}

}  // namespace light::bench

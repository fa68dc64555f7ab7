// Synthetic MapText data for benchmarks: tiles of words laid out in short phrases, with
// 16-point polygons like a text spotter's, and "predictions" that jitter them.
#pragma once
#include <benchmark/benchmark.h>
#include <cstdint>

#include "light/data/synth/synth.h"
#include "light/geometry/polygon.h"
#include "light/image/resize.h"
#include "light/maptext.h"

namespace light::bench {

struct SynthPair {
  maptext::Dataset gt, pred;
};

// `tiles` tiles of `words` words each (groups of 1-4 words) on a `canvas` x `canvas` tile. Predictions
// shift and stretch each word by up to 3 px / 5%, change one letter in 20% of the words, and split 10% of phrases.
SynthPair make_eval_data(int tiles, int words, uint64_t seed, double canvas = 2000);

// One tile of `light synth`'s first style (2000 x 2000 px) at `density`, and its image as RGB.
struct SynthTile {
  maptext::Tile tile;
  synth::SynthImage image;  // BGR, as drawn
  image::RgbImage rgb;
};
SynthTile synth_tile(double density, uint64_t seed);

// A whole map, 15,000 x 12,000 px with about 10,000 words, made once by `LIGHT_BINARY synth` (about
// 40 s and 7 GB) in $TMPDIR/light-bench-map; "" when that fails.
std::string whole_map(const std::string& light_binary);

// Runs `cmd` (a shell command) to its end; its own peak resident memory in KiB, or -1 when it fails.
long run_measuring_peak_kib(const std::string& cmd);

// `cmd` run once per benchmark iteration; the counter peak_MiB, its largest peak. False (and the
// benchmark marked failed) when it fails.
bool run_command_iterations(benchmark::State& state, const std::string& cmd);

// Peak resident memory of this process so far, in MiB.
double peak_rss_mib();

// A benchmark program's main: OpenBLAS's kernel checked as `light` does (0.3.21 takes this CPU for
// "Prescott", 5x slower: the process restarts with OPENBLAS_CORETYPE set), then every benchmark.
int run_benchmarks(int argc, char** argv);

}  // namespace light::bench

// Synthetic MapText data for benchmarks: tiles of words laid out in short phrases, with
// 16-point polygons like a text spotter's, and "predictions" that jitter them.
#pragma once
#include <cstdint>

#include "light/geometry/polygon.h"
#include "light/maptext.h"

namespace light::bench {

struct SynthPair {
  maptext::Dataset gt, pred;
};

// `tiles` tiles of `words` words each (groups of 1-4 words) on a `canvas` x `canvas` tile. Predictions
// shift and stretch each word by up to 3 px / 5%, change one letter in 20% of the words, and split 10% of phrases.
SynthPair make_eval_data(int tiles, int words, uint64_t seed, double canvas = 2000);

// Peak resident memory of this process so far, in MiB.
double peak_rss_mib();

}  // namespace light::bench

// What a text spotter would report for a labelled tile (`light synth --predictions`): the words it
// misses, splits in two or merges with a neighbour, its polygons (jittered, resampled to 16 points or SpotterRates::points),
// its recognition errors (similar-looking characters, dropped accents, case), and false detections
// on linework. A spotter links nothing: every predicted word is a group of its own, as the input
// `light link` takes. Deterministic for (seed, tile index, rates).
#pragma once
#include <cstdint>
#include <string>

#include "light/maptext.h"

namespace light::synth {

// Rates per ground-truth word (legible ones; illegible words are found half as often and read as
// they are). The defaults come near a good modern spotter (the paper's Table 5: word recall about
// 0.9, precision about 0.93, character accuracy about 0.94).
struct SpotterRates {
  double miss = 0.07;    // not detected
  double split = 0.02;   // detected as two words (words of 4 or more characters)
  double merge = 0.02;   // detected together with the next word of its phrase, as one word
  double false_detections = 0.04;  // detections that are no word (on linework), per word
  double char_errors = 0.06;       // characters misread: a similar-looking one, a dropped accent or the other case
  double jitter = 0.04;            // polygon points moved by about this share of the word's height
  // Vertices of each predicted polygon, half along each long side (even, 4 to 400): 16 as DeepSolo-style
  // spotters and the MapText files; 50 as MapText Strong and Self-Sequencer, the 2025 competition's best.
  int points = 16;
};
// "default" or "name=value,..." over miss, split, merge, false_detections, char_errors, jitter (each
// in [0, 1]; names left out keep their defaults). Throws light::Error naming --spotter.
SpotterRates parse_spotter_rates(const std::string& spec);

// The spotter's words for tile `index` of a set made with `seed`.
maptext::Tile spot(const maptext::Tile& truth, const SpotterRates& rates, uint64_t seed, uint64_t index);

}  // namespace light::synth

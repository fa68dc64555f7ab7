// Spotter-like noise on word polygons, for training a linker that links a spotter's words as well as
// exact ones. A text spotter's word polygons differ from the lettering's exact outlines: measured on
// the bundled spotter's words of held-out synthetic tiles (IoU 0.79-0.84 with their exact polygons),
// the log of a word's height ratio spreads with a standard deviation of 0.13-0.16, of its length
// ratio 0.10-0.11, and its centre moves 0.04 of its height across and 0.10-0.18 along. A linker trained
// on exact polygons reads these differences as the cues of lettering (two words of one name are
// lettered alike and line up): given the exact polygons of the spotted words, its end-to-end link F
// rose by 2 to 6.5 points (docs/default-model.md).
#pragma once
#include <cstdint>

#include "light/maptext.h"

namespace light::data {

// Moves every word polygon of `tile` in its reading frame (geometry::reading_frame: from its start to
// its end, and its height): its height times exp(N(0, sigma)), its length times exp(N(0, 0.7 sigma)),
// its centre by N(0, 0.3 sigma) heights across and N(0, 0.8 sigma) heights along. sigma 0.15 gives the
// spread measured above. Seeded: the same seed moves the same tile the same way. sigma <= 0: unchanged.
void jitter_word_polygons(maptext::Tile& tile, double sigma, uint64_t seed);

}  // namespace light::data

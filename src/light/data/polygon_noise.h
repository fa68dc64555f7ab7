// Spotter-like noise on word polygons, for training a linker that links a spotter's words as well as
// exact ones. A text spotter's word polygons differ from the lettering's exact outlines in height,
// length and place, and a linker trained on exact polygons reads these differences as the cues of
// lettering (two words of one name are lettered alike and line up), so it links spotted words worse
// than their exact outlines. The spread measured, and the linkers trained with this noise (not kept
// for the bundled model): docs/notes/2026-11-spotter.md, "Outlines fitted to the lettering", and
// docs/notes/2026-11-default-model.md, "Trained on spotter-like outlines".
#pragma once
#include <cstdint>

#include "light/maptext.h"

namespace light::data {

// Moves every word polygon of `tile` in its reading frame (geometry::reading_frame: from its start to
// its end, and its height): its height times exp(N(0, sigma)), its length times exp(N(0, 0.7 sigma)),
// its centre by N(0, 0.3 sigma) heights across and N(0, 0.8 sigma) heights along. sigma 0.15 gives the
// spread of the bundled spotter's outlines before they were fitted to the lettering. Seeded: the same
// seed moves the same tile the same way. sigma <= 0: unchanged.
void jitter_word_polygons(maptext::Tile& tile, double sigma, uint64_t seed);

// Hand-box noise, for training a linker on exact synthetic outlines that links words boxed by hand (the
// ground truth of real layouts) as well: a person's box sits a little off the lettering's line, turned
// and sized by eye, so two words of one line never line up to the pixel. Moves every word polygon of
// `tile` about its centre: turned by N(0, 2 s) degrees, its height times exp(N(0, 0.08 s)), its length
// times exp(N(0, 0.05 s)), its centre by N(0, 0.1 s) heights across and N(0, 0.1 s) along. At s 1 the
// words of one line of synthetic tiles differ as those of data/real's hand-drawn boxes do
// (docs/notes/2026-12-04.md). Seeded as above; s <= 0: unchanged.
void jitter_word_polygons_by_hand(maptext::Tile& tile, double s, uint64_t seed);

}  // namespace light::data

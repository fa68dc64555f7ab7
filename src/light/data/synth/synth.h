// `light synth`: labelled synthetic map tiles made from scratch. A tile is a paper-toned background
// with map linework (rivers, roads, rail lines, contours, hatching, stains) and lettering set in real
// fonts along straight, rotated and curved baselines, with the layouts that make linking hard. Its
// MapText entry lists every word's 16-point polygon, text, flags and the phrases in reading order.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "light/data/synth/names.h"
#include "light/maptext.h"

namespace light::synth {

enum class Style {
  Clean,  // crisp print on even paper
  Aged,   // blur, grain and JPEG artefacts
  Mixed,  // each tile one or the other
};
Style parse_style(const std::string& name);

// How often each phrase layout is drawn: relative weights (any non-negative numbers, not all zero).
// The defaults are the mix docs/commands.md gives (`light synth`, "The mix of layouts"); `curvy` puts
// most lettering along features, curves and slants, where a word's polygon says much more than its box.
struct LayoutMix {
  double along = 18;     // along a river, road or rail line (words far apart, labels in the gaps)
  double straight = 32;  // horizontal
  double rotated = 12;   // turned by up to 69 degrees, or vertical
  double curved = 12;    // along a smooth curve of its own
  double stacked = 8;    // broken over two or three lines
  double spread = 5;     // spaced capitals across a region
  double numbers = 13;   // lone numbers and letters (distractors)
  double clusters = 0.35;  // chance that a tile also has a dense cluster of small labels (not a weight)
  // Weights of the layouts added for names on several lines and names spread wide (0 in the first
  // sets' mixes, `classic` and `curvy`, which keep drawing the same tiles):
  double lines = 0;   // broken over 2-4 lines at any word, centred or flush, distractors between and across
  double spaced = 0;  // words 2-20 heights apart across a region or along a feature, each at its own angle
};
// "default" (= "classic", the mix of the first sets), "curvy", or a list "curved=3,rotated=1,..." of weights (layouts left out get 0; the
// cluster chance keeps its default; lines and spaced are weights too). Throws light::Error naming --layouts and the bad item.
LayoutMix parse_layouts(const std::string& spec);

// The kind of map a tile imitates. Atlas: the 19th-century atlas plate of the first sets (serif and
// sans faces by feature, rivers, roads, rail lines; every layout). Topographic: a modern sheet (one
// sans face and one italic for water, most names turned along roads, rivers and contours, stacked
// names, qualifiers such as "(ruins)" set apart, fewer labels). City: a street plan (a street grid
// whose names cross, block numbers). Nautical: a chart (a coastline, soundings everywhere, few
// names). Regional: a sparse regional map (towns with symbols, spaced region names, rivers).
enum class MapStyle { Atlas, Topographic, City, Nautical, Regional };
MapStyle parse_map_style(const std::string& name);
// Whether `name` names one of the five styles (not "classic", a mix of the first sets).
bool is_map_style(const std::string& name);
const char* map_style_name(MapStyle style);
// The layout mix of a style (Atlas: the classic mix with names on several lines and spread wide added).
LayoutMix style_layouts(MapStyle style);

// Ranges a set of tiles spans when its scale varies from tile to tile (each drawn log-uniformly from
// the tile's own seed): the tile side (square tiles), the label density, and the height of a typical
// word over the tile side (real maps: 0.5% on a modern sheet's tile to 8% on a crowded plate's detail).
struct ScaleRanges {
  int side_min = 600, side_max = 4000;
  double density_min = 0.2, density_max = 2.5;   // about 5 to 65 words per megapixel
  double height_min = 0.005, height_max = 0.08;  // word height / tile side
};

// The smallest letters a person reads on a clean tile (px; the x-height, or the capitals' height
// of a word without small letters): read by eye on synthetic tiles (docs/synth.md#illegible-words).
inline constexpr double kMinLetterPx = 3.0;

// Whether a person could read lettering whose smallest letters are `letter_px` high on a tile
// blurred by a Gaussian of `blur_px` (0 when not aged): at least min_px + blur_px. Always true when
// min_px is 0.
bool legible(double letter_px, double blur_px, double min_px);

// Where a tile of real places (`light synth --places`) lies on the Earth: a sinusoidal projection
// (x = R (lon - lon0) cos lat, y = R (lat - lat0); curved meridians, so that an affine fit is only
// near over a large region) about the tile's centre place, turned by `rotation`, at `metres_per_px`.
struct MapGeoreference {
  double lon0 = 0, lat0 = 0;   // degrees: the projection's centre
  double metres_per_px = 1;
  double rotation = 0;         // radians: north this far counter-clockwise from up
  double cx = 0, cy = 0;       // the pixel of (lon0, lat0)
  // The pixel of a longitude/latitude (degrees), and back.
  void pixel(double lon, double lat, double& x, double& y) const;
  void lonlat(double x, double y, double& lon, double& lat) const;
};

// A real place drawn on a tile: its label is group `group`; its dot at (x, y).
struct DrawnPlace {
  size_t group = 0;
  LocatedPlace place;
  double x = 0, y = 0;
};
struct TilePlaces {
  MapGeoreference georef;
  std::vector<DrawnPlace> places;
};

struct SynthOptions {
  int width = 2000, height = 2000;
  double density = 1.0;     // multiplies the number of labels (1.0: about 60 phrases on 2000 x 2000)
  double font_scale = 1.0;  // multiplies every font size (1.0: the classic sizes, 12 to 64 px)
  Style style = Style::Mixed;
  LayoutMix layouts;
  uint64_t seed = 0;
  MapStyle map_style = MapStyle::Atlas;  // Atlas draws with `layouts`; other styles with their own mix
  // Drawn per tile over `ranges` (and the five styles) instead of the fixed values above.
  bool vary_side = false, vary_density = false, vary_height = false, vary_style = false;
  ScaleRanges ranges;
  // The finished tile turned clockwise by this many quarter turns (0-3), image and polygons: a sheet
  // scanned sideways or upside down, its lettering read along the turned baselines.
  int quarter_turns = 0;
  // Names on several lines set as real sheets set them (issue 70; docs/synth.md, "Names on several
  // lines as real sheets set them"): lines that do not line up (indented, staggered), tight and loose
  // spacing, a line in smaller or larger letters, lines at angles of their own, names set word by
  // word round a bend. false: aligned blocks of one size and angle, the tiles the bundled model was
  // trained on.
  bool real_stacks = false;
  // The share of the numbers layout drawn as a row of house or lot numbers along a street ("121",
  // "123", "125" along a block front, each a phrase of its own), as city plans and fire insurance
  // atlases number their lots; 0: single numbers only, the tiles drawn before (docs/synth.md).
  double number_rows = 0.0;
  // The share of names drawn as sheets outside the classic American mix print them (names.h,
  // world_name: "Rue / de / la / Paix", "Iglesia / de / San / Juan", "Hazel / Shaw"): words such as
  // "de" or "Rue" that never end a name. 0: the classic names only, the tiles drawn before.
  double world_names = 0.0;
  // The words' outlines written as a person boxes words by hand (data::jitter_word_polygons_by_hand,
  // S times the spreads measured on data/real: turned some 2 degrees, heights and lengths a little
  // off, centres moved); the image is drawn as before. 0: outlines to the pixel.
  double hand_noise = 0.0;
  // Words whose smallest letters are lower than this (px) on a clean tile, or than this plus an aged
  // tile's blur, are marked illegible, as an annotator marks what no one can read; 0 marks only the
  // words faded almost away (`legible`).
  double min_letter_px = kMinLetterPx;
  // A region of the gazetteer's real places on each tile (`--places`): a place drawn at random, the
  // tile 25-500 km across around it, its places with a dot where they lie and their names beside,
  // the largest first, before the usual lettering (whose names stay at random spots).
  bool places = false;
};

// The options tile `index` is made with: `options` with the side, density, font scale and map style
// drawn where they vary (font_scale = height x side / 24 px, a typical classic font size; each style
// equally likely). Unchanged otherwise.
SynthOptions tile_options(const SynthOptions& options, uint64_t index);

struct SynthImage {
  int width = 0, height = 0;
  std::vector<unsigned char> bgr;  // row-major, 3 bytes a pixel (OpenCV order)
};

// Turns a finished tile of width x height pixels clockwise by `turns` quarter turns: every word's
// vertices, and the image when given (its width and height swap for an odd count).
void turn_tile(maptext::Tile& tile, SynthImage* image, int width, int height, int turns);

// Tile `index` of the run with these options: deterministic for (seed, index, options, fonts).
// With SynthOptions::places, `places` (when given) receives where the tile lies and its places.
maptext::Tile generate_tile(const Gazetteer& names, const SynthOptions& options, uint64_t index,
                            const std::string& image_key, SynthImage* image, TilePlaces* places = nullptr);

// Writes `count` tiles to OUT_DIR/images/tile_NNNNNN.png and their ground truth to
// OUT_DIR/annotations.json (image keys "images/tile_NNNNNN.png"), tiles in parallel; with
// SynthOptions::places also OUT_DIR/places.json (write_tile_places).
maptext::Dataset synthesize(const Gazetteer& names, const SynthOptions& options, const std::string& out_dir,
                            int count, int threads, bool progress);

// One phrase alone on a blank tile, in the given layout (for tests and demonstrations). The group
// keeps the words' order; illegible fading may apply as on any tile.
enum class PhraseLayout { Straight, Rotated, Curved, Stacked, Spread, Lines, Spaced };
maptext::Tile phrase_tile(const std::vector<std::string>& words, PhraseLayout layout, int width, int height,
                          uint64_t seed, SynthImage* image = nullptr);

// The places of a set's tiles as JSON: per tile its image key, size, georeference (the projection as
// a PROJ string, metres a pixel, rotation, the centre's pixel) and each place drawn (the label's group,
// GeoNames id, name, lon/lat, population, the dot's pixel).
std::string tile_places_json(const std::vector<std::string>& images, const std::vector<std::pair<int, int>>& sizes,
                             const std::vector<TilePlaces>& places);

// PNG bytes of an image (OpenCV encoder).
std::vector<unsigned char> encode_png(const SynthImage& image);

}  // namespace light::synth

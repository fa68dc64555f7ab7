// The tile under construction (internal to light_synth): a Canvas with its lettering: the free-space
// bookkeeping, the words placed so far as MapText groups, and one method a phrase layout. The layouts
// of single lines live in builder.cpp; names set on several lines and names spread wide in
// multiline.cpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "light/data/synth/canvas.h"
#include "light/data/synth/names.h"
#include "light/data/synth/text_render.h"
#include "light/maptext.h"

namespace light::synth {

struct Builder : Canvas {
  const Gazetteer& names;
  const SynthOptions& opt;
  TextRenderer text;
  Occupancy occ;
  maptext::Tile tile;
  // The height of each placed word's smallest letters (px; TextRenderer::letter_height), by group and
  // word as in `tile`: whether a person could read it there.
  std::vector<std::vector<double>> letter_px;

  std::string topo_sans, topo_water;  // a topographic sheet's two faces

  Builder(const Gazetteer& n, const SynthOptions& o, uint64_t seed)
      : Canvas(o.width, o.height, seed), names(n), opt(o), occ(o.width, o.height) {}

  // A name of `kind`: a world name (world_name) for a share SynthOptions::world_names of the kinds
  // that have one, the gazetteer's otherwise. At share 0 it draws as names.make alone.
  Name name(NameKind kind) {
    if (opt.world_names > 0 && r.chance(opt.world_names)) {
      Name n = world_name(kind, r.g);
      if (!n.words.empty()) return n;
    }
    return names.make(kind, r.g);
  }

  // The face and size for a name of `kind`; a topographic sheet keeps to its two faces.
  FontStyle font(NameKind kind);

  // --- lettering --------------------------------------------------------------------------------
  struct Placed {
    WordShape shape;
    Path path;
    double s0;
    std::vector<Point> poly;
    std::string text;
  };

  // Checks a candidate phrase against the free space and the tile; on success draws it and records
  // it as one group in reading order. Words entirely outside the tile are left out; words cut by the
  // border are flagged truncated.
  bool commit(std::vector<Placed>& words, bool allow_edge);

  std::vector<WordShape> shape_all(const std::vector<std::string>& words, const FontStyle& f);

  // Words one after another along `path` from arc length `start`, with the given gaps after each.
  std::vector<Placed> along(const std::vector<std::string>& words, const std::vector<WordShape>& shapes, const Path& path,
                            double start, const std::vector<double>& gaps, double margin) {
    std::vector<Placed> out;
    double s = start;
    for (size_t i = 0; i < words.size(); ++i) {
      out.push_back({shapes[i], path, s, TextRenderer::polygon(shapes[i], path, s, margin), words[i]});
      s += shapes[i].advance + (i < gaps.size() ? gaps[i] : 0.0);
    }
    return out;
  }

  static double total(const std::vector<WordShape>& shapes, const std::vector<double>& gaps);

  Point random_start(double len, double angle, bool allow_edge);

  // Straight or rotated phrase; `spread` sets spaced capitals with wide gaps.
  bool straight(const Name& name, double angle, bool spread);

  void town_symbol(const Path& path, double size);

  // Along a smooth curve of its own (gentle: radius at least ~4 letter heights).
  bool curved(const Name& name);

  // Over two or three stacked lines, centred; reading order is line by line.
  bool stacked(const Name& name);

  // The baseline for a label along `feat` between arc lengths s0 and s1, read left to right (never
  // upside down) and lifted off the line by a road's or river's half width and a quarter of `size`.
  Path label_path(const Feature& feat, double s0, double s1, double size);

  // Along a river, road or rail line, reading left to right, words sometimes far apart, with other
  // labels put into the wide gaps.
  bool along_feature(const Name& name, const Feature& feat);

  // Other labels in the wide gaps (at least 2 font sizes) of a phrase set along `path`, each with
  // probability `chance`: gap i starts at arc length ends[i] and is gaps[i] long.
  void label_gaps(const Path& path, const std::vector<double>& ends, const std::vector<double>& gaps, double size, double chance);

  // --- names on several lines, names spread wide (multiline.cpp) ----------------------------------
  // A descriptive name of the kind large-scale sheets stack: "Site of Roman Villa", "Holy Trinity
  // Church", "Old Quarry (disused)", "Alder Farm", "Youth Hostel".
  Name descriptive_name();
  // `name` (or, for a one-word name, a descriptive one) broken at any words over 2-4 lines, centred,
  // flush left or flush right, 1.0-2.0 font sizes from baseline to baseline, sometimes turned; now and
  // then an unrelated label between two lines, or a road crossing the label with its name beside it.
  // With SynthOptions::real_stacks, the lines' spacing, shifts, turns and sizes are real_stack's.
  bool lines_label(const Name& name);
  // How a name's lines are set against each other (SynthOptions::real_stacks): spacing (baseline to
  // baseline, in letter sizes), each line's shift along (letter sizes), turn (radians) and letter size
  // (times the name's). StackShape(n): a block of n lines as lines_label sets them by default.
  struct StackShape {
    explicit StackShape(int lines) : shift(static_cast<size_t>(lines), 0.0), turn(shift), size(static_cast<size_t>(lines), 1.0) {}
    double lead = 1;
    std::vector<double> shift, turn, size;
  };
  StackShape real_stack(int lines);
  // A name along a bending river or road, each word straight at the feature's angle where it stands,
  // a letter or so apart (SynthOptions::real_stacks): the next word often lies above the last in its
  // reading frame ("Cerrito" / "Creek" round a meander).
  bool words_along_a_bend(const Name& name, const Feature& feat);
  // A road line through `c`, about `reach` px either side, and a street name along it beyond that.
  void road_across(Point c, double reach);
  // Three to eight house or lot numbers in a row beside a road (SynthOptions::number_rows), rising or
  // falling by 1, 2 or 4, upright or along the road, each number a phrase of its own: a reader never
  // joins "123" to "125". false when the tile has no road long enough or no number found room.
  bool number_row();
  // A name whose words lie 2-20 word heights apart: along `feat` (a river, road, ridge or rail line)
  // or, without one, across a region on a straight line or a gentle arc; each word straight at the
  // path's angle where it stands, or level ("reading upwards" along a rising feature); capitals often
  // letter-spaced; unrelated labels in some gaps.
  bool spaced_name(const Feature* feat);
  // Words centred on `path` one after another with the given gaps, each a straight word at the path's
  // angle at its middle (level when `upright`).
  std::vector<Placed> each_at_its_angle(const std::vector<std::string>& words, const std::vector<WordShape>& shapes,
                                        const Path& path, double start, const std::vector<double>& gaps, double margin,
                                        bool upright);

  // Real places of the gazetteer where they lie (SynthOptions::places, places.cpp): the region, each
  // place's dot and its name beside it, the largest first.
  TilePlaces* drawn_places = nullptr;
  void real_places();
  // Labels a tile of `area` (in 2000 x 2000 tiles) holds at its style and density.
  int phrase_budget() const;

  // A dense cluster of small labels.
  void cluster();

  void lettering();

  // --- pixels ------------------------------------------------------------------------------------
  // How the finished tile is aged. Drawn once the lettering is placed, whether or not its pixels are
  // made, so that the words its blur makes illegible are the same either way.
  struct Aging {
    uint64_t texture_seed = 0;
    double shade = 0;  // the paper's low-frequency shading, a fraction of its brightness
    bool aged = false;
    double blur = 0, noise = 0;  // Gaussian sigma (px) and grey-level noise, aged tiles only
    bool jpeg = false;
    int quality = 0;
  };
  Aging aging;
  // Draws `aging`, then marks illegible the words whose letters are too small to read through its
  // blur (`legible`, SynthOptions::min_letter_px). Before finish().
  void age();
  void finish(SynthImage* image);
};

}  // namespace light::synth

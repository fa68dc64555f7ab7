// `light synth`: labelled synthetic map tiles (see docs/commands.md, "light synth").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/data/synth/spotter.h"
#include "light/data/synth/synth.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/interrupt.h"
#include <filesystem>

namespace light::cli {

namespace {
struct SynthArgs {
  std::string out, size = "600-4000", density = "0.2-2.5", word_height = "0.005-0.08", style = "mixed", layouts = "default",
              gazetteer = synth::Gazetteer::default_path();
  std::string spotter = "default", stacks = "aligned";
  int spotter_points = 16;
  bool predictions = false;
  int count = 1, threads = 0, turn = 0;
  uint64_t seed = 0;
  double clusters = 0.35;
  double number_rows = 0.0, world_names = 0.0, hand_noise = 0.0;
  double min_letter_px = synth::kMinLetterPx;
  bool quiet = false, overwrite = false, places = false;
  bool size_given = false, density_given = false, word_height_given = false;
};

void parse_size(const std::string& s, int& w, int& h) {
  const auto x = s.find('x');
  try {
    size_t used = 0;
    w = std::stoi(s.substr(0, x), &used);
    if (used != (x == std::string::npos ? s.size() : x)) throw std::invalid_argument(s);
    h = x == std::string::npos ? w : std::stoi(s.substr(x + 1), &used);
    if (x != std::string::npos && used != s.size() - x - 1) throw std::invalid_argument(s);
  } catch (const std::exception&) {
    throw Error("--size: expected W or WxH in pixels, got \"" + s + "\"");
  }
  if (w < 64 || h < 64 || w > 20000 || h > 20000) throw Error("--size: each side must be 64 to 20000 pixels, got \"" + s + "\"");
}

void run_synth(const SynthArgs& a) {
  synth::SynthOptions opt;
  // The mixes of the first sets (classic, curvy, layout weights) keep the first sets' scale (2000 px,
  // density 1, classic font sizes) unless told otherwise, so their old command lines make the same
  // tiles; default and the map styles draw the scale per tile.
  const std::string& L = a.layouts;
  const bool classic = !(L == "default" || synth::is_map_style(L));
  double lo = 0, hi = 0;
  // A tile of real places is a whole map: larger, its lettering small beside the region it shows.
  const std::string size = a.places && !a.size_given ? "1500-5000" : a.size;
  const std::string word_height = a.places && !a.word_height_given ? "0.004-0.015" : a.word_height;
  if (size.find('-') != std::string::npos && !(classic && !a.size_given)) {
    parse_range(size, "--size", 64, 20000, lo, hi);
    opt.vary_side = true, opt.ranges.side_min = static_cast<int>(lo), opt.ranges.side_max = static_cast<int>(hi);
  } else {
    parse_size(classic && !a.size_given ? "2000" : size, opt.width, opt.height);
  }
  if (!(classic && !a.density_given)) {
    opt.vary_density = parse_range(a.density, "--density", 1e-3, 20, lo, hi);
    opt.density = lo, opt.ranges.density_min = lo, opt.ranges.density_max = hi;
  }
  if (word_height != "classic" && !(classic && !a.word_height_given)) {
    parse_range(word_height, "--word-height", 0.001, 0.5, lo, hi);
    opt.ranges.height_min = lo, opt.ranges.height_max = hi;
    opt.vary_height = true;  // a single value still scales with each tile's side
  }
  opt.style = synth::parse_style(a.style);
  // default: every map style, one a tile; a style's name: that style; classic, curvy or weights: atlas plates.
  if (L == "default" || synth::is_map_style(L)) {
    opt.layouts = synth::style_layouts(synth::MapStyle::Atlas);  // atlas tiles with every layout
    if (L == "default") opt.vary_style = true;
    else opt.map_style = synth::parse_map_style(L);
  } else {
    opt.layouts = synth::parse_layouts(L);
  }
  if (!(a.clusters >= 0 && a.clusters <= 1)) throw Error("--clusters: expected a chance in [0, 1]");
  opt.layouts.clusters = a.clusters;
  if (a.turn != 0 && a.turn != 90 && a.turn != 180 && a.turn != 270) throw Error("--turn: expected 0, 90, 180 or 270, got " + std::to_string(a.turn));
  opt.quarter_turns = a.turn / 90;
  if (a.stacks != "aligned" && a.stacks != "real") throw Error("--stacks: expected aligned or real, got \"" + a.stacks + "\"");
  opt.real_stacks = a.stacks == "real";
  if (!(a.number_rows >= 0 && a.number_rows <= 1))
    throw Error("--number-rows: expected a share in [0, 1], got " + CLI::detail::to_string(a.number_rows));
  opt.number_rows = a.number_rows;
  if (!(a.world_names >= 0 && a.world_names <= 1))
    throw Error("--world-names: expected a share in [0, 1], got " + CLI::detail::to_string(a.world_names));
  opt.world_names = a.world_names;
  if (!(a.hand_noise >= 0 && a.hand_noise <= 3))
    throw Error("--hand-noise: expected a scale in [0, 3], got " + CLI::detail::to_string(a.hand_noise));
  opt.hand_noise = a.hand_noise;
  opt.places = a.places;
  if (a.places && a.turn != 0) throw Error("--places: the places' dots are not turned with the tile; leave out --turn");
  if (!(a.min_letter_px >= 0 && a.min_letter_px <= 100))
    throw Error("--min-letter-px: expected a height in px from 0 to 100, got " + CLI::detail::to_string(a.min_letter_px));
  opt.min_letter_px = a.min_letter_px;
  opt.seed = a.seed;
  if (a.count < 1) throw Error("--count: expected at least 1");
  if (!a.predictions && (a.spotter != "default" || a.spotter_points != 16))
    throw Error(std::string(a.spotter != "default" ? "--spotter" : "--spotter-points") + ": shapes the spotter-like predictions, which only --predictions writes");
  synth::SpotterRates rates = synth::parse_spotter_rates(a.spotter);
  if (a.spotter_points < 4 || a.spotter_points > 400 || a.spotter_points % 2 != 0)
    throw Error("--spotter-points: expected an even vertex count from 4 to 400, got " + std::to_string(a.spotter_points));
  rates.points = a.spotter_points;
  check_new_output_folder("--out", a.out, a.overwrite);
  if (a.overwrite) check_inputs_outside("--out", a.out, {{"--gazetteer", a.gazetteer}});
  const synth::Gazetteer names(a.gazetteer);
  if (a.places && names.located().empty())
    throw Error(a.gazetteer + " (--gazetteer): no row with coordinates; --places needs GeoNames rows (id, name, ..., latitude, "
                "longitude, ..., population)");
  if (a.overwrite) clear_output_folder(a.out);  // no stale tiles of an older set
  const bool created = !std::filesystem::exists(a.out);
  maptext::Dataset data;
  const InterruptScope interrupt;  // SIGINT/SIGTERM/SIGHUP: the half-made set is removed, as on an error
  try {
    data = synth::synthesize(names, opt, a.out, a.count, a.threads, !a.quiet);
    if (a.predictions) {  // what a text spotter would report for each tile
      maptext::Dataset spotted;
      for (size_t k = 0; k < data.size(); ++k) spotted.push_back(synth::spot(data[k], rates, a.seed, k));
      maptext::write_maptext(a.out + "/predictions.json", spotted);
    }
  } catch (...) {  // no half-made set left behind
    if (created) remove_tree(a.out);
    else clear_output_folder(a.out);
    throw;
  }
  size_t words = 0, groups = 0;
  for (const auto& t : data) words += t.word_count(), groups += t.groups.size();
  std::fprintf(stderr, "synth: %d tiles, %zu phrases, %zu words -> %s/annotations.json, %s/images/%s\n", a.count, groups, words,
               a.out.c_str(), a.out.c_str(), a.predictions ? (", " + a.out + "/predictions.json").c_str() : "");
}
}  // namespace

bool parse_range(const std::string& s, const std::string& option, double lo, double hi, double& a, double& b) {
  auto dash = s.find('-', 1);
  while (dash != std::string::npos && (s[dash - 1] == 'e' || s[dash - 1] == 'E')) dash = s.find('-', dash + 1);  // 5e-3 is a number
  try {
    size_t used = 0;
    a = std::stod(s.substr(0, dash), &used);
    if (used != (dash == std::string::npos ? s.size() : dash)) throw std::invalid_argument(s);
    b = a;
    if (dash != std::string::npos) {
      b = std::stod(s.substr(dash + 1), &used);
      if (used != s.size() - dash - 1) throw std::invalid_argument(s);
    }
  } catch (const std::exception&) {
    throw Error(option + ": expected a number or a range A-B, got \"" + s + "\"");
  }
  if (!(a >= lo && b <= hi && a <= b))
    throw Error(option + ": expected values from " + CLI::detail::to_string(lo) + " to " + CLI::detail::to_string(hi) + " (A <= B), got \"" + s + "\"");
  return dash != std::string::npos;
}

void add_synth_command(CLI::App& app) {
  auto args = std::make_shared<SynthArgs>();
  CLI::App* cmd = app.add_subcommand("synth", full_command_description("synth"));
  cmd->add_option("--out", args->out, "Output folder (images/ and annotations.json)")->required();
  cmd->add_option("--count", args->count, "Number of tiles")->capture_default_str();
  cmd->add_option("--seed", args->seed, "Random seed (same seed and fonts: same tiles)")->capture_default_str();
  cmd->add_option("--size", args->size, "Tile size W or WxH in pixels, or a range A-B of square sides drawn per tile")
      ->capture_default_str()
      ->each([args](const std::string&) { args->size_given = true; });
  cmd->add_option("--density", args->density, "Label density (1.0: ~60 phrases per 2000x2000 tile), or a range A-B drawn per tile")
      ->capture_default_str()
      ->each([args](const std::string&) { args->density_given = true; });
  cmd->add_option("--word-height", args->word_height,
                  "A typical word's height over the tile side, or a range A-B drawn per tile; classic: the first sets' font sizes")
      ->capture_default_str()
      ->each([args](const std::string&) { args->word_height_given = true; });
  cmd->add_option("--style", args->style, "clean | aged | mixed")->capture_default_str();
  cmd->add_option("--layouts", args->layouts,
                  "Map styles and phrase layouts: default (every style) | atlas | topographic | city | nautical | regional | classic (atlas at the first sets' scale) | curvy | weights (both at that scale unless told) such as curved=3,rotated=1 (along, straight, rotated, "
                  "curved, stacked, spread, numbers, lines, spaced)")
      ->capture_default_str();
  cmd->add_option("--turn", args->turn, "Turn every finished tile clockwise by 0, 90, 180 or 270 degrees (a sheet scanned sideways)")
      ->capture_default_str();
  cmd->add_flag("--places", args->places,
                "Draw a region of the gazetteer's real places where they lie on each tile, and write OUT/places.json (their "
                "groups, ids and dots, and the tile's georeference)");
  cmd->add_option("--stacks", args->stacks,
                  "Names on several lines: aligned (blocks of one size and angle, lines centred or flush) | real (as real sheets set them: "
                  "unaligned, indented or staggered lines, tight and loose spacing, a line in smaller or larger letters, lines at angles of their own)")
      ->capture_default_str();
  cmd->add_option("--number-rows", args->number_rows,
                  "Share of the numbers layout drawn as a row of house or lot numbers along a street, each number a phrase of its own "
                  "(0: single numbers, the tiles drawn before)")
      ->capture_default_str();
  cmd->add_option("--world-names", args->world_names,
                  "Share of the street, building, water and relief names drawn as French, Spanish, Italian, Portuguese, German, British "
                  "or American survey sheets print them (\"Rue de la Paix\", \"Iglesia de San Juan\", \"Hazel Shaw\"; 0: the classic "
                  "names, the tiles drawn before)")
      ->capture_default_str();
  cmd->add_option("--hand-noise", args->hand_noise,
                  "S: the words' outlines written as boxes drawn by hand (turned, heights, lengths and centres a little off: S times "
                  "the spreads of data/real); the images as before (0: outlines to the pixel)")
      ->capture_default_str();
  cmd->add_option("--clusters", args->clusters, "Chance that a tile has a dense cluster of small labels")->capture_default_str();
  cmd->add_option("--min-letter-px", args->min_letter_px,
                  "Mark illegible the words whose smallest letters (x-height, or capitals') are lower than this many px, plus an aged tile's blur (0: only faded words)")
      ->capture_default_str();
  cmd->add_flag("--predictions", args->predictions,
                "Also write predictions.json: what a text spotter would report (missed, split, merged and misread words, false detections; unlinked)");
  cmd->add_option("--spotter", args->spotter,
                  "The spotter's rates: default | name=value,... over miss, split, merge, false_detections, char_errors, jitter")
      ->capture_default_str();
  cmd->add_option("--spotter-points", args->spotter_points,
                  "Vertices of each predicted polygon, half along each long side (16; 50 as MapText Strong and Self-Sequencer)")
      ->capture_default_str();
  cmd->add_option("--gazetteer", args->gazetteer, "GeoNames cities file for settlement names")->capture_default_str();
  cmd->add_option("--threads", args->threads, "Worker threads (0 = all cores)")->capture_default_str();
  cmd->add_flag("--overwrite", args->overwrite, "Replace what an existing --out folder holds");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress line");
  cmd->callback([args] { run_synth(*args); });
}

}  // namespace light::cli

// `light spot`: the words of map images (MapText predictions with text and a score), read by the
// bundled spotter (models/spotter) or another spotter folder.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "light/cli/commands.h"
#include "light/error.h"
#include "light/link/collection.h"
#include "light/spot/spotter.h"
#include "light/spot/spotter_config.h"
#include "light/util/fs.h"

namespace light::cli {


void add_spot_command(CLI::App& app) {
  struct Args {
    std::string images, out, spotter, device = "cpu", shard;
    int threads = 0;
    bool quiet = false, upright = false, small_lettering = false, tilted = false, stages = false, print_config = false;
    spot::SpotOptions options;  // the values given; the rest are the spotter folder's (its spotter.json)
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("spot", full_command_description("spot"));
  cmd->add_option("--images", a->images, "A map image, or a folder of them (required)");
  cmd->add_option("-o,--out", a->out, "MapText predictions to write (words with text and score, one group each; required)");
  cmd->add_flag("--stages", a->stages, "List the spotter's stages, whether each runs and its settings (its spotter.json), and stop");
  cmd->add_flag("--print-config", a->print_config,
                "Print the settings the spotter would run with (with the options given) as a spotter.json, and stop");
  cmd->add_option("--spotter", a->spotter, "Spotter folder (default: the bundled models/spotter)");
  cmd->add_option("--alphabet", a->options.alphabet, "latin (letters with diacritics, digits, punctuation) | all")->capture_default_str();
  cmd->add_option("--min-score", a->options.min_score, "Drop words whose characters' mean probability is below")->capture_default_str();
  cmd->add_option("--scale", a->options.scale, "The detector reads the image resized by this factor (0: auto, enlarged when the lettering is small)")
      ->capture_default_str();
  cmd->add_flag("--upright", a->upright,
                "Read the image upright only, not also turned a quarter (faster; steep lettering is found less well)");
  cmd->add_flag("--small-lettering", a->small_lettering,
                "Read the map once more, enlarged, for lettering much smaller than most of it (a plan's street names): more of it found, slower");
  cmd->add_flag("--tilted", a->tilted,
                "Read the map also tilted 30 degrees either way, for names set at a slant along a road or a railway: more of them found, "
                "about twice as slow");
  cmd->add_option("--glyph-score", a->options.glyph_score,
                 "Letters standing alone that the detector misses (a block's letter, a section's figure) are looked for in the ink and kept "
                 "when read with this mean probability (0: not looked for)")
      ->capture_default_str();
  cmd->add_option("--window", a->options.window, "Detector window side in pixels (a multiple of 32)")->capture_default_str();
  cmd->add_option("--shard", a->shard, "K/N: with a folder of images, this machine's share (the images whose name hashes to K of N)");
  cmd->add_option("--threads", a->threads, "LibTorch threads (0 = all cores)")->capture_default_str();
  cmd->add_option("--device", a->device, "cpu | cuda")->capture_default_str();
  cmd->add_flag("-q,--quiet", a->quiet, "No progress");
  cmd->callback([a, cmd] {
    const bool listing = a->stages || a->print_config;
    if (!listing && a->images.empty()) throw CLI::RequiredError("--images");
    if (!listing && a->out.empty()) throw CLI::RequiredError("--out");
    const std::string dir = a->spotter.empty() ? spot::default_spotter_dir() : a->spotter;
    spot::SpotOptions options = spot::spotter_settings(dir);
    // What the command line gives, over the folder's settings.
    if (cmd->count("--alphabet")) options.alphabet = a->options.alphabet;
    if (cmd->count("--min-score")) options.min_score = a->options.min_score;
    if (cmd->count("--scale")) options.scale = a->options.scale;
    if (cmd->count("--window")) options.window = a->options.window;
    if (cmd->count("--glyph-score")) {
      options.glyph_score = a->options.glyph_score;
      if (options.glyph_score == 0) options.switch_off(spot::Stage::lone_glyphs);
      else options.switch_on(spot::Stage::lone_glyphs);
    }
    if (a->upright) options.switch_off(spot::Stage::turned);
    if (a->small_lettering) options.read_small_lettering();
    if (a->tilted) options.switch_on(spot::Stage::tilted);
    if (a->stages) {
      std::printf("spotter %s\n%s", dir.c_str(), spot::describe_stages(options).c_str());
      return;
    }
    if (a->print_config) {
      std::printf("%s\n", spot::spotter_config_json(options).dump(2).c_str());
      return;
    }
    check_output_is_not_input("--out", a->out, {{"--images", a->images}});
    auto images = spot::list_map_images(a->images);
    if (!a->shard.empty()) {  // the share link --collection --shard takes: by a hash of each name
      std::vector<std::string> keys;
      for (const auto& image : images) keys.push_back(image.first);
      std::vector<std::pair<std::string, std::string>> mine;
      for (const size_t i : link::shard_indices(keys, a->shard)) mine.push_back(images[i]);
      images = std::move(mine);
    }
    model::PredictorOptions runtime;
    runtime.threads = a->threads;
    runtime.device = a->device;
    spot::Spotter spotter(dir, runtime, options);
    check_output_is_not_input("--out", a->out);  // nor one of the images, nor a file of the spotter's: before any work
    const maptext::Dataset data = spot::spot_images(spotter, images, !a->quiet);
    size_t words = 0;
    for (const maptext::Tile& t : data) words += t.groups.size();
    check_output_is_not_input("--out", a->out);  // nor any file the spotter read (its keys.txt, weights)
    maptext::write_maptext(a->out, data);
    std::fprintf(stderr, "spot: %zu map(s), %zu words -> %s\n", images.size(), words, a->out.c_str());
  });
}

}  // namespace light::cli

// `light view`: a web page of linked phrases over their maps (docs/view-and-search.md).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "light/cli/commands.h"
#include "light/cli/link_args.h"
#include "light/data/tile_image.h"
#include "light/error.h"
#include "light/maptext.h"
#include "light/util/fs.h"
#include "light/view/view.h"

namespace light::cli {

void add_view_command(CLI::App& app) {
  struct Args {
    std::string words, images, out, gt, task = "detedges", title, gazetteer;
    int tile_size = 254, quality = 85;
    bool quiet = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("view", full_command_description("view"));
  cmd->add_option("--words", a->words, "Linked MapText JSON (light link's output)")->required();
  cmd->add_option("--images", a->images, "Folder holding the map images (image key, or its basename)")->required();
  cmd->add_option("-o,--out", a->out, "The page's folder (new, or empty): open OUT/index.html in a browser")->required();
  cmd->add_option("--gt", a->gt, "Ground truth: colour each link by the evaluator's verdict and show the scores");
  cmd->add_option("--task", a->task, "With --gt: detedges (the words are the ground truth's) or detrecedges (a spotter's)")
      ->capture_default_str();
  cmd->add_option("--title", a->title, "The page's title (default: the words file's name)");
  cmd->add_option("--gazetteer", a->gazetteer, "Show each phrase's place in this gazetteer index beside it (light gazetteer build; "
                                               "\"default\": GeoNames cities500)");
  cmd->add_option("--tile-size", a->tile_size, "Deep-zoom tile side in px")->capture_default_str();
  cmd->add_option("--jpeg-quality", a->quality, "JPEG quality of the map tiles")->capture_default_str();
  cmd->add_flag("-q,--quiet", a->quiet, "No progress or summary on standard error");
  cmd->callback([a] {
    check_output_is_not_input("-o/--out", a->out, {{"--words", a->words}, {"--images", a->images}, {"--gt", a->gt}, {"--gazetteer", a->gazetteer}});
    view::ViewOptions o;
    if (!a->gt.empty()) {
      if (a->task != "detedges" && a->task != "detrecedges") throw Error("--task: expected detedges or detrecedges");
      o.task = a->task == "detedges" ? eval::Task::DetEdges : eval::Task::DetRecEdges;
    }
    o.pyramid.tile_size = a->tile_size;
    o.pyramid.jpeg_quality = a->quality;
    view::pyramid_tile_count(1, 1, o.pyramid);  // checks the options before any work
    o.progress = !a->quiet;
    o.title = a->title.empty() ? std::filesystem::path(a->words).filename().string() : a->title;
    const maptext::Dataset linked = maptext::read_maptext(a->words, {maptext::Kind::Predictions, false});
    maptext::Dataset gt;
    if (!a->gt.empty()) {
      gt = maptext::read_maptext(a->gt, {maptext::Kind::GroundTruth, false});
      o.gt = &gt;
    }
    if (!a->gazetteer.empty()) {
      LinkArgs la;
      la.gazetteer = a->gazetteer == "default" ? default_gazetteer() : a->gazetteer;
      la.georef = "names", la.images = a->images;  // a place where the map's names put it, when they agree
      la.quiet = true;
      o.places = link_places(la, linked).places;
    }
    const std::string images = a->images;
    view::write_view(linked, [&](const std::string& key) { return data::find_tile_image(images, key); }, a->out, o);
    if (!a->quiet) {
      size_t words = 0;
      for (const auto& t : linked) words += t.word_count();
      std::fprintf(stderr, "view: %zu image(s), %zu words -> %s/index.html (opens from disk, offline)\n", linked.size(), words, a->out.c_str());
    }
  });
}

}  // namespace light::cli

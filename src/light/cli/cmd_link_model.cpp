// `light link --model`: linking with a LIGHT model (light-full; docs/commands.md "light link --model").
#include <cstdio>
#include <filesystem>

#include "light/cli/commands.h"
#include "light/cli/link_args.h"
#include "light/data/model_polygons.h"
#include "light/data/tile_image.h"
#include "light/image/resize.h"
#include "light/maptext.h"
#include "light/link/line_judge.h"
#include "light/link/model_linking.h"
#include "light/error.h"
#include "light/spot/spotter.h"
#include "light/spot/spotter_config.h"
#include "light/util/fs.h"

namespace light::cli {

void run_link_with_model(const LinkArgs& a) {
  if (a.images.empty() && a.collection.empty())
    throw Error("linking with a model (--model, or the bundled default) needs --images DIR (the tiles the words were found on); "
                "--method distance|mst links without images");
  link::ModelLinkOptions mo;
  mo.tokenizer_dir = a.tokenizer;
  mo.device = a.device;
  mo.threads = a.threads;
  mo.max_length = a.max_length;
  mo.decoding = a.decoding;
  mo.decoding_by_option = true;
  mo.words_from = a.words_from;
  mo.split_repeats = !a.keep_repeated_words;
  mo.progress = !a.quiet && a.collection.empty();
  mo.polygon_points = a.polygon_points;
  mo.source = a.words;
  mo.judge_rows = !a.judge_rows.empty();
  if (mo.judge_rows && a.words.empty()) throw Error("--judge-rows: needs --words with their phrases (the true successors to fit to)");
  link::ModelLinkReport report;
  if (!a.collection.empty()) {  // the model loaded once for every map
    link::ModelLinker linker(a.model, mo);
    run_collection(a, [&](const maptext::Dataset& words, const std::string& images) {
      if (images.empty()) throw Error("no image: give --images DIR, or an image column in the manifest");
      maptext::Dataset out;
      for (const maptext::Tile& t : words) out.push_back(linker.link_file(t, data::find_tile_image(images, t.image), report));
      return out;
    });
  } else if (a.words.empty()) {  // from the images alone: the spotter reads them first
    // Everything read before any work: the model, the spotter and the list of images (a bad option
    // or an -o that is one of their files is refused before a folder is spotted).
    link::ModelLinker linker(a.model, mo);
    const std::string spotter_dir = a.spotter.empty() ? spot::default_spotter_dir() : a.spotter;
    spot::SpotOptions so = spot::spotter_settings(spotter_dir);  // the spotter's own, as `light spot` reads with it
    if (a.small_lettering) so.read_small_lettering();
    model::PredictorOptions runtime;
    runtime.threads = a.threads;
    runtime.device = a.device;
    spot::Spotter spotter(spotter_dir, runtime, so);
    const auto listed = spot::list_map_images(a.images);
    check_output_is_not_input("-o/--out", a.out);
    const maptext::Dataset data = spot::spot_images(spotter, listed, !a.quiet);
    const std::string images = std::filesystem::is_regular_file(a.images) ? std::filesystem::path(a.images).parent_path().string() : a.images;
    const auto linked = link::link_with_model(data, linker, images.empty() ? "." : images, mo.progress, &report);
    LinkArgs in_folder = a;  // an image given alone: its words' image keys are its name in its folder
    in_folder.images = images.empty() ? "." : images;
    write_link_output(in_folder, linked, &data);
  } else {
    const auto data = read_link_words(a);
    link::ModelLinker linker(a.model, mo);
    for (const maptext::Tile& t : data) note_input(data::find_tile_image(a.images, t.image), "an image this command reads");
    check_output_is_not_input("-o/--out", a.out);  // nor one of the tiles, nor a file of the model's
    if (mo.judge_rows) check_output_is_not_input("--judge-rows", a.judge_rows, {{"-o/--out", a.out}});
    const auto linked = link::link_with_model(data, linker, a.images, mo.progress, &report);
    if (mo.judge_rows) write_file_atomic(a.judge_rows, link::judge_rows_header() + linker.judge_rows());
    write_link_output(a, linked, &data);
  }
  if (const std::string note = data::degenerate_note(report.polygons); !note.empty()) std::fprintf(stderr, "note: %s\n", note.c_str());
  std::fprintf(stderr, "link: %zu tiles, %zu words (%zu seen by the model); %zu tile(s) in several windows; %zu successor cycle(s) broken\n",
               report.tiles, report.words, report.model_words, report.windowed_tiles, report.cycles_broken);
  if (report.spotted_tiles > 0)
    std::fprintf(stderr, "link: %zu tile(s) of a text spotter's words, decoded as such (--words-from)\n", report.spotted_tiles);
  if (report.polygons.resampled > 0)
    std::fprintf(stderr, "link: %zu word polygon(s) resampled to 16 points (--polygon-points %s)\n", report.polygons.resampled,
                 report.polygon_points.c_str());
}

}  // namespace light::cli

// `light link --model`: linking with a LIGHT model (light-full; docs/commands.md "light link --model").
#include <cstdio>

#include "light/cli/commands.h"
#include "light/cli/link_args.h"
#include "light/data/model_polygons.h"
#include "light/maptext.h"
#include "light/link/model_linking.h"
#include "light/error.h"

namespace light::cli {

void run_link_with_model(const LinkArgs& a) {
  if (a.images.empty())
    throw Error("linking with a model (--model, or the bundled default) needs --images DIR (the tiles the words were found on); "
                "--method distance|mst links without images");
  link::ModelLinkOptions mo;
  mo.tokenizer_dir = a.tokenizer;
  mo.device = a.device;
  mo.threads = a.threads;
  mo.max_length = a.max_length;
  mo.no_successor_bias = a.no_successor_bias;
  mo.progress = !a.quiet;
  mo.polygon_points = a.polygon_points;
  mo.source = a.words;
  const auto data = read_link_words(a);
  link::ModelLinkReport report;
  const auto linked = link::link_with_model(data, a.model, a.images, mo, &report);
  write_link_output(a, linked);
  if (const std::string note = data::degenerate_note(report.polygons); !note.empty()) std::fprintf(stderr, "note: %s\n", note.c_str());
  std::fprintf(stderr, "link: %zu tiles, %zu words (%zu seen by the model); %zu tile(s) in several windows; %zu successor cycle(s) broken\n",
               report.tiles, report.words, report.model_words, report.windowed_tiles, report.cycles_broken);
  if (report.polygons.resampled > 0)
    std::fprintf(stderr, "link: %zu word polygon(s) resampled to 16 points (--polygon-points %s)\n", report.polygons.resampled,
                 report.polygon_points.c_str());
}

}  // namespace light::cli

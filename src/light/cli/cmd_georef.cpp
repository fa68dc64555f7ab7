// `light georef --from-names`: each map of a linked file georeferenced from its own names matched to a
// gazetteer (docs/georeference-from-names.md): ground control points as QGIS/GDAL read them, a IIIF
// Georeference Annotation, and each phrase's place once the map is placed.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

#include "light/cli/commands.h"
#include "light/data/tile_image.h"
#include "light/error.h"
#include "light/geo/georeference_files.h"
#include "light/geo/map_names.h"
#include "light/image/resize.h"
#include "light/search/phrase_index.h"
#include "light/util/fs.h"

namespace light::cli {

namespace {

struct GeorefArgs {
  std::string linked, images, gazetteer, out, iiif_base, confusions;
  size_t min_names = 5;
  double tolerance = 0.02, max_rotation = 30;
  std::string anchor = "positions";
  bool overwrite = false, quiet = false;
};

void run_georef(const GeorefArgs& a) {
  if (a.anchor != "positions" && a.anchor != "edge" && a.anchor != "centre")
    throw Error("--anchor: expected positions, edge or centre, got \"" + a.anchor + "\"");
  if (a.min_names < 3) throw Error("--min-names: expected 3 or more (two names always agree)");
  if (!(a.tolerance > 0 && a.tolerance < 0.5)) throw Error("--tolerance: expected a fraction of the map's diagonal in (0, 0.5)");
  const std::string gazetteer_path = a.gazetteer.empty() ? default_gazetteer() : a.gazetteer;
  check_new_output_folder("-o/--out", a.out, a.overwrite);
  check_inputs_outside("-o/--out", a.out, {{"--from-names", a.linked}, {"--gazetteer", gazetteer_path}, {"--images", a.images}});
  const auto phrases = search::read_linked_phrases(a.linked);
  if (!phrases) throw Error(a.linked + " (--from-names): not a linked file (MapText JSON or light's GeoJSON)");
  const geo::Gazetteer g = geo::Gazetteer::open(gazetteer_path);
  const auto confusions = read_confusions(a.confusions);
  geo::NamesGeoreferenceOptions o;
  o.min_names = a.min_names, o.tolerance = a.tolerance, o.max_rotation = a.max_rotation;
  o.anchor = a.anchor == "positions" ? geo::NamesGeoreferenceOptions::Anchor::Positions
             : a.anchor == "edge"    ? geo::NamesGeoreferenceOptions::Anchor::Edge
                                     : geo::NamesGeoreferenceOptions::Anchor::Centre;
  std::map<std::string, std::string> paths;  // image key -> its file
  const auto size_of = [&](const std::string& image) {
    return image::image_size(paths[image] = data::find_tile_image(a.images, image));
  };
  const std::vector<geo::MapNames> maps = geo::match_maps(*phrases, g, true, size_of, o, confusions.get());
  std::map<std::string, std::string> stems;
  for (const geo::MapNames& m : maps) {
    if (stems.count(m.stem))
      throw Error(a.linked + ": images " + stems[m.stem] + " and " + m.image + " share the name " + m.stem + "; georeference them apart");
    stems[m.stem] = m.image;
  }
  check_output_is_not_input("-o/--out", a.out + "/georeferences.json", {{"--from-names", a.linked}, {"--gazetteer", gazetteer_path}});
  if (a.overwrite) clear_output_folder(a.out);
  make_folder("-o/--out", a.out);
  size_t done = 0;
  for (const geo::MapNames& m : maps) {
    if (!m.result.ok) continue;
    ++done;
    const std::string image = std::filesystem::absolute(paths[m.image]).lexically_normal().string();
    write_file_atomic(a.out + "/" + m.stem + ".points", geo::qgis_points(m));
    write_file_atomic(a.out + "/" + m.stem + ".vrt", geo::gdal_vrt(m, image, geo::image_bands(image)));
    write_file_atomic(a.out + "/" + m.stem + ".iiif.json", geo::iiif_georeference_annotation(m, a.iiif_base, "file://" + image));
  }
  write_file_atomic(a.out + "/georeferences.json", geo::georeferences_json(maps));
  if (!a.quiet) {
    for (const geo::MapNames& m : maps) {
      if (m.result.ok)
        std::fprintf(stderr, "%s: %zu names agree, %s, leave-one-out %.1f px (%.2f %% of the diagonal)\n", m.image.c_str(), m.result.gcps.size(),
                     geo::transform_name(m.result.kind), m.result.loo_rms_px, 100 * m.result.loo_rms_px / std::hypot(m.width, m.height));
      else
        std::fprintf(stderr, "%s: not georeferenced: %s\n", m.image.c_str(), m.result.reason.c_str());
    }
    std::fprintf(stderr, "georef: %zu of %zu maps georeferenced from their names -> %s/\n", done, maps.size(), a.out.c_str());
  }
}

}  // namespace

void add_georef_command(CLI::App& app) {
  auto a = std::make_shared<GeorefArgs>();
  CLI::App* cmd = app.add_subcommand("georef", "Georeference maps from their own names matched to a gazetteer");
  cmd->add_option("--from-names", a->linked, "A linked file (MapText JSON or light's GeoJSON): each map's phrases")->required();
  cmd->add_option("--images", a->images, "Folder holding the maps' images (for their sizes)")->required();
  cmd->add_option("--gazetteer", a->gazetteer, "An index made by `light gazetteer build` (default: GeoNames cities500)");
  cmd->add_option("-o,--out", a->out, "Output folder: per map NAME.points, NAME.vrt, NAME.iiif.json; georeferences.json")->required();
  cmd->add_option("--min-names", a->min_names, "Names that must agree on where a map lies")->capture_default_str();
  cmd->add_option("--tolerance", a->tolerance, "How far a place may lie from its label, a fraction of the map's diagonal")->capture_default_str();
  cmd->add_option("--max-rotation", a->max_rotation, "Degrees north may turn from up")->capture_default_str();
  cmd->add_option("--anchor", a->anchor, "Where a place lies by its label: positions (the nearest of the eight a cartographer uses), edge (of the label's box) or centre")
      ->capture_default_str();
  cmd->add_option("--confusions", a->confusions,
                  "The spotter's misreadings that cost less (printed, read, cost rows; none: every one an edit; default: the bundled spotter's)");
  cmd->add_option("--iiif-base", a->iiif_base, "The IIIF Image API base URL of the maps (each map's id: BASE/NAME)");
  cmd->add_flag("--overwrite", a->overwrite, "Replace an existing output folder");
  cmd->add_flag("-q,--quiet", a->quiet, "No report on standard error");
  cmd->callback([a] { run_georef(*a); });
}

}  // namespace light::cli

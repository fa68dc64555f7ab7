// `light georef --from-names`: each map of a linked file georeferenced from its own names matched to a
// gazetteer (docs/georeference-from-names.md): ground control points as QGIS/GDAL read them, a IIIF
// Georeference Annotation, and each phrase's place once the map is placed.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "light/cli/commands.h"
#include "light/data/tile_image.h"
#include "light/error.h"
#include "light/geo/georeference_files.h"
#include "light/geo/names_georeference.h"
#include "light/geo/place_matching.h"
#include "light/image/resize.h"
#include "light/search/phrase_index.h"
#include "light/util/bundled.h"
#include "light/util/fs.h"

namespace light::cli {

namespace {

struct GeorefArgs {
  std::string linked, images, gazetteer, out, iiif_base;
  size_t min_names = 5;
  double tolerance = 0.02, max_rotation = 30;
  std::string anchor = "positions";
  bool overwrite = false, quiet = false;
};

// A phrase's words' box and letter height (the median of its words' shorter box sides).
geo::LabelCandidates label_of(const search::Phrase& p) {
  geo::LabelCandidates l;
  l.x0 = l.y0 = 1e300, l.x1 = l.y1 = -1e300;
  std::vector<double> heights;
  for (const auto& w : p.words) {
    double wx0 = 1e300, wy0 = 1e300, wx1 = -1e300, wy1 = -1e300;
    for (const auto& v : w.vertices) wx0 = std::min(wx0, v.x), wy0 = std::min(wy0, v.y), wx1 = std::max(wx1, v.x), wy1 = std::max(wy1, v.y);
    l.x0 = std::min(l.x0, wx0), l.y0 = std::min(l.y0, wy0), l.x1 = std::max(l.x1, wx1), l.y1 = std::max(l.y1, wy1);
    heights.push_back(std::min(wx1 - wx0, wy1 - wy0));
  }
  std::sort(heights.begin(), heights.end());
  l.letter_px = heights.empty() ? 0 : heights[heights.size() / 2];
  return l;
}

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
  std::map<std::string, std::vector<size_t>> by_image;
  std::vector<std::string> order;
  for (size_t k = 0; k < phrases->size(); ++k) {
    auto& v = by_image[(*phrases)[k].image];
    if (v.empty()) order.push_back((*phrases)[k].image);
    v.push_back(k);
  }
  std::vector<geo::MapNames> maps;
  std::map<std::string, std::string> stems;
  for (const std::string& image : order) {
    geo::MapNames m;
    m.image = image;
    const std::string path = data::find_tile_image(a.images, image);
    std::tie(m.width, m.height) = image::image_size(path);
    m.stem = std::filesystem::path(image).stem().string();
    if (stems.count(m.stem)) throw Error(a.linked + ": images " + stems[m.stem] + " and " + image + " share the name " + m.stem + "; georeference them apart");
    stems[m.stem] = image;
    std::vector<std::string> texts;
    for (size_t k : by_image[image]) texts.push_back((*phrases)[k].text()), m.phrases.push_back((*phrases)[k]);
    m.matches = geo::match_places(g, texts);
    for (size_t i = 0; i < m.phrases.size(); ++i) {
      geo::LabelCandidates l = label_of(m.phrases[i]);
      for (const auto& c : m.matches[i].candidates) l.candidates.push_back({c.place.lon, c.place.lat, c.score});
      m.labels.push_back(std::move(l));
    }
    m.options.min_names = a.min_names, m.options.tolerance = a.tolerance, m.options.max_rotation = a.max_rotation;
    m.options.anchor = a.anchor == "positions" ? geo::NamesGeoreferenceOptions::Anchor::Positions
                       : a.anchor == "edge"    ? geo::NamesGeoreferenceOptions::Anchor::Edge
                                               : geo::NamesGeoreferenceOptions::Anchor::Centre;
    m.result = geo::georeference_from_names(m.labels, m.width, m.height, m.options);
    m.placed = m.result.placed(m.labels, m.width, m.height, m.options);
    maps.push_back(std::move(m));
  }
  check_output_is_not_input("-o/--out", a.out + "/georeferences.json", {{"--from-names", a.linked}, {"--gazetteer", gazetteer_path}});
  if (a.overwrite) clear_output_folder(a.out);
  make_folder("-o/--out", a.out);
  size_t done = 0;
  for (const geo::MapNames& m : maps) {
    if (!m.result.ok) continue;
    ++done;
    const std::string image = std::filesystem::absolute(data::find_tile_image(a.images, m.image)).lexically_normal().string();
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
  cmd->add_option("--iiif-base", a->iiif_base, "The IIIF Image API base URL of the maps (each map's id: BASE/NAME)");
  cmd->add_flag("--overwrite", a->overwrite, "Replace an existing output folder");
  cmd->add_flag("-q,--quiet", a->quiet, "No report on standard error");
  cmd->callback([a] { run_georef(*a); });
}

}  // namespace light::cli

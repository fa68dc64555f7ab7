// `light link`'s output: MapText JSON, GeoJSON or Web Annotations (docs/commands.md "Outputs").
#include <cstdio>
#include <filesystem>

#include "light/cli/link_args.h"
#include "light/error.h"
#include "light/maptext/spotter_formats.h"
#include "light/util/fs.h"

namespace light::cli {

void check_link_output(const LinkArgs& a) {
  const output::Format f = output::parse_format(a.format);
  if (a.georef != "none" && f != output::Format::GeoJson)
    throw Error("--georef: map coordinates are written in GeoJSON only (--format geojson)");
  if (!a.iiif_canvas.empty() && f != output::Format::WebAnnotation) throw Error("--iiif-canvas: only with --format webanno");
  if (a.georef != "none" && a.georef != "auto" && !std::filesystem::is_regular_file(a.georef))
    throw Error("--georef: expected none, auto or a QGIS .points file; \"" + a.georef + "\" is not a file");
  if (a.georef != "none" && a.images.empty()) throw Error("--georef: needs --images DIR (the map images hold or sit beside their georeferencing)");
}

maptext::Dataset read_link_words(const LinkArgs& a) {
  maptext::SpotterWords w = maptext::read_spotter_words(a.words);
  for (const auto& n : w.notes) std::fprintf(stderr, "note: %s\n", n.c_str());
  return std::move(w.data);
}

void write_link_output(const LinkArgs& a, const maptext::Dataset& linked) {
  switch (output::parse_format(a.format)) {
    case output::Format::MapText: maptext::write_maptext(a.out, linked); return;
    case output::Format::GeoJson: {
      output::GeoJsonOptions o;
      if (a.georef != "none") o.georeference = georeference_for(a, linked);
      write_file_atomic(a.out, output::geojson_text(linked, o));
      return;
    }
    case output::Format::WebAnnotation: {
      output::WebAnnotationOptions o;
      o.canvas = a.iiif_canvas;
      write_file_atomic(a.out, output::web_annotation_text(linked, o));
      return;
    }
  }
}

}  // namespace light::cli

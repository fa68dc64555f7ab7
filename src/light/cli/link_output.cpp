// `light link`'s output: MapText JSON, GeoJSON or Web Annotations (docs/commands.md "Outputs").
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "light/cli/link_args.h"
#include "light/data/tile_merge.h"
#include "light/error.h"
#include "light/link/collection.h"
#include "light/maptext/spotter_formats.h"
#include "light/util/progress.h"
#include "light/util/fs.h"

namespace light::cli {

void check_link_output(const LinkArgs& a) {
  if (!a.words.empty() && !a.collection.empty())
    throw Error("light link: give --words FILE|DIR (one output) or --collection DIR|MANIFEST (one output per map), not both");
  // Neither: the words are spotted on --images first (a model links them).
  if (a.words.empty() && a.collection.empty() && a.images.empty())
    throw Error("light link: give --words FILE|DIR (the words to link), --collection DIR|MANIFEST (one output per map), or --images "
                "alone (the bundled spotter reads the words on the map images first)");
  if (!a.spotter.empty() && !a.words.empty()) throw Error("--spotter: only without --words (the words are given)");
  if (!a.shard.empty() && a.collection.empty()) throw Error("--shard: only with --collection");
  if (a.merge_tiles < 0 || !std::isfinite(a.merge_tiles)) throw Error("--merge-tiles: expected the tiles' stride in pixels (above 0)");
  if (!(a.merge_ioa > 0 && a.merge_ioa <= 1)) throw Error("--merge-ioa: expected a fraction in (0, 1]");
  const output::Format f = output::parse_format(a.format);
  if (a.georef != "none" && f != output::Format::GeoJson)
    throw Error("--georef: map coordinates are written in GeoJSON only (--format geojson)");
  if (!a.iiif_canvas.empty() && f != output::Format::WebAnnotation) throw Error("--iiif-canvas: only with --format webanno");
  if (a.collection.empty() && a.georef != "none" && a.georef != "auto" && a.georef != "names" && !std::filesystem::is_regular_file(a.georef))
    throw Error("--georef: expected none, auto, names or a QGIS .points file; \"" + a.georef + "\" is not a file");
  if (!a.gazetteer.empty() && f == output::Format::MapText)
    throw Error("--gazetteer: places are written in GeoJSON or Web Annotations (--format geojson|webanno); for MapText, `light place` "
                "matches a linked file's phrases");
  if (!a.gazetteer.empty() && !std::filesystem::is_regular_file(a.gazetteer))
    throw Error("--gazetteer: \"" + a.gazetteer + "\" is not a file (an index made by `light gazetteer build`)");
  if (a.collection.empty() && a.georef != "none" && a.images.empty()) throw Error("--georef: needs --images DIR (the map images hold or sit beside their georeferencing)");
}

maptext::Dataset read_link_words(const LinkArgs& a) { return read_link_words_file(a.words, a); }

maptext::Dataset read_link_words_file(const std::string& path, const LinkArgs& a) {
  maptext::SpotterWords w = maptext::read_spotter_words(path);
  for (const auto& n : w.notes) std::fprintf(stderr, "note: %s\n", n.c_str());
  if (a.merge_tiles == 0) return std::move(w.data);
  data::TileMergeReport r;
  maptext::Dataset maps;
  try {
    maps = data::merge_tiles(w.data, {a.merge_tiles, a.merge_ioa}, &r);
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
  if (!a.quiet)
    std::fprintf(stderr, "merge-tiles: %s: %zu tile(s) onto %zu map(s), %zu word(s) found twice in overlaps kept once\n", path.c_str(), r.tiles,
                 r.maps, r.duplicates);
  return maps;
}

void write_link_output(const LinkArgs& a, const maptext::Dataset& linked, const maptext::Dataset* input) {
  check_output_is_not_input("-o/--out", a.out);  // nor any file read on the way (an image, the model's, the spotter's)
  switch (output::parse_format(a.format)) {
    case output::Format::MapText: maptext::write_maptext(a.out, linked); return;
    case output::Format::GeoJson: {
      output::GeoJsonOptions o;
      const LinkPlaces places = !a.gazetteer.empty() || a.georef == "names" ? link_places(a, linked) : LinkPlaces{};
      const maptext::Dataset& words = places.reread ? *places.reread : linked;
      o.places = places.places;
      if (a.georef == "names") o.georeference = places.georeference;
      else if (a.georef != "none") o.georeference = georeference_for(a, linked);
      o.input = input;
      size_t renamed = 0;
      o.own_index_renamed = &renamed;
      write_file_atomic(a.out, output::geojson_text(words, o));
      if (renamed > 0)
        std::fprintf(stderr, "note: %s: %zu word(s) carry their own \"index\", kept as \"spotter_index\" (light's \"index\" is the word's place in the words file)\n",
                     a.out.c_str(), renamed);
      return;
    }
    case output::Format::WebAnnotation: {
      output::WebAnnotationOptions o;
      o.canvas = a.iiif_canvas;
      if (!a.gazetteer.empty()) o.places = link_places(a, linked).places;
      write_file_atomic(a.out, output::web_annotation_text(linked, o));
      return;
    }
  }
}

}  // namespace light::cli

namespace light::cli {

void run_collection(const LinkArgs& a, const LinkFn& link) {
  namespace fs = std::filesystem;
  const std::vector<link::MapJob> jobs = link::shard(link::read_collection(a.collection), a.shard);
  if (fs::exists(a.out) && !fs::is_directory(a.out)) throw Error("-o/--out: with --collection, a folder for one output per map; \"" + a.out + "\" is a file");
  std::error_code ec;
  if (fs::is_directory(a.collection) && fs::exists(a.out) && fs::equivalent(a.collection, a.out, ec))
    throw Error("-o/--out " + a.out + ": is the --collection folder; the outputs would land among the words files (and be taken for maps "
                "next time): give another folder");
  const output::Format format = output::parse_format(a.format);
  for (const auto& j : jobs) {
    const std::string georef = j.georef.empty() ? a.georef : j.georef;
    if (!j.georef.empty() && j.georef != "none" && format != output::Format::GeoJson)
      throw Error(a.collection + ": map \"" + j.name + "\" has georef \"" + j.georef + "\", which needs --format geojson");
    if (georef == "auto" && j.image.empty() && a.images.empty())
      throw Error(a.collection + ": map \"" + j.name + "\" has georef auto, which reads the map's image: give the manifest an image column or --images");
  }
  const std::string ext = format == output::Format::GeoJson ? ".geojson" : format == output::Format::WebAnnotation ? ".jsonld" : ".json";
  std::vector<const link::MapJob*> todo;
  for (const auto& j : jobs)
    if (!fs::exists(fs::path(a.out) / (j.name + ext))) todo.push_back(&j);
  fs::create_directories(a.out);
  if (!a.quiet)
    std::fprintf(stderr, "link: %zu map(s) in this share%s; %zu already linked in %s, %zu to go\n", jobs.size(),
                 a.shard.empty() ? "" : (" (--shard " + a.shard + ")").c_str(), jobs.size() - todo.size(), a.out.c_str(), todo.size());
  Progress bar("link", todo.size(), "maps");
  size_t failed = 0;
  for (const link::MapJob* j : todo) {
    try {
      maptext::Dataset words = read_link_words_file(j->words, a);
      std::string images = a.images;
      if (!j->image.empty()) {
        images = fs::path(j->image).parent_path().string();
        if (words.size() != 1)
          throw Error("the manifest names one image (" + j->image + ") for " + std::to_string(words.size()) +
                      " images' words; leave its image empty and give --images");
        words[0].image = fs::path(j->image).filename().string();  // the manifest names the map's image
      }
      const maptext::Dataset linked = link(words, images);
      LinkArgs ja = a;
      ja.images = images;
      ja.georef = j->georef.empty() ? a.georef : j->georef;
      ja.out = (fs::path(a.out) / (j->name + ext)).string();
      check_output_is_not_input("-o/--out", ja.out, {{"words", j->words}});
      write_link_output(ja, linked, &words);
      size_t n = 0;
      for (const auto& t : words) n += t.word_count();
      if (!a.quiet) bar.add(1, n, "words");
    } catch (const Error& e) {
      ++failed;
      std::fprintf(stderr, "%slight: error: map \"%s\" (%s): %s\n", a.quiet ? "" : "\n", j->name.c_str(), j->words.c_str(), e.what());
    }
  }
  if (!a.quiet) bar.finish();
  if (failed > 0)
    throw Error(std::to_string(failed) + " of " + std::to_string(todo.size()) + " map(s) failed (named above); the others are in " + a.out +
                "; run again to retry the failed ones");
}

}  // namespace light::cli

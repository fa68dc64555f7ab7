// `light link`: group the loose words of every tile into ordered phrases (see docs/commands.md, "light link").
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "light/cli/commands.h"
#include "light/cli/link_args.h"
#include "light/link/default_model.h"
#include "light/link/heuristic_linking.h"
#include "light/model/decoding_settings.h"
#include "light/maptext.h"
#include "light/error.h"
#include "light/util/fs.h"

namespace light::cli {

namespace {
// A note for each option given that this command line does not use (it would be silently ignored).
void note_unused_options(const CLI::App& cmd, const LinkArgs& a) {
  const auto given = [&](const char* name) { return cmd.count(name) > 0; };
  const std::string why = a.method.empty() ? "" : "--method " + a.method + " (it is the model's)";
  if (!a.method.empty()) {
    std::vector<std::string> model_options = {"--tokenizer", "--device", "--max-length", "--words-from", "--polygon-points", "--keep-repeated-words",
                                              "--judge-rows"};
    for (const model::DecodingSetting& s : model::decoding_settings())
      if (*s.option) model_options.push_back(s.option);
    for (const std::string& o : model_options)
      if (given(o.c_str())) std::fprintf(stderr, "note: %s is not used with %s\n", o.c_str(), why.c_str());
  }
  if ((!a.words.empty() || !a.method.empty()) && given("--small-lettering"))
    std::fprintf(stderr, "note: --small-lettering is not used with --words or --method (it is the spotter's, reading --images)\n");
  if (a.method.empty() && given("--order")) std::fprintf(stderr, "note: --order is not used by a model (it orders the heuristics' phrases)\n");
  if (a.method != "mst" && given("--weights")) std::fprintf(stderr, "note: --weights is not used here (the MST heuristic's edge costs)\n");
  if (!given("--merge-tiles") && given("--merge-ioa")) std::fprintf(stderr, "note: --merge-ioa is not used without --merge-tiles\n");
  if (a.georef == "none" && a.collection.empty())
    for (const char* o : {"--georef-transform", "--georef-crs"})
      if (given(o)) std::fprintf(stderr, "note: %s is not used without --georef\n", o);
}

void run_link(const LinkArgs& a) {
  if (!a.model.empty() && !a.method.empty()) throw Error("light link: give --model DIR or --method distance|mst, not both");
  check_link_output(a);
  if (a.method.empty()) {  // a model: the one named, else the bundled default
    LinkArgs m = a;
    if (m.model.empty())
      m.model = link::require_default_model(executable_dir(), "light link", "give --model DIR, set LIGHT_MODEL, or link with --method distance|mst");
    check_output_is_not_input("-o/--out", m.out, {{"--words", m.words}, {"--model", m.model}, {"--images", m.images}, {"--tokenizer", m.tokenizer}});
    return run_link_with_model(m);
  }
  check_output_is_not_input("-o/--out", a.out, {{"--words", a.words}});
  if (a.words.empty() && a.collection.empty())
    throw Error("light link --method " + a.method + ": give --words (a heuristic links words it is given; without --words, the model "
                "links the words the spotter reads on --images)");
  link::HeuristicOptions opt;
  opt.method = baselines::parse_method(a.method);
  opt.order = link::parse_order(a.order);
  if (a.weights.size() != 3) throw Error("--weights: expected three numbers a,b,c");
  for (double w : a.weights)
    if (!(std::isfinite(w) && w >= 0 && w <= 1e6)) throw Error("--weights: expected three numbers from 0 to 1e6, got " + std::to_string(w));
  opt.weights = {a.weights[0], a.weights[1], a.weights[2]};
  opt.threads = a.threads;
  opt.progress = !a.quiet && a.collection.empty();
  if (!a.collection.empty())
    return run_collection(a, [&opt](const maptext::Dataset& words, const std::string&) { return link::link_heuristic(words, opt); });
  const auto data = read_link_words(a);
  const auto linked = link::link_heuristic(data, opt);
  write_link_output(a, linked, &data);
}
}  // namespace

void add_link_command(CLI::App& app) {
  auto args = std::make_shared<LinkArgs>();
  CLI::App* cmd = app.add_subcommand("link", "Link the words of every tile into ordered phrases");
  cmd->add_option("--model", args->model,
                  std::string("LIGHT model folder (config.json, model.safetensors, tokenizer files); default: the bundled ") +
                      link::kDefaultModelName + " (or $LIGHT_MODEL) unless --method is given");
  cmd->add_option("--images", args->images, "Folder holding the tiles (with --model)");
  cmd->add_option("--tokenizer", args->tokenizer, "Tokenizer folder, if not in the model folder (with --model)");
  cmd->add_option("--device", args->device, "cpu | cuda (with --model)")->capture_default_str();
  cmd->add_option("--max-length", args->max_length, "Token window (with --model)")->capture_default_str();
  // The decoding settings (model/decoding_settings.h), each instead of the model config's.
  for (const model::DecodingSetting& s : model::decoding_settings())
    if (*s.option) {
      const std::string key = s.key;
      cmd->add_option_function<double>(s.option, [args, key](double v) { args->decoding[key] = v; },
                                       std::string(s.help) + " (default: the model's config)");
    }
  cmd->add_option("--words-from", args->words_from,
                  "auto | spotter | annotation: whose words these are, for the decoding: a text spotter's are decoded with the "
                  "model's factor for spotted words (auto: a tile whose every word carries a \"score\", as `light spot` writes)")
      ->check(CLI::IsMember({"auto", "spotter", "annotation"}))
      ->capture_default_str();
  cmd->add_flag("--keep-repeated-words", args->keep_repeated_words,
                "Keep a phrase that holds one word twice with other words between (\"15th Ave. 15th\") as the model "
                "decoded it; by default it is cut at its weakest link between the two (a name repeated along a street)");
  cmd->add_option("--judge-rows", args->judge_rows,
                  "FILE: with --words whose phrases are known, write each word's decoding row and its true successor here (JSON "
                  "lines), to fit the line judge to (scripts/fit-line-judge.py)");
  cmd->add_option("--polygon-points", args->polygon_points,
                  "resample | keep: how word polygons reach the model (default: as the model was trained, its config's "
                  "polygon_points; docs/commands.md)")
      ->check(CLI::IsMember({"resample", "keep"}));
  cmd->add_option("--method", args->method, "distance | mst (heuristic linkers; no model needed)");
  cmd->add_option("--words", args->words,
                  "Words to link: MapText JSON (ground truth or spotter output), a per-image spotter file, GeoJSON, or a folder of them");
  cmd->add_option("--spotter", args->spotter,
                  "Without --words: the spotter folder that finds and reads the words on --images first (default: the bundled one)");
  cmd->add_flag("--small-lettering", args->small_lettering,
                "Without --words: the spotter reads the map once more, enlarged, for lettering much smaller than most of it "
                "(as light spot --small-lettering)");
  cmd->add_option("--collection", args->collection,
                  "Many maps, one output each in the -o folder: a folder of words files, or a manifest (CSV or JSON lines: words, image, georef, name)");
  cmd->add_option_function<double>(
      "--merge-tiles",
      [args](double v) {
        if (!(v > 0 && v <= 1e7)) throw Error("--merge-tiles: expected the tiles' stride in pixels, above 0 and at most 1e7, got " + CLI::detail::to_string(v));
        args->merge_tiles = v;
      },
      "STRIDE: tiles named MAP_h<row>_w<col> put back on their map (moved by row and column times STRIDE px), words in overlaps once");
  cmd->add_option("--merge-ioa", args->merge_ioa, "With --merge-tiles: two words are one when their overlap covers this share of the smaller")
      ->capture_default_str();
  cmd->add_option("--shard", args->shard, "K/N: with --collection, this machine's share (the maps whose name hashes to K of N)");
  cmd->add_option("-o,--out", args->out, "Output file: MapText JSON (predictions, regrouped), GeoJSON or Web Annotations (--format)")->required();
  cmd->add_option("--format", args->format, "maptext | geojson (a Feature per phrase) | webanno (W3C Web Annotations for IIIF viewers)")
      ->check(CLI::IsMember({"maptext", "geojson", "webanno"}))
      ->capture_default_str();
  cmd->add_option("--georef", args->georef,
                  "GeoJSON in longitude/latitude: none | auto (each image's GeoTIFF tags, world file or .aux.xml, else IMAGE.points) | "
                  "a QGIS .points file | names (each map placed by its own names matched to --gazetteer)")
      ->capture_default_str();
  cmd->add_option("--gazetteer", args->gazetteer,
                  "Match the phrases to places of this gazetteer index (default with --georef names: GeoNames cities500); geojson, webanno");
  cmd->add_option("--reread", args->reread,
                  "With --georef names: auto (words a spotter read unsurely read again against the names of the places near them, "
                  "each keeping its reading as \"read_as\") | none")
      ->check(CLI::IsMember({"auto", "none"}))
      ->capture_default_str();
  cmd->add_option("--georef-transform", args->georef_transform, "auto | affine | poly1 | poly2 | poly3 | tps (as GDAL's)")
      ->check(CLI::IsMember({"auto", "affine", "poly1", "poly2", "poly3", "tps"}))
      ->capture_default_str();
  cmd->add_option("--georef-crs", args->georef_crs, "The map coordinates' CRS when the georeferencing names none (e.g. EPSG:3857)");
  cmd->add_option("--iiif-canvas", args->iiif_canvas, "The IIIF canvas URI the annotations target ({image}: the image key) (webanno)");
  cmd->add_option("--order", args->order, "path (follow the links) | yx (sort each phrase by y, then x)")
      ->capture_default_str();
  cmd->add_option("--weights", args->weights, "Edge cost weights a,b,c of D·HR^a·(1+b·S)·(1+c·C) (mst)")
      ->delimiter(',')
      ->expected(3);
  cmd->add_option("--threads", args->threads, "Worker threads (0 = all cores)")->capture_default_str();
  cmd->add_flag("-q,--quiet", args->quiet, "No progress line");
  cmd->callback([args, cmd] {
    note_unused_options(*cmd, *args);
    run_link(*args);
  });
}

}  // namespace light::cli

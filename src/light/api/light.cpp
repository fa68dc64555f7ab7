// The public API (include/light/light.h) over the pipelines: options translated, nothing else.
#include "light/light.h"

#include <string>

#include "light/error.h"

#include "light/data/tile_image.h"
#include "light/eval/evaluator.h"
#include "light/export/phrases.h"
#include "light/geo/gazetteer_index.h"
#include "light/geo/georeference_files.h"
#include "light/geo/map_names.h"
#include "light/geo/image_georeferences.h"
#include "light/image/resize.h"
#include "light/link/heuristic_linking.h"
#include "light/maptext/spotter_formats.h"
#include "light/link/default_model.h"
#include "light/search/phrase_index.h"
#include "light/train/trainer.h"
#include "light/util/parallel.h"

namespace light {

const char* version() { return "0.1.0"; }

EvalResult evaluate(const maptext::Dataset& gt, const maptext::Dataset& pred, const EvalOptions& options) {
  eval::Options o;
  o.protocol = eval::parse_protocol(options.protocol);
  o.task = eval::parse_task(options.task, o.protocol);
  if (!(options.iou_threshold >= 0 && options.iou_threshold < 1))
    throw Error("iou_threshold: expected a number in [0, 1), got " + std::to_string(options.iou_threshold));
  o.iou_threshold = options.iou_threshold;
  o.gt_regex = options.gt_regex;
  o.threads = checked_threads(options.threads);
  eval::Report r = eval::evaluate(gt, pred, o);
  return {std::move(r.overall), std::move(r.warnings)};
}

maptext::Dataset link_by_heuristic(const maptext::Dataset& words, const LinkByHeuristicOptions& options) {
  link::HeuristicOptions o;
  o.method = baselines::parse_method(options.method);
  o.order = link::parse_order(options.order);
  o.threads = checked_threads(options.threads);
  return link::link_heuristic(words, o);
}

std::string default_model() { return link::find_default_model(executable_dir()); }

Image read_image(const std::string& path) {
  image::RgbImage im = image::read_rgb(path);
  return {im.width, im.height, std::move(im.rgb)};
}

std::string find_tile_image(const std::string& images_dir, const std::string& image_key) {
  return data::find_tile_image(images_dir, image_key);
}

namespace {
maptext::Dataset words_of(maptext::SpotterWords w, std::vector<std::string>* notes) {
  if (notes) notes->insert(notes->end(), w.notes.begin(), w.notes.end());
  return std::move(w.data);
}
}  // namespace

maptext::Dataset read_words(const std::string& path, std::vector<std::string>* notes) {
  return words_of(maptext::read_spotter_words(path), notes);
}

maptext::Dataset parse_words(const std::string& json_text, const std::string& source, std::vector<std::string>* notes) {
  return words_of(maptext::parse_spotter_words(json_text, source), notes);
}

namespace {
std::vector<SearchMatch> matches_of(const search::PhraseIndex& index, const std::string& query, const SearchOptions& options) {
  if (options.max_edits < -1) throw Error("max_edits: expected a number of character edits, 0 or more (or -1: by the query's length)");
  search::FindOptions o;
  o.max_edits = options.max_edits;
  o.parts = !options.whole;
  o.limit = options.limit;
  std::vector<search::Match> found;
  try {
    found = index.find(query, o);
  } catch (const Error& e) {
    throw Error("QUERY: " + std::string(e.what()));
  }
  std::vector<SearchMatch> out;
  for (const search::Match& m : found) {
    const search::Phrase p = index.phrase(m.phrase);
    SearchMatch r;
    r.text = p.text(), r.file = p.file, r.image = p.image, r.group = p.group;
    r.edits = m.edits, r.distance = m.distance, r.whole = m.whole, r.first_word = m.first_word, r.last_word = m.last_word;
    for (const search::PhraseWord& w : p.words) {
      maptext::Word word;
      word.text = w.text;
      word.vertices = w.vertices;
      r.words.push_back(std::move(word));
    }
    r.lonlat = p.lonlat;
    out.push_back(std::move(r));
  }
  return out;
}
}  // namespace

std::vector<SearchMatch> search_phrases(const std::string& query, const maptext::Dataset& linked, const SearchOptions& options) {
  return matches_of(search::PhraseIndex(search::dataset_phrases(linked)), query, options);
}

std::vector<SearchMatch> search_files(const std::string& query, const std::string& in, const SearchOptions& options) {
  return matches_of(search::open_for_search(in), query, options);
}

std::string places(const maptext::Dataset& linked, const PlacesOptions& options) {
  if (options.georeference && options.images_dir.empty()) throw Error("georeference: give images_dir, the folder holding the map images (their sizes)");
  const geo::Gazetteer g = geo::Gazetteer::open(options.gazetteer.empty() ? geo::default_gazetteer(executable_dir(), "gazetteer") : options.gazetteer);
  const auto size_of = [&](const std::string& image) { return image::image_size(data::find_tile_image(options.images_dir, image)); };
  // The bundled spotter's misreadings, as `light place` and `light georef` weigh them.
  const std::string table = geo::default_confusions_path(executable_dir());
  const std::optional<geo::ReadConfusions> confusions = table.empty() ? std::nullopt : std::optional(geo::ReadConfusions::read(table));
  const std::vector<geo::MapNames> maps =
      geo::match_maps(search::dataset_phrases(linked), g, options.georeference, size_of, {}, confusions ? &*confusions : nullptr);
  return geo::georeferences_json(maps);
}

std::string to_geojson(const maptext::Dataset& linked, const GeoJsonOptions& options) {
  output::GeoJsonOptions o;
  o.input = options.words;
  if (options.georef != "none") {
    if (options.images_dir.empty()) throw Error("georef " + options.georef + ": give images_dir, the folder holding the map images");
    o.georeference = geo::georeference_images(linked, options.images_dir, options.georef, {}, "georef").for_image;
  }
  return output::geojson_text(linked, o);
}

std::string to_web_annotations(const maptext::Dataset& linked, const std::string& canvas) {
  output::WebAnnotationOptions o;
  o.canvas = canvas;
  return output::web_annotation_text(linked, o);
}

maptext::Dataset link_by_model(const maptext::Dataset& words, const std::string& model_dir, const std::string& images_dir,
                               const LinkByModelOptions& options, LinkByModelReport* report) {
  if (model_dir.empty()) throw Error("link_by_model: give a model folder (default_model() is the bundled one)");
  Linker linker(model_dir, options);
  LinkByModelReport r;
  maptext::Dataset out = linker.link(words, images_dir, &r);
  if (report) *report = r;
  return out;
}

FineTuneResult fine_tune(const FineTuneOptions& options) {
  train::TrainOptions o;
  o.train_json = options.train_json, o.train_images = options.train_images;
  o.val_json = options.val_json, o.val_images = options.val_images;
  o.out_dir = options.out_dir, o.tokenizer_dir = options.tokenizer;
  o.init = options.init, o.config = options.config;
  o.max_epochs = options.max_epochs, o.batch_size = options.batch_size, o.threads = checked_threads(options.threads);
  o.lr = options.lr, o.seed = options.seed, o.device = options.device, o.progress = options.progress;
  const train::TrainSummary s = train::train(o);
  return {s.epochs, s.best_epoch, s.best_val_loss, s.best_edges_fscore};
}

}  // namespace light

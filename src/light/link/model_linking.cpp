#include "light/link/model_linking.h"

#include <cmath>
#include <filesystem>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "light/data/inputs.h"
#include "light/data/scale_windows.h"
#include "light/data/tile_image.h"
#include "light/geo/raster.h"
#include "light/image/resize.h"
#include "light/link/decode.h"
#include "light/link/decoding_prior.h"
#include "light/link/line_alignment.h"
#include "light/link/line_judge.h"
#include "light/link/paths.h"
#include "light/model/decoding_settings.h"
#include "light/model/predictor.h"
#include "light/text/bpe.h"
#include "light/error.h"
#include "light/util/progress.h"

namespace light::link {

struct ModelLinker::Impl {
  model::Predictor model;
  text::BpeTokenizer tok;
  data::SpecialIds special;
  data::Tokenize tokenize;
  int max_length;
  DecodingPrior prior;
  DecodingPrior spotted_prior;  // for a spotter's words (ModelLinkOptions::words_from)
  enum class WordsFrom { Auto, Spotter, Annotation } words_from = WordsFrom::Auto;
  data::PolygonPoints polygon_points;
  double polygon_height = 1;
  double other_windows = 0;  // data::WindowMerge's factor on the words beyond a word's most central window
  bool split_repeats = true;
  LineJudge judge;            // empty: none (the alignment and baseline priors instead)
  LineJudge spotted_judge;    // for a spotter's words (config spotted_line_judge; empty: their priors)
  bool collect_rows = false;  // ModelLinkOptions::judge_rows
  std::string rows;
  std::string source;
  // The polygons as the model reads them: its points (polygon_points), at its share of their height.
  maptext::Tile seen(const maptext::Tile& tile, data::PolygonReport* report = nullptr) const {
    return data::polygons_at_height(data::model_polygons(tile, polygon_points, source, report), polygon_height);
  }
  Impl(const std::string& model_dir, const ModelLinkOptions& opt)
      : Impl(model::Predictor(model_dir, {opt.device, opt.threads}),
             text::BpeTokenizer::from_folder(opt.tokenizer_dir.empty() ? model_dir : opt.tokenizer_dir),
             opt.tokenizer_dir.empty() ? model_dir : opt.tokenizer_dir, opt, (std::filesystem::path(model_dir) / "config.json").string()) {}
  // `where`: the tokenizer's folder, `where_config` the model's config, for messages.
  Impl(model::Predictor&& m, text::BpeTokenizer&& t, const std::string& where, const ModelLinkOptions& opt,
       const std::string& where_config = "the model's config")
      : model(std::move(m)),
        tok(std::move(t)),
        special(tok.special_ids()),
        max_length(opt.max_length),
        polygon_points(opt.polygon_points.empty() ? model.config().polygon_points
                                                  : data::parse_polygon_points(opt.polygon_points, "--polygon-points")),
        split_repeats(opt.split_repeats),
        source(opt.source.empty() ? "words" : opt.source) {
    if (opt.words_from == "spotter") words_from = WordsFrom::Spotter;
    else if (opt.words_from == "annotation") words_from = WordsFrom::Annotation;
    else if (opt.words_from != "auto") throw Error("--words-from: expected auto, spotter or annotation, got \"" + opt.words_from + "\"");
    model::check_max_length(opt.max_length, model.config());
    // The model's decoding (its config), each setting given in `decoding` put in its place, checked.
    const model::ModelConfig c = model::with_decoding(model.config(), opt.decoding, opt.decoding_by_option);
    prior.no_successor_bias = c.no_successor_bias;
    prior.no_successor_exponent = c.no_successor_exponent;
    prior.above = c.reading_prior_above;
    prior.next_line = c.reading_prior_next_line;
    prior.lettering = c.lettering_prior;
    prior.figures = c.figure_prior;
    prior.alignment = c.alignment_prior;
    prior.baseline = c.baseline_prior;
    polygon_height = c.polygon_height;
    other_windows = c.other_window_prior;
    judge = LineJudge::from_weights(c.line_judge_weights, c.line_judge, where_config + ": line_judge_weights");
    // A factor given for every word (the command line's --line-judge) is a spotter's words' too.
    spotted_judge = LineJudge::from_weights(c.line_judge_weights,
                                            opt.decoding.count("line_judge") && !opt.decoding.count("spotted_line_judge") ? c.line_judge
                                                                                                                        : c.spotted_line_judge,
                                            where_config + ": line_judge_weights");
    collect_rows = opt.judge_rows;
    prior.line_judge = !judge.empty() || collect_rows;
    spotted_prior = prior;
    spotted_prior.line_judge = !spotted_judge.empty() || collect_rows;
    // A factor given for every word is a spotter's words' too.
    if (!opt.decoding.count("no_successor_bias") && c.spotted_no_successor_bias > 0) spotted_prior.no_successor_bias = c.spotted_no_successor_bias;
    if (c.spotted_baseline_log_height > 0) spotted_prior.baseline_tolerance.log_height = c.spotted_baseline_log_height;
    if (c.spotted_baseline_degrees > 0) spotted_prior.baseline_tolerance.degrees = c.spotted_baseline_degrees;
    const int64_t vocab = model.config().layoutlmv3.vocab_size;
    // A few added tokens past the vocabulary (a <mask> for pretraining) never come out of a word; a
    // tokenizer most of whose ids lie past it is another model's (its words would encode to nothing).
    if (tok.ids_from(vocab) > 8)
      throw Error(where + " (--tokenizer): ids up to " + std::to_string(tok.max_id()) +
                  " do not fit the model's vocabulary of " + std::to_string(vocab) + ": not this model's tokenizer");
    tokenize = [this, vocab](const std::string& w) {
      std::vector<int64_t> ids = tok.encode_word(w);
      for (int64_t id : ids)
        if (id < 0 || id >= vocab)
          throw Error("the tokenizer gives id " + std::to_string(id) + " for \"" + w + "\", outside the model's vocabulary of " +
                      std::to_string(vocab) + ": wrong tokenizer for this model");
      return ids;
    };
  }
};

const std::string& ModelLinker::judge_rows() const { return impl_->rows; }

bool spotted_words(const maptext::Tile& tile) {
  if (tile.word_count() == 0) return false;
  for (const maptext::Group& g : tile.groups)
    for (const maptext::Word& w : g) {
      if (w.extra.empty()) return false;
      const nlohmann::json j = nlohmann::json::parse(w.extra, nullptr, false);
      if (!j.is_object() || !j.contains("score") || !j["score"].is_number()) return false;
    }
  return true;
}

ModelLinker::ModelLinker(const std::string& model_dir, const ModelLinkOptions& options)
    : impl_(std::make_unique<Impl>(model_dir, options)) {}
ModelLinker::ModelLinker(model::Predictor model, text::BpeTokenizer tokenizer, const ModelLinkOptions& options)
    : impl_(std::make_unique<Impl>(std::move(model), std::move(tokenizer), "the tokenizer", options)) {}
ModelLinker::~ModelLinker() = default;

maptext::Tile ModelLinker::link(const maptext::Tile& tile, const image::RgbImage& img, ModelLinkReport& r) {
  return link_image(tile, img.width, img.height, img, nullptr, r);
}

maptext::Tile ModelLinker::link_file(const maptext::Tile& tile, const std::string& path, ModelLinkReport& r) {
  const model::ModelConfig& config = impl_->model.config();
  // A map read through several windows: decoded and resized to the windows' scale by GDAL in strips
  // of rows, never whole (the same pixels as resizing the whole image).
  if (config.window_word_height > 0)
    if (const auto size = geo::raster_size(path)) {
      const auto [w, h] = *size;
      const maptext::Tile seen = impl_->seen(tile);
      const data::InferencePlan plan = data::plan_inference(seen, w, h, config.window_word_height);
      if (plan.regions.size() > 1 && !data::select_words(seen, w, h, {}).empty()) {
        const double f = config.layoutlmv3.input_size / plan.side;
        const auto scaled = geo::read_rgb_resized(path, std::max(1, static_cast<int>(std::lround(w * f))),
                                                  std::max(1, static_cast<int>(std::lround(h * f))));
        if (scaled) return link_image(tile, w, h, image::RgbImage{}, &*scaled, r);
      }
    }
  return link(tile, image::read_rgb(path), r);
}

maptext::Tile ModelLinker::link_image(const maptext::Tile& tile, int width, int height, const image::RgbImage& img,
                                      const image::RgbImage* at_scale, ModelLinkReport& r) {
  const model::ModelConfig& config = impl_->model.config();
  impl_->model.use_own_threads();  // the windows' resize (OpenMP) runs with this linker's threads too
  r.words += tile.word_count();
  r.polygon_points = data::polygon_points_name(impl_->polygon_points);
  // The model reads the polygons as it was trained to (and at its config's share of their height);
  // the output keeps the words as they came.
  const maptext::Tile seen = impl_->seen(tile, &r.polygons);
  // A spotter's words, where the model (or the command line) decodes them otherwise than drawn ones.
  const bool otherwise = impl_->spotted_prior.no_successor_bias != impl_->prior.no_successor_bias ||
                        impl_->spotted_prior.baseline_tolerance != impl_->prior.baseline_tolerance ||
                        impl_->spotted_judge.weights != impl_->judge.weights;
  const bool spotted = otherwise && (impl_->words_from == Impl::WordsFrom::Spotter ||
                                     (impl_->words_from == Impl::WordsFrom::Auto && spotted_words(tile)));
  const DecodingPrior& prior = spotted ? impl_->spotted_prior : impl_->prior;
  r.spotted_tiles += spotted;
  const auto words = data::select_words(seen, width, height, {});
  const size_t n = words.size();
  r.model_words += n;
  std::vector<size_t> sources;
  for (const auto& w : words) sources.push_back(w.source);
  // Each word's rows come from the window in which it is most central (and, beyond it, from others).
  data::WindowMerge merge(n, impl_->other_windows);
  // Windows made a batch at a time: a whole map's windows are never all in memory.
  const size_t windows = data::for_each_inference_window_batch(
      seen, width, height, words, img, 1.0, impl_->tokenize, impl_->max_length, impl_->special, config.window_word_height,
      config.layoutlmv3.input_size, [&](const std::vector<data::InferenceWindow>& batch) {
        std::vector<const data::TileInputs*> inputs;
        std::vector<const std::vector<float>*> pixels;
        for (const auto& w : batch) inputs.push_back(&w.inputs), pixels.push_back(&w.pixels);
        const std::vector<model::SuccessorProbs> s = impl_->model.successors(inputs, pixels);
        for (size_t k = 0; k < s.size(); ++k) merge.add(batch[k].index, batch[k].centre, s[k].probs, s[k].bi_probs);
      },
      at_scale);
  if (windows > 1) ++r.windowed_tiles;
  data::SparseRows P, Q, raw, raw_bi;
  merge.finish(raw, raw_bi);  // the model's own probabilities, written with each link
  P = raw, Q = raw_bi;
  const std::vector<geometry::ReadingFrame> frames = reading_frames(seen, sources, prior);
  std::vector<const maptext::Word*> model_words;  // model word k: the tile's word sources[k]
  if (prior.lettering != 1.0 || prior.figures != 1.0 || prior.line_judge) {
    const auto flat = flatten(seen);
    for (size_t s : sources) model_words.push_back(flat[s]);
  }
  std::vector<Lettering> letters;
  if (prior.lettering != 1.0 || prior.line_judge) letters = word_lettering(model_words, frames, img.rgb.empty() && at_scale ? *at_scale : img, width, height);
  apply_decoding_prior(P, Q, frames, config.window_word_height > 0 ? data::window_side(seen, config.window_word_height) : 0.0, width,
                       height, prior, &letters);
  if (prior.figures != 1.0) {
    std::vector<char> figure;
    for (const maptext::Word* w : model_words) figure.push_back(w->text && bare_figure(*w->text));
    apply_figure_prior(P, Q, figure, prior.figures);
  }
  const LineJudge& line_judge = spotted ? impl_->spotted_judge : impl_->judge;
  const bool judge = !line_judge.empty(), rows = impl_->collect_rows;
  if (judge || rows || prior.alignment != 1.0 || prior.baseline != 1.0) {  // the lines of a first decoding, then again
    const Decoded first = decode_successors(P, Q);
    if (judge || rows) {
      const JudgeContext ctx = make_judge_context(frames, &letters, first.successors, prior.baseline_tolerance);
      if (rows) {
        std::ostringstream out;
        write_judge_rows(out, P, Q, ctx, true_successors(tile, sources));
        impl_->rows += out.str();
      }
      if (judge) apply_line_judge(P, Q, ctx, line_judge);
    }
    if (!judge) apply_line_alignment(P, Q, frames, first.successors, {prior.alignment, prior.baseline, prior.baseline_tolerance});
  }
  int cycles = 0;
  maptext::Tile out = link_tile(tile, sources, std::move(P), std::move(Q), &cycles, &raw, impl_->split_repeats);
  r.cycles_broken += static_cast<size_t>(cycles);
  ++r.tiles;
  return out;
}

maptext::Dataset link_with_model(const maptext::Dataset& data, const std::string& model_dir, const std::string& images_dir,
                                 const ModelLinkOptions& opt, ModelLinkReport* report) {
  ModelLinker linker(model_dir, opt);
  return link_with_model(data, linker, images_dir, opt.progress, report);
}

maptext::Dataset link_with_model(const maptext::Dataset& data, ModelLinker& linker, const std::string& images_dir, bool progress,
                                 ModelLinkReport* report) {
  ModelLinkReport r;
  maptext::Dataset out;
  Progress bar("link", data.size(), "tiles");
  for (const maptext::Tile& tile : data) {
    out.push_back(linker.link_file(tile, data::find_tile_image(images_dir, tile.image), r));
    if (progress) bar.add();
  }
  if (progress) bar.finish();
  if (report) *report = r;
  return out;
}

}  // namespace light::link

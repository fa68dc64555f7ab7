// The public API (include/light/light.h) over the pipelines: options translated, nothing else.
#include "light/light.h"

#include "light/eval/evaluator.h"
#include "light/link/heuristic_linking.h"
#include "light/link/default_model.h"
#include "light/link/model_linking.h"
#include "light/train/trainer.h"

namespace light {

const char* version() { return "0.1.0"; }

EvalResult evaluate(const maptext::Dataset& gt, const maptext::Dataset& pred, const EvalOptions& options) {
  eval::Options o;
  o.protocol = eval::parse_protocol(options.protocol);
  o.task = eval::parse_task(options.task, o.protocol);
  o.iou_threshold = options.iou_threshold;
  o.gt_regex = options.gt_regex;
  o.threads = options.threads;
  eval::Report r = eval::evaluate(gt, pred, o);
  return {std::move(r.overall), std::move(r.warnings)};
}

maptext::Dataset link_by_heuristic(const maptext::Dataset& words, const LinkByHeuristicOptions& options) {
  link::HeuristicOptions o;
  o.method = baselines::parse_method(options.method);
  o.order = link::parse_order(options.order);
  o.threads = options.threads;
  return link::link_heuristic(words, o);
}

std::string default_model() { return link::find_default_model(executable_dir()); }

maptext::Dataset link_by_model(const maptext::Dataset& words, const std::string& model_dir, const std::string& images_dir,
                               const LinkByModelOptions& options, LinkByModelReport* report) {
  link::ModelLinkOptions o;
  o.tokenizer_dir = options.tokenizer_dir;
  o.device = options.device;
  o.threads = options.threads;
  o.max_length = options.max_length;
  o.no_successor_bias = options.no_successor_bias;
  o.no_successor_exponent = options.no_successor_exponent;
  o.reading_prior_above = options.reading_prior_above;
  o.reading_prior_next_line = options.reading_prior_next_line;
  link::ModelLinkReport r;
  maptext::Dataset out = link::link_with_model(words, model_dir, images_dir, o, &r);
  if (report) *report = {r.tiles, r.words, r.model_words, r.windowed_tiles, r.cycles_broken};
  return out;
}

FineTuneResult fine_tune(const FineTuneOptions& options) {
  train::TrainOptions o;
  o.train_json = options.train_json, o.train_images = options.train_images;
  o.val_json = options.val_json, o.val_images = options.val_images;
  o.out_dir = options.out_dir, o.tokenizer_dir = options.tokenizer;
  o.init = options.init, o.config = options.config;
  o.max_epochs = options.max_epochs, o.batch_size = options.batch_size, o.threads = options.threads;
  o.lr = options.lr, o.seed = options.seed, o.device = options.device, o.progress = options.progress;
  const train::TrainSummary s = train::train(o);
  return {s.epochs, s.best_epoch, s.best_val_loss, s.best_edges_fscore};
}

}  // namespace light

#include "light/train/trainer.h"

#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <map>
#include <algorithm>
#include <cstdio>

#include "light/data/inputs.h"
#include "light/eval/evaluator.h"
#include "light/data/tile_image.h"
#include "light/link/model_linking.h"
#include "light/maptext.h"
#include "light/model/checkpoint.h"
#include "light/model/light.h"
#include "light/model/device.h"
#include "light/train/adamw.h"
#include "light/train/distributed.h"
#include "light/train/examples.h"
#include "light/image/run_curves.h"
#include "light/train/init_weights.h"
#include "light/train/run_folder.h"
#include "light/train/run_options.h"
#include "light/train/schedule.h"
#include "light/text/bpe.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/json.h"
#include "light/util/parallel.h"
#include "light/util/progress.h"
#include "light/data/scale_windows.h"
#include "light/image/resize.h"

namespace light::train {

namespace fs = std::filesystem;
using model::Batch;
using model::LightTextLinking;

namespace {

model::Batch to_batch(const BatchInputs& b, const std::vector<const Example*>& ex, const model::ModelConfig& config, torch::Device dev) {
  std::vector<const data::TileInputs*> tiles;
  std::vector<const std::vector<float>*> pixels;
  for (size_t k = 0; k < b.ins.size(); ++k)
    tiles.push_back(&b.ins[k]), pixels.push_back(b.window_pixels.empty() ? &ex[k]->image.pixels : &b.window_pixels[k]);
  return model::make_batch(tiles, pixels, config, dev);
}

struct RunState {
  int epoch = 0, no_improve = 0, plateau = 0, best_epoch = 0;
  double best = INFINITY, lr = 0, best_edges_fscore = 0, first_train_loss = 0;
};

// RUN/last: model folder + optimizer + counters + random state, written to last.tmp and swapped in,
// so that a run killed at any moment leaves a complete last/ (or last.old) behind.
void save_last(LightTextLinking& net, torch::optim::AdamW& optimizer, const RunState& st, const std::string& out,
               const std::string& tokenizer_dir) {
  const std::string tmp = out + "/last.tmp", last = out + "/last";
  remove_tree(tmp);
  model::write_model_folder(*net, net->config, tmp, tokenizer_dir);
  torch::save(optimizer, tmp + "/optimizer.pt");
  save_cpu_rng(tmp + "/rng.pt");
  nlohmann::ordered_json j = {{"epoch", st.epoch}, {"no_improve", st.no_improve}, {"plateau", st.plateau},
                              {"best_epoch", st.best_epoch}, {"best", st.best}, {"lr", st.lr},
                              {"best_edges_fscore", st.best_edges_fscore}, {"first_train_loss", st.first_train_loss}};
  write_file_atomic(tmp + "/state.json", j.dump(1));
  swap_in(tmp, last);
}

RunState load_last(LightTextLinking& net, torch::optim::AdamW& optimizer, const std::string& out) {
  const std::string last = completed_folder(out + "/last", "state.json");
  if (last.empty()) throw Error(out + ": nothing to resume (no last/state.json)");
  model::load_state_dict(*net, model::read_state_dict(last + "/model.safetensors"), last + "/model.safetensors");
  torch::load(optimizer, last + "/optimizer.pt");
  load_cpu_rng(last + "/rng.pt");
  const std::string state_path = last + "/state.json";
  RunState st;
  try {
    const auto j = parse_json(read_file(state_path), state_path);
    st.epoch = j.at("epoch"), st.no_improve = j.at("no_improve"), st.plateau = j.at("plateau"), st.best_epoch = j.at("best_epoch");
    st.best = j.at("best").is_null() ? INFINITY : j.at("best").get<double>();
    st.lr = j.at("lr"), st.best_edges_fscore = j.at("best_edges_fscore"), st.first_train_loss = j.at("first_train_loss");
  } catch (const nlohmann::json::exception& e) {
    throw Error(state_path + ": " + e.what());
  }
  if (st.epoch < 0 || st.no_improve < 0 || st.plateau < 0 || st.best_epoch < 0 || st.best_epoch > st.epoch ||
      !(std::isfinite(st.lr) && st.lr > 0))
    throw Error(state_path + ": not a state this run can have written (epoch " + std::to_string(st.epoch) + ", best_epoch " +
                std::to_string(st.best_epoch) + ", lr " + std::to_string(st.lr) + "); it was edited or damaged");
  for (auto& g : optimizer.param_groups()) static_cast<torch::optim::AdamWOptions&>(g.options()).lr(st.lr);
  return st;
}

}  // namespace

namespace {

// `light train` as its recipe: set up (options checked, the run folder claimed, data, tokenizer,
// config, weights, optimizer, a resumed run's state), then epochs of train_epoch, validate and
// end_epoch until the last epoch or early stopping.
class FineTuning {
 public:
  explicit FineTuning(const TrainOptions& opt);
  TrainSummary run();

 private:
  struct Validation {
    double loss = 0, recall = 0, precision = 0, fscore = 0;
  };
  static const TrainOptions& checked(const TrainOptions& opt);
  void set_up();
  double train_epoch(int epoch);
  double train_step(int epoch, size_t step, size_t steps, const std::vector<const Example*>& tiles, uint64_t word_seed);
  Validation validate();
  void end_epoch(int epoch, double train_loss, const Validation& v, double seconds);
  void set_lr(double lr);
  double current_lr() const;

  const TrainOptions& opt_;
  const torch::Device dev_;
  RunFolder run_;  // checked by every rank before the ranks meet, so that none has written into it yet
  DataParallel dp_;
  const bool root_;
  const size_t B_, W_, R_;  // tiles a rank takes a step; ranks; this rank
  maptext::Dataset train_data_, val_data_;
  std::optional<text::BpeTokenizer> tok_;
  data::SpecialIds special_;
  data::Tokenize tokenize_;
  model::ModelConfig config_;
  std::vector<Example> train_ex_, val_ex_;
  LightTextLinking net_{nullptr};
  std::unique_ptr<link::ModelLinker> val_linker_;  // net_ linking the validation tiles as `light link` does
  std::unique_ptr<FusedAdamW> optimizer_;
  std::string tokenizer_dir_, log_path_, log_text_;
  RunState st_;
  long steps_done_ = 0;  // optimizer steps in this call
  double last_train_loss_ = 0;
};

const TrainOptions& FineTuning::checked(const TrainOptions& opt) {
  model::set_threads(opt.threads);
  torch::manual_seed(opt.seed);
  if (opt.max_epochs < 1) throw Error("--max-epochs: expected at least 1, got " + std::to_string(opt.max_epochs));
  if (opt.stop_after_epoch < 0) throw Error("--stop-after-epoch: expected 0 (none) or an epoch, got " + std::to_string(opt.stop_after_epoch));
  if (opt.batch_size < 1) throw Error("--batch-size: expected at least 1, got " + std::to_string(opt.batch_size));
  if (opt.warmup_steps < 0) throw Error("--warmup-steps: expected 0 or more, got " + std::to_string(opt.warmup_steps));
  if (opt.lr_decay != "plateau" && opt.lr_decay != "cosine")
    throw Error("--lr-decay: expected plateau or cosine, got \"" + opt.lr_decay + "\"");
  if (opt.lr_patience < 0 || opt.stop_patience < 0) throw Error("--lr-patience and --stop-patience: expected 0 or more");
  check_optimiser(opt.lr, opt.weight_decay);
  check_range(opt.min_lr, 0, 1, "min_lr");
  return opt;
}

FineTuning::FineTuning(const TrainOptions& opt)
    : opt_(checked(opt)),
      dev_(model::pick_device(opt.device)),
      run_(opt.out_dir, opt.resume, opt.overwrite, opt.distributed.rank == 0),
      dp_(opt.distributed),
      root_(dp_.root()),
      B_(static_cast<size_t>(opt.batch_size)),
      W_(static_cast<size_t>(dp_.world_size())),
      R_(static_cast<size_t>(dp_.rank())) {
  dp_.barrier();
  set_up();
}

void FineTuning::set_up() {
  // The data first: a bad file stops the run before anything is written.
  train_data_ = maptext::read_maptext(opt_.train_json, {maptext::Kind::GroundTruth});
  val_data_ = maptext::read_maptext(opt_.val_json, {maptext::Kind::GroundTruth});
  const data::PolygonPoints polygon_points = data::parse_polygon_points(opt_.polygon_points, "--polygon-points");
  for (auto [set, source] : {std::pair{&train_data_, &opt_.train_json}, std::pair{&val_data_, &opt_.val_json}}) {
    data::PolygonReport report;
    data::apply_model_polygons(*set, polygon_points, *source, &report);
    if (const std::string note = data::degenerate_note(report); !note.empty() && opt_.progress && root_)
      std::fprintf(stderr, "note: %s\n", note.c_str());
  }
  if (opt_.tokenizer_dir.empty())
    throw Error("--tokenizer: a tokenizer folder is required (tokenizer.json, or vocab.json + merges.txt), or \"bytes\"");
  tok_.emplace(read_run_tokenizer(opt_.tokenizer_dir, opt_.out_dir, opt_.resume));
  const InitWeights init = read_init(opt_.init);
  // A LIGHT model folder brings its own sizes, modalities, head and scale windows.
  const std::string init_config = (fs::path(opt_.init) / "config.json").string();
  const bool init_sized = init.kind == InitWeights::Light && fs::is_directory(opt_.init) && fs::exists(init_config);
  config_ = init_sized                 ? model::read_model_config(init_config)
            : fs::exists(opt_.config) ? model::read_model_config(opt_.config)
                                      : model::preset_config(opt_.config, static_cast<int>(tok_->max_id() + 1));
  if (!init_sized) {
    config_.modalities = model::parse_modalities(opt_.modalities);
    // "pairwise-context": the pairwise head reading each pair's context too (model::pair_features).
    config_.pair_context = opt_.head == "pairwise-context";
    config_.pair_lettering = opt_.head == "pairwise-lettering";
    config_.pair_lines = opt_.head == "pairwise-lines";
    config_.head = model::parse_successor_head(config_.pair_context || config_.pair_lettering || config_.pair_lines ? "pairwise" : opt_.head);
  } else if ((opt_.head == "pairwise-lettering" && !config_.pair_lettering) || (opt_.head == "pairwise-lines" && !config_.pair_lines)) {
    // A pairwise model given the lettering or the line features: its head's geometry layer gains their
    // columns, zero at first (initialise), so that the run starts from the model's own scores.
    if (config_.head != model::SuccessorHead::Pairwise)
      throw Error("--head " + opt_.head + ": --init " + opt_.init + " has no pairwise head to widen");
    (opt_.head == "pairwise-lines" ? config_.pair_lines : config_.pair_lettering) = true;
  }
  if (opt_.head_hidden != 0) {
    if (opt_.head_hidden < 0 || opt_.head_hidden > (1 << 12))
      throw Error("--head-hidden: expected 0 (the config's) or a width of 1 to 4096, got " + std::to_string(opt_.head_hidden));
    if (config_.head != model::SuccessorHead::Pairwise) throw Error("--head-hidden: the successor head is not pairwise (--head)");
    if (init_sized && opt_.head_hidden < config_.pair_hidden)
      throw Error("--head-hidden " + std::to_string(opt_.head_hidden) + ": --init " + opt_.init + "'s head is " +
                  std::to_string(config_.pair_hidden) + " wide; a head is widened, not narrowed");
    config_.pair_hidden = opt_.head_hidden;
  }
  if (!(opt_.window_word_height == 0 || (opt_.window_word_height > 0 && opt_.window_word_height < 0.5)))
    throw Error("--window-word-height: expected 0 (whole tiles) or a fraction in (0, 0.5), got " + std::to_string(opt_.window_word_height));
  if (!(opt_.scale_jitter >= 0 && opt_.scale_jitter <= 2))
    throw Error("--scale-jitter: expected 0 to 2, got " + std::to_string(opt_.scale_jitter));
  if (!(opt_.polygon_noise >= 0 && opt_.polygon_noise <= 1))
    throw Error("--polygon-noise: expected 0 to 1, got " + std::to_string(opt_.polygon_noise));
  if (!(opt_.hand_noise >= 0 && opt_.hand_noise <= 3)) throw Error("--hand-noise: expected 0 to 3, got " + std::to_string(opt_.hand_noise));
  if (!init_sized) config_.window_word_height = opt_.window_word_height;
  // Options the run does not use, named rather than silently ignored.
  if (init_sized && root_)
    for (const std::string name : {"--head", "--window-word-height", "--config", "--modalities"}) {
      const bool widens = name == "--head" && (opt_.head == "pairwise-lettering" || opt_.head == "pairwise-lines");  // it widens the head
      if (opt_.given.count(name) && !widens)
        std::fprintf(stderr, "note: %s is not used: --init %s brings its own (config.json)\n", name.c_str(), opt_.init.c_str());
    }
  if (config_.window_word_height == 0 && opt_.given.count("--scale-jitter") && root_)
    std::fprintf(stderr, "note: --scale-jitter is not used without scale windows (--window-word-height)\n");
  config_.losses = {opt_.bidirection, opt_.focal};
  config_.polygon_points = polygon_points;
  config_.focal_self_target = opt_.focal_self_target;
  config_.link_weights = data::parse_link_weights(opt_.link_weights, "--link-weights");
  if (opt_.relative_bias != "auto" && opt_.relative_bias != "train" && opt_.relative_bias != "frozen")
    throw Error("--relative-bias: expected auto, train or frozen, got \"" + opt_.relative_bias + "\"");
  // auto: trained unless --init brings a transformer (a polygon encoder alone does not).
  config_.layoutlmv3.train_relative_bias =
      opt_.relative_bias == "train" ||
      (opt_.relative_bias == "auto" && (init.kind == InitWeights::None || init.kind == InitWeights::Poly));
  if (tok_->max_id() >= config_.layoutlmv3.vocab_size)
    throw Error("--tokenizer: ids up to " + std::to_string(tok_->max_id()) + " do not fit the model's vocabulary of " +
                std::to_string(config_.layoutlmv3.vocab_size));
  const bool sinusoid = sinusoid_layout(opt_.layout_init, init, "--layout-init");
  model::check_max_length(opt_.max_length, config_);
  // Tiles without a usable word: left out of training; in validation their words stay alone.
  train_ex_ = load_examples(train_data_, opt_.train_images, opt_.train_json, config_.layoutlmv3.input_size, config_.window_word_height,
                            opt_.scale_jitter, true, opt_.progress && root_);
  val_ex_ = load_examples(val_data_, opt_.val_images, opt_.val_json, config_.layoutlmv3.input_size, config_.window_word_height,
                          opt_.scale_jitter, false, opt_.progress && root_);
  net_ = LightTextLinking(config_);
  initialise(*net_, *net_->light, net_->config, init);
  if (sinusoid) model::init_layout_tables_sinusoid(*net_->light);
  dp_.broadcast_parameters(*net_);
  net_->to(dev_);
  special_ = tok_->special_ids();
  tokenize_ = [this](const std::string& w) { return tok_->encode_word(w); };
  link::ModelLinkOptions lo;
  lo.device = opt_.device, lo.threads = opt_.threads, lo.max_length = opt_.max_length, lo.source = opt_.val_json;
  val_linker_ = std::make_unique<link::ModelLinker>(model::Predictor(net_.ptr(), {opt_.device, opt_.threads}), *tok_, lo);
  optimizer_ = std::make_unique<FusedAdamW>(
      net_->parameters(), torch::optim::AdamWOptions(opt_.lr).betas({0.9, 0.999}).eps(1e-8).weight_decay(opt_.weight_decay));
  // Everything read and checked: the run folder is made (or emptied) only now.
  run_.create();
  tokenizer_dir_ = run_tokenizer_folder(opt_.tokenizer_dir, opt_.out_dir);
  log_path_ = opt_.out_dir + "/log.jsonl";
  st_.lr = opt_.lr;
  if (!opt_.resume) {
    if (root_) write_file_atomic(opt_.out_dir + "/options.json", options_to_json(opt_));
  } else {
    st_ = load_last(net_, *optimizer_, opt_.out_dir);
    // Keep the log lines of the completed epochs only.
    log_text_ = first_lines(fs::exists(log_path_) ? read_file(log_path_) : "", st_.epoch);
    if (!log_text_.empty() && root_) image::draw_epoch_curves(log_text_, st_.best_epoch, opt_.out_dir + "/curves.png");
  }
  run_.keep();  // from here on the folder holds a resumable run
}

// The rate the last step used (after warm-up and decay), or the run's rate before any step.
double FineTuning::current_lr() const {
  return steps_done_ > 0 ? static_cast<torch::optim::AdamWOptions&>(optimizer_->param_groups().at(0).options()).lr() : st_.lr;
}

void FineTuning::set_lr(double lr) {
  for (auto& g : optimizer_->param_groups()) static_cast<torch::optim::AdamWOptions&>(g.options()).lr(lr);
}

TrainSummary FineTuning::run() {
  for (int epoch = st_.epoch + 1; epoch <= opt_.max_epochs && st_.no_improve < opt_.stop_patience &&
                                  (opt_.stop_after_epoch <= 0 || epoch <= opt_.stop_after_epoch);
       ++epoch) {
    const auto t0 = std::chrono::steady_clock::now();
    const double train_loss = train_epoch(epoch);
    const Validation v = validate();
    end_epoch(epoch, train_loss, v, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  dp_.barrier();
  TrainSummary s;
  s.epochs = st_.epoch;
  s.best_epoch = st_.best_epoch;
  s.best_edges_fscore = st_.best_edges_fscore;
  s.first_train_loss = st_.first_train_loss;
  s.last_train_loss = last_train_loss_;
  s.best_val_loss = st_.best;
  return s;
}

// Tiles and words in a fresh seeded order each epoch; each step takes B x W tiles, B on each rank.
// Returns the epoch's mean step loss over all ranks.
double FineTuning::train_epoch(int epoch) {
  net_->train();
  std::vector<size_t> order(train_ex_.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(opt_.seed * 7919 + static_cast<uint64_t>(epoch));
  std::shuffle(order.begin(), order.end(), rng);
  const size_t steps = (order.size() + B_ * W_ - 1) / (B_ * W_);
  Progress bar("epoch " + std::to_string(epoch), steps, "steps");
  double loss = 0;
  for (size_t step = 0; step < steps; ++step) {
    const uint64_t word_seed = rng();
    std::vector<const Example*> tiles;  // this rank's share of the step's tiles
    const size_t first = step * B_ * W_ + R_ * B_;
    for (size_t k = first; k < std::min(order.size(), first + B_); ++k) tiles.push_back(&train_ex_[order[k]]);
    loss += train_step(epoch, step, steps, tiles, word_seed);
    if (opt_.progress && root_) bar.add();
  }
  if (opt_.progress && root_) bar.finish();
  std::vector<double> total{loss};
  dp_.all_reduce_sum(total);
  return total[0] / static_cast<double>(steps);
}

// One optimizer step: dropout seeded by the step and the rank, the batch's summed losses, the
// gradients summed over ranks. Returns this rank's loss.
double FineTuning::train_step(int epoch, size_t step, size_t steps, const std::vector<const Example*>& tiles, uint64_t word_seed) {
  const uint64_t global_step = static_cast<uint64_t>(epoch - 1) * steps + step;
  seed_step(opt_.seed, static_cast<long>(global_step), W_, dp_.rank());
  drop_gradients(*optimizer_);
  double step_loss = 0;
  if (!tiles.empty()) {  // the last step of an epoch may leave a rank without tiles: it still joins the sum
    BatchInputs all = batch_inputs(tiles, tokenize_, special_, opt_.max_length, word_seed, R_ * B_, config_, opt_.scale_jitter,
                                   opt_.polygon_noise, opt_.hand_noise);
    // A window can hold no word the model sees (every one in it illegible or tokenless): it adds nothing.
    BatchInputs ins;
    std::vector<const Example*> kept;
    for (size_t k = 0; k < all.ins.size(); ++k)
      if (!all.ins[k].words.empty()) {
        ins.ins.push_back(std::move(all.ins[k]));
        if (!all.window_pixels.empty()) ins.window_pixels.push_back(std::move(all.window_pixels[k]));
        kept.push_back(tiles[k]);
      }
    if (!kept.empty()) {
      const model::Outputs o = net_->forward(to_batch(ins, kept, config_, dev_));
      torch::Tensor loss = o.tiles[0].total_loss(config_.losses);
      for (size_t k = 1; k < o.tiles.size(); ++k) loss = loss + o.tiles[k].total_loss(config_.losses);
      step_loss = loss.item<double>();
      if (opt_.on_step) opt_.on_step(static_cast<long>(steps_done_) + 1, step_loss);
      check_finite_loss(step_loss, "train", "epoch " + std::to_string(epoch) + ", step " + std::to_string(step + 1));
      loss.backward();
    }
  }
  double factor = 1.0;
  if (opt_.warmup_steps > 0)  // linear warm-up over the first optimizer steps of the run
    factor = std::min(1.0, static_cast<double>(global_step + 1) / opt_.warmup_steps);
  if (opt_.lr_decay == "cosine") {  // half a cosine from the rate to min_lr over max_epochs
    const double done = static_cast<double>(global_step) / static_cast<double>(std::max<size_t>(1, steps * opt_.max_epochs));
    set_lr(factor * (opt_.min_lr + (st_.lr - opt_.min_lr) * 0.5 * (1 + std::cos(M_PI * std::min(1.0, done)))));
  } else if (opt_.warmup_steps > 0) {
    set_lr(st_.lr * factor);
  }
  dp_.sum_gradients(*net_);  // the batch loss is a sum over tiles: so is its gradient across ranks
  optimizer_->step();
  ++steps_done_;
  return step_loss;
}

// The successor cross-entropy (model selection) in sorted word order; the links scored (detedges) as
// `light link` links the validation tiles with the folder this epoch would save: the same linker
// (link::ModelLinker over this network), the same decoding from the same config.
// Every rank validates the same weights; rank 0's numbers decide for all (no float can differ).
FineTuning::Validation FineTuning::validate() {
  net_->eval();
  Validation v;
  size_t batches = 0;
  maptext::Dataset linked;
  {
    torch::NoGradGuard no_grad;
    if (config_.window_word_height > 0) {
      for (const Example& e : val_ex_) {  // every scale window, as the linker reads them
        const auto words = data::select_words(*e.tile, e.image.width, e.image.height, {});
        const auto windows = data::inference_windows(*e.tile, e.image.width, e.image.height, words, e.scaled, e.scale, tokenize_,
                                                     opt_.max_length, special_, config_.window_word_height, config_.layoutlmv3.input_size);
        data::for_each_window_batch(windows, [&](size_t, const auto& inputs, const auto& pixels) {
          const model::Outputs o = net_->forward(model::make_batch(inputs, pixels, config_, dev_), /*keep_layers=*/false, /*words_only=*/true);
          for (const auto& t : o.tiles) v.loss += t.base_loss.item<double>(), ++batches;
        });
      }
    } else {
      std::vector<const Example*> usable;
      for (const Example& e : val_ex_)
        if (e.usable) usable.push_back(&e);
      for (size_t first = 0; first < usable.size(); first += B_) {
        const std::vector<const Example*> tiles(usable.begin() + static_cast<long>(first),
                                                usable.begin() + static_cast<long>(std::min(usable.size(), first + B_)));
        BatchInputs ins;
        for (const Example* e : tiles) {
          const auto words = data::select_words(*e->tile, e->image.width, e->image.height, {});
          ins.ins.push_back(data::layout_tokens(words, tokenize_, opt_.max_length, 0, SIZE_MAX, special_));
          ins.ins.back().aspect = static_cast<double>(e->image.width) / e->image.height;
        }
        const model::Outputs o = net_->forward(to_batch(ins, tiles, config_, dev_));
        for (const auto& t : o.tiles) v.loss += t.base_loss.item<double>();
        ++batches;
      }
    }
    link::ModelLinkReport report;
    for (const maptext::Tile& tile : val_data_)
      linked.push_back(val_linker_->link_file(tile, data::find_tile_image(opt_.val_images, tile.image), report));
  }
  v.loss /= static_cast<double>(std::max<size_t>(1, batches));
  eval::Options eo;
  eo.task = eval::Task::DetEdges;
  eo.threads = 1;
  for (const auto& [k, value] : eval::evaluate(val_data_, linked, eo).overall) {
    if (k == "edges_recall") v.recall = value;
    if (k == "edges_precision") v.precision = value;
    if (k == "edges_fscore") v.fscore = value;
  }
  std::vector<double> decided{root_ ? v.loss : 0.0, root_ ? v.fscore : 0.0};
  dp_.all_reduce_sum(decided);
  v.loss = decided[0], v.fscore = decided[1];
  return v;
}

// Model selection (RUN/best on a strict improvement), the learning-rate plateau, early stopping's
// count; then the log line, the curves and RUN/last.
void FineTuning::end_epoch(int epoch, double train_loss, const Validation& v, double seconds) {
  if (v.loss < st_.best) {
    st_.best = v.loss;
    st_.no_improve = st_.plateau = 0;
    st_.best_epoch = epoch;
    st_.best_edges_fscore = v.fscore;
    if (root_) {
      remove_tree(opt_.out_dir + "/best.tmp");
      model::write_model_folder(*net_, net_->config, opt_.out_dir + "/best.tmp", tokenizer_dir_);
      swap_in(opt_.out_dir + "/best.tmp", opt_.out_dir + "/best");
    }
  } else {
    ++st_.no_improve;
    if (++st_.plateau > opt_.lr_patience && opt_.lr_decay == "plateau") {
      st_.lr = std::max(opt_.min_lr, st_.lr * 0.1);
      set_lr(st_.lr);
      st_.plateau = 0;
    }
  }
  st_.epoch = epoch;
  if (epoch == 1) st_.first_train_loss = train_loss;
  nlohmann::ordered_json line = {{"epoch", epoch}, {"train_loss", train_loss}, {"val_loss", v.loss},
                                 {"edges_recall", v.recall}, {"edges_precision", v.precision}, {"edges_fscore", v.fscore},
                                 {"lr", current_lr()}, {"seconds", seconds}};
  log_text_ += line.dump() + "\n";
  if (root_) {
    write_file_atomic(log_path_, log_text_);
    image::draw_epoch_curves(log_text_, st_.best_epoch, opt_.out_dir + "/curves.png");
    // After the log line: a run killed in between redoes this epoch and rewrites the line.
    save_last(net_, *optimizer_, st_, opt_.out_dir, tokenizer_dir_);
  }
  if (opt_.progress && root_)
    std::fprintf(stderr, "epoch %d: train loss %.4f, val loss %.4f, edges F %.3f, lr %.1e, %.1f s\n", epoch, train_loss, v.loss,
                 v.fscore, current_lr(), seconds);
  last_train_loss_ = train_loss;
}

}  // namespace

TrainSummary train(const TrainOptions& opt) { return FineTuning(opt).run(); }

}  // namespace light::train

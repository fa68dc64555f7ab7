#include "light/train/trainer.h"

#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

#include "light/data/inputs.h"
#include "light/eval/evaluator.h"
#include "light/image/plot.h"
#include "light/data/tile_image.h"
#include "light/image/resize.h"
#include "light/link/decode.h"
#include "light/link/paths.h"
#include "light/maptext/maptext.h"
#include "light/model/checkpoint.h"
#include "light/model/light.h"
#include "light/model/poly_pretrain.h"
#include "light/model/device.h"
#include "light/train/adamw.h"
#include "light/train/distributed.h"
#include "light/image/run_curves.h"
#include "light/train/init_weights.h"
#include "light/train/run_folder.h"
#include "light/train/run_options.h"
#include "light/train/schedule.h"
#include "light/text/bpe.h"
#include "light/util/error.h"
#include "light/util/fs.h"
#include "light/util/json.h"
#include "light/util/progress.h"

namespace light::train {

namespace fs = std::filesystem;
using model::Batch;
using model::LightTextLinking;

namespace {

struct Example {
  const maptext::Tile* tile;
  data::TileImage image;  // size and pixel values
};

std::vector<Example> load_examples(const maptext::Dataset& data, const std::string& images, const std::string& source,
                                   int image_size) {
  std::vector<Example> out;
  for (const auto& tile : data) {
    data::TileImage img = data::load_tile_image(images, tile.image, image_size);
    if (data::select_words(tile, img.width, img.height, {}).empty())
      throw Error(source + ": image \"" + tile.image + "\": no usable word (all illegible, truncated or without area)");
    out.push_back({&tile, std::move(img)});
  }
  if (out.empty()) throw Error(source + ": no tiles");
  return out;
}

// The model inputs of a batch of tiles. Training shuffles each tile's words: `first` is the batch's
// first tile's index in the step (ranks > 0 start further on), so that each tile's word order depends
// on its place in the whole step, not on the rank that takes it. Validation keeps the test order.
std::vector<data::TileInputs> batch_inputs(const std::vector<const Example*>& ex, const data::Tokenize& tok,
                                           const data::SpecialIds& special, int max_length, bool shuffle, uint64_t seed,
                                           size_t first = 0) {
  std::vector<data::TileInputs> ins;
  for (size_t k = 0; k < ex.size(); ++k) {
    data::SelectOptions so;
    so.sort = !shuffle;
    so.shuffle_seed = shuffle ? seed * 1000003ull + first + k + 1 : 0;
    const auto words = data::select_words(*ex[k]->tile, ex[k]->image.width, ex[k]->image.height, so);
    ins.push_back(data::layout_tokens(words, tok, max_length, 0, SIZE_MAX, special));
  }
  return ins;
}

model::Batch to_batch(const std::vector<data::TileInputs>& ins, const std::vector<const Example*>& ex,
                      const model::ModelConfig& config, torch::Device dev) {
  std::vector<const data::TileInputs*> tiles;
  std::vector<const std::vector<float>*> pixels;
  for (size_t k = 0; k < ins.size(); ++k) tiles.push_back(&ins[k]), pixels.push_back(&ex[k]->image.pixels);
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

const std::vector<RunOption<TrainOptions>>& train_run_options() {
  using O = RunOption<TrainOptions>;
  using T = TrainOptions;
  static const std::vector<O> options = {
      O("--train", "train", &T::train_json, "Training ground truth (MapText JSON)").absolute().required(),
      O("--train-images", "train_images", &T::train_images, "Folder of the training tiles").absolute().required(),
      O("--val", "val", &T::val_json, "Validation ground truth (MapText JSON)").absolute().required(),
      O("--val-images", "val_images", &T::val_images, "Folder of the validation tiles").absolute().required(),
      O("--out", nullptr, &T::out_dir, "Run folder (best/, last/, log.jsonl)").local().required(),
      O("--tokenizer", "tokenizer", &T::tokenizer_dir, "Tokenizer folder (tokenizer.json, or vocab.json + merges.txt), or \"bytes\"")
          .absolute_or_name().required(),
      O("--init", "init", &T::init, "none | Hugging Face layoutlmv3 folder | LIGHT model folder or weights").absolute_or_name(),
      O("--config", "config", &T::config, "small | base | tiny | a config.json").absolute_or_name(),
      O("--modalities", "modalities", &T::modalities, "G | L | LI | LIG (the paper's ablation)"),
      O("--no-bidirection", "bidirection", &T::bidirection, "Without the predecessor cross-entropy").negate(),
      O("--no-focal", "focal", &T::focal, "Without the focal terms").negate(),
      O("--max-epochs", "max_epochs", &T::max_epochs, "At most this many epochs (a resumed run may be given more)").renewable(),
      O("--batch-size", "batch_size", &T::batch_size, "Tiles per step"),
      O("--max-length", "max_length", &T::max_length, "Token window"),
      O("--lr", "lr", &T::lr, "AdamW learning rate"),
      O("--relative-bias", "relative_bias", &T::relative_bias,
        "Relative-position bias tables: auto (trained from scratch only) | train | frozen (the reference)")
          .one_of({"auto", "train", "frozen"})
          .before("\"frozen\""),
      O("--layout-init", "layout_init", &T::layout_init,
        "2-D layout tables' start: auto (sinusoid from scratch only) | sinusoid | random (the reference)")
          .one_of({"auto", "sinusoid", "random"})
          .before("\"random\""),  // runs from before the option started random
      O("--warmup-steps", "warmup_steps", &T::warmup_steps, "Linear learning-rate warm-up over this many steps").before("0"),
      O("--weight-decay", "weight_decay", &T::weight_decay, "AdamW weight decay"),
      O(nullptr, "min_lr", &T::min_lr, "The learning rate's floor"),
      O(nullptr, "lr_patience", &T::lr_patience, "Epochs without improvement before the rate drops"),
      O(nullptr, "stop_patience", &T::stop_patience, "Epochs without improvement before the run stops"),
      O("--seed", "seed", &T::seed, "Random seed"),
      O("--threads", nullptr, &T::threads, "LibTorch threads (0 = all cores)").local(),
      O("--device", nullptr, &T::device, "cpu | cuda").local(),
  };
  return options;
}

std::string options_to_json(const TrainOptions& o) { return run_options_json(o, train_run_options()); }

void read_options(const std::string& run_dir, TrainOptions& o) {
  read_run_options(run_dir, "training", train_run_options(), o, [&](const char*) { return o.max_epochs > 0; });
}

TrainSummary train(const TrainOptions& opt) {
  model::set_threads(opt.threads);
  torch::manual_seed(opt.seed);
  const torch::Device dev = model::pick_device(opt.device);
  if (opt.max_epochs < 1) throw Error("--max-epochs: expected at least 1, got " + std::to_string(opt.max_epochs));
  if (opt.batch_size < 1) throw Error("--batch-size: expected at least 1, got " + std::to_string(opt.batch_size));
  if (opt.warmup_steps < 0) throw Error("--warmup-steps: expected 0 or more, got " + std::to_string(opt.warmup_steps));
  if (opt.lr_patience < 0 || opt.stop_patience < 0) throw Error("--lr-patience and --stop-patience: expected 0 or more");
  check_optimiser(opt.lr, opt.weight_decay);
  check_range(opt.min_lr, 0, 1, "min_lr");
  // Every rank checks the run folder before the ranks meet, so that none has written into it yet.
  RunFolder run(opt.out_dir, opt.resume, opt.overwrite, opt.distributed.rank == 0);
  DataParallel dp(opt.distributed);
  dp.barrier();
  const bool root = dp.root();
  // The data first: a bad file stops the run before anything is written.
  const auto train_data = maptext::read_maptext(opt.train_json, {maptext::Kind::GroundTruth});
  const auto val_data = maptext::read_maptext(opt.val_json, {maptext::Kind::GroundTruth});
  if (opt.tokenizer_dir.empty())
    throw Error("--tokenizer: a tokenizer folder is required (tokenizer.json, or vocab.json + merges.txt), or \"bytes\"");
  const text::BpeTokenizer tok = read_run_tokenizer(opt.tokenizer_dir, opt.out_dir, opt.resume);
  model::ModelConfig config = fs::exists(opt.config) ? model::read_model_config(opt.config)
                                                      : model::preset_config(opt.config, static_cast<int>(tok.max_id() + 1));
  config.modalities = model::parse_modalities(opt.modalities);
  config.losses = {opt.bidirection, opt.focal};
  if (opt.relative_bias != "auto" && opt.relative_bias != "train" && opt.relative_bias != "frozen")
    throw Error("--relative-bias: expected auto, train or frozen, got \"" + opt.relative_bias + "\"");
  // auto: trained unless --init brings a transformer (a polygon encoder alone does not).
  const InitWeights init = read_init(opt.init);
  config.layoutlmv3.train_relative_bias =
      opt.relative_bias == "train" ||
      (opt.relative_bias == "auto" && (init.kind == InitWeights::None || init.kind == InitWeights::Poly));
  if (tok.max_id() >= config.layoutlmv3.vocab_size)
    throw Error("--tokenizer: ids up to " + std::to_string(tok.max_id()) + " do not fit the model's vocabulary of " +
                std::to_string(config.layoutlmv3.vocab_size));
  const bool sinusoid = sinusoid_layout(opt.layout_init, init, "--layout-init");
  model::check_max_length(opt.max_length, config);
  const auto train_ex = load_examples(train_data, opt.train_images, opt.train_json, config.layoutlmv3.input_size);
  const auto val_ex = load_examples(val_data, opt.val_images, opt.val_json, config.layoutlmv3.input_size);
  LightTextLinking net(config);
  initialise(*net, *net->light, net->config, init);
  if (sinusoid) model::init_layout_tables_sinusoid(*net->light);
  dp.broadcast_parameters(*net);
  net->to(dev);
  const data::SpecialIds special = tok.special_ids();
  const data::Tokenize tokenize = [&](const std::string& w) { return tok.encode_word(w); };

  FusedAdamW optimizer(net->parameters(), torch::optim::AdamWOptions(opt.lr).betas({0.9, 0.999}).eps(1e-8).weight_decay(opt.weight_decay));
  run.create();
  const std::string tokenizer_dir = run_tokenizer_folder(opt.tokenizer_dir, opt.out_dir);
  const std::string log_path = opt.out_dir + "/log.jsonl";
  std::string log_text;
  TrainSummary s;
  RunState st;
  st.lr = opt.lr;
  if (!opt.resume) {
    if (root) write_file_atomic(opt.out_dir + "/options.json", options_to_json(opt));
  } else {
    st = load_last(net, optimizer, opt.out_dir);
    // Keep the log lines of the completed epochs only.
    log_text = first_lines(fs::exists(log_path) ? read_file(log_path) : "", st.epoch);
    if (!log_text.empty() && root) image::draw_epoch_curves(log_text, st.best_epoch, opt.out_dir + "/curves.png");
  }
  double& best = st.best;
  double& lr = st.lr;
  int& no_improve = st.no_improve;
  int& plateau = st.plateau;
  const size_t B = static_cast<size_t>(std::max(1, opt.batch_size)), W = static_cast<size_t>(dp.world_size());
  const size_t R = static_cast<size_t>(dp.rank());
  long steps_done = 0;
  run.keep();  // from here on the folder holds a resumable run
  for (int epoch = st.epoch + 1; epoch <= opt.max_epochs && no_improve < opt.stop_patience; ++epoch) {
    const auto t0 = std::chrono::steady_clock::now();
    // Train: tiles and words in a fresh seeded order each epoch.
    net->train();
    std::vector<size_t> order(train_ex.size());
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(opt.seed * 7919 + static_cast<uint64_t>(epoch));
    std::shuffle(order.begin(), order.end(), rng);
    const size_t steps = (order.size() + B * W - 1) / (B * W);
    Progress bar("epoch " + std::to_string(epoch), steps, "steps");
    double train_loss = 0;
    for (size_t st = 0; st < steps; ++st) {
      // This rank's share of the step's B x W tiles; dropout seeded by the step and the rank.
      const uint64_t batch_seed = rng();
      const uint64_t global_step = static_cast<uint64_t>(epoch - 1) * steps + st;
      seed_step(opt.seed, static_cast<long>(global_step), W, dp.rank());
      std::vector<const Example*> ex;
      const size_t first = st * B * W + R * B;
      for (size_t k = first; k < std::min(order.size(), first + B); ++k) ex.push_back(&train_ex[order[k]]);
      drop_gradients(optimizer);
      torch::Tensor loss;
      double step_loss = 0;
      if (!ex.empty()) {  // the last step of an epoch may leave a rank without tiles: it still joins the sum
        const auto ins = batch_inputs(ex, tokenize, special, opt.max_length, true, batch_seed, R * B);
        const model::Outputs o = net->forward(to_batch(ins, ex, config, dev));
        loss = o.tiles[0].total_loss(config.losses);
        for (size_t k = 1; k < o.tiles.size(); ++k) loss = loss + o.tiles[k].total_loss(config.losses);
        step_loss = loss.item<double>();
        if (opt.nan_loss_at_step >= 0 && steps_done + 1 == opt.nan_loss_at_step) step_loss = NAN;
        check_finite_loss(step_loss, "train", "epoch " + std::to_string(epoch) + ", step " + std::to_string(st + 1));
        loss.backward();
      }
      if (opt.warmup_steps > 0) {  // linear warm-up over the first optimizer steps of the run
        const double global = static_cast<double>((epoch - 1) * steps + st + 1);
        const double f = std::min(1.0, global / opt.warmup_steps);
        for (auto& g : optimizer.param_groups()) static_cast<torch::optim::AdamWOptions&>(g.options()).lr(lr * f);
      }
      dp.sum_gradients(*net);  // the batch loss is a sum over tiles: so is its gradient across ranks
      optimizer.step();
      ++steps_done;
      if (opt.interrupt_after_steps >= 0 && steps_done >= opt.interrupt_after_steps)
        throw Error("training interrupted after " + std::to_string(steps_done) + " step(s) (test hook)");
      train_loss += step_loss;
      if (opt.progress && root) bar.add();
    }
    if (opt.progress && root) bar.finish();
    std::vector<double> epoch_loss{train_loss};
    dp.all_reduce_sum(epoch_loss);
    train_loss = epoch_loss[0] / static_cast<double>(steps);
    // Validate: sorted order; successor cross-entropy for model selection, and the links scored.
    net->eval();
    double val_loss = 0;
    size_t val_batches = 0;
    maptext::Dataset linked;
    {
      torch::NoGradGuard no_grad;
      for (size_t st = 0; st < val_ex.size(); st += B) {
        std::vector<const Example*> ex;
        for (size_t k = st; k < std::min(val_ex.size(), st + B); ++k) ex.push_back(&val_ex[k]);
        const auto ins = batch_inputs(ex, tokenize, special, opt.max_length, false, 0);
        const model::Outputs o = net->forward(to_batch(ins, ex, config, dev));
        double sum = 0;
        for (size_t k = 0; k < o.tiles.size(); ++k) {
          sum += o.tiles[k].base_loss.item<double>();
          model::SuccessorProbs sp = model::successor_probs(o.tiles[k]);
          std::vector<size_t> sources;
          for (const auto& w : ins[k].words) sources.push_back(w.source);
          linked.push_back(link::link_tile(*ex[k]->tile, sources, std::move(sp.probs), std::move(sp.bi_probs)));
        }
        val_loss += sum;
        ++val_batches;
      }
    }
    val_loss /= static_cast<double>(std::max<size_t>(1, val_batches));
    eval::Options eo;
    eo.task = eval::Task::DetEdges;
    eo.threads = 1;
    const auto report = eval::evaluate(val_data, linked, eo);
    double er = 0, ep = 0, ef = 0;
    for (const auto& [k, v] : report.overall) {
      if (k == "edges_recall") er = v;
      if (k == "edges_precision") ep = v;
      if (k == "edges_fscore") ef = v;
    }
    // Every rank validated the same weights; rank 0's numbers decide for all (no float can differ).
    std::vector<double> decided{root ? val_loss : 0.0, root ? ef : 0.0};
    dp.all_reduce_sum(decided);
    val_loss = decided[0], ef = decided[1];
    // Model selection, learning-rate plateau, early stopping (strict improvement counts).
    if (val_loss < best) {
      best = val_loss;
      no_improve = plateau = 0;
      st.best_epoch = epoch;
      st.best_edges_fscore = ef;
      if (root) {
        remove_tree(opt.out_dir + "/best.tmp");
        model::write_model_folder(*net, net->config, opt.out_dir + "/best.tmp", tokenizer_dir);
        swap_in(opt.out_dir + "/best.tmp", opt.out_dir + "/best");
      }
    } else {
      ++no_improve;
      if (++plateau > opt.lr_patience) {
        lr = std::max(opt.min_lr, lr * 0.1);
        for (auto& g : optimizer.param_groups()) static_cast<torch::optim::AdamWOptions&>(g.options()).lr(lr);
        plateau = 0;
      }
    }
    st.epoch = epoch;
    if (epoch == 1) st.first_train_loss = train_loss;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    nlohmann::ordered_json line = {{"epoch", epoch}, {"train_loss", train_loss}, {"val_loss", val_loss},
                                   {"edges_recall", er}, {"edges_precision", ep}, {"edges_fscore", ef},
                                   {"lr", lr}, {"seconds", secs}};
    log_text += line.dump() + "\n";
    if (root) {
      write_file_atomic(log_path, log_text);
      image::draw_epoch_curves(log_text, st.best_epoch, opt.out_dir + "/curves.png");
      // After the log line: a run killed in between redoes this epoch and rewrites the line.
      save_last(net, optimizer, st, opt.out_dir, tokenizer_dir);
    }
    if (opt.progress && root)
      std::fprintf(stderr, "epoch %d: train loss %.4f, val loss %.4f, edges F %.3f, lr %.1e, %.1f s\n", epoch, train_loss, val_loss, ef, lr, secs);
    s.last_train_loss = train_loss;
  }
  dp.barrier();
  s.epochs = st.epoch;
  s.best_epoch = st.best_epoch;
  s.best_edges_fscore = st.best_edges_fscore;
  s.first_train_loss = st.first_train_loss;
  s.best_val_loss = best;
  return s;
}

}  // namespace light::train

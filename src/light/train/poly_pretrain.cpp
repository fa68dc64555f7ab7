#include "light/train/poly_pretrain.h"

#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <sstream>

#include "light/data/poly_pretrain.h"
#include "light/model/checkpoint.h"
#include "light/model/config.h"
#include "light/model/poly_pretrain.h"
#include "light/model/device.h"
#include "light/train/adamw.h"
#include "light/train/distributed.h"
#include "light/image/run_curves.h"
#include "light/train/init_weights.h"
#include "light/train/run_folder.h"
#include "light/train/run_options.h"
#include "light/train/schedule.h"
#include "light/error.h"
#include "light/util/json.h"
#include "light/util/fs.h"
#include "light/util/progress.h"

namespace light::train {

namespace fs = std::filesystem;

namespace {

model::ModelConfig config_for(const std::string& name) {
  return fs::exists(name) ? model::read_model_config(name) : model::preset_config(name, 259);
}

// The weights to start from: a polygon-pretraining checkpoint (light's run or folder, the reference's
// .pth), all of it; or a LIGHT model, its polygon encoder's trunk (the heads stay new).
void initialise(model::PolyPretrain& net, const std::string& init) {
  if (init.empty() || init == "none") return;
  const fs::path weights = resolve_weights_file(init);
  const auto state = model::read_state_dict(weights.string());
  if (model::is_poly_pretrain_state(state)) {  // strict; the unused BERT word table and pooler are tolerated
    model::load_state_dict(*net, state, weights.string());
    return;
  }
  const std::string prefix = "light.poly_encoder.";
  torch::NoGradGuard no_grad;
  size_t loaded = 0;
  for (auto& prm : net->named_parameters()) {
    auto it = state.find(prefix + prm.key());
    if (it == state.end()) continue;
    if (it->second.sizes() != prm.value().sizes())
      throw Error(weights.string() + ": \"" + it->first + "\" has another shape than this model's (--config)");
    prm.value().copy_(it->second);
    ++loaded;
  }
  if (loaded == 0) throw Error(weights.string() + ": neither a polygon-pretraining checkpoint nor a LIGHT model with a polygon encoder (--init)");
}

const char* const kLossNames[] = {"loss", "reconstruct", "angle", "center_x", "center_y", "distance", "closest", "contrastive"};


}  // namespace

const std::vector<RunOption<PolyPretrainOptions>>& poly_pretrain_run_options() {
  using O = RunOption<PolyPretrainOptions>;
  using T = PolyPretrainOptions;
  static const std::vector<O> options = {
      O("--data", "data", &T::data,
        "MapText JSON (ground truth or spotter output), or a folder of per-image {\"annotations\": [{\"pts\"}]} files")
          .absolute()
          .required(),
      O("--images", "images", &T::images, "Folder of the tile images (their sizes normalise the coordinates)").absolute().required(),
      O("--out", nullptr, &T::out_dir, "Run folder (options.json, log.jsonl, curves.png, last/, final/)").local().required(),
      O("--config", "config", &T::config, "small | base | tiny | a config.json (its poly_encoder section)").absolute_or_name(),
      O("--init", "init", &T::init, "none | a pretrain-poly run or checkpoint (also the reference's .pth) | a LIGHT model").absolute_or_name(),
      O("--max-steps", "max_steps", &T::max_steps, "Optimizer steps"),
      O("--batch-size", "batch_size", &T::batch_size, "Tiles per step"),
      O("--lr", "lr", &T::lr, "Peak AdamW learning rate (linear warm-up, then linear decay to 0)"),
      O("--warmup-ratio", "warmup_ratio", &T::warmup_ratio, "Share of the steps spent warming up"),
      O("--weight-decay", "weight_decay", &T::weight_decay, "AdamW weight decay"),
      O("--loss-weights", "loss_weights", &T::loss_weights,
        "name=value,... over reconstruct, angle, center_x, center_y, distance, closest, contrastive (default: all 1, as the reference's code)"),
      O("--max-polygons", "max_polygons", &T::max_polygons, "Polygons per tile and step (a random subset beyond)"),
      O("--log-every", "log_every", &T::log_every, "Steps per log.jsonl line"),
      O("--checkpoint-every", "checkpoint_every", &T::checkpoint_every, "Steps between checkpoints (last/)"),
      O("--seed", "seed", &T::seed, "Random seed"),
      O("--threads", nullptr, &T::threads, "LibTorch threads (0 = all cores)").local(),
      O("--device", nullptr, &T::device, "cpu | cuda").local(),
  };
  return options;
}

std::string poly_pretrain_options_to_json(const PolyPretrainOptions& o) { return run_options_json(o, poly_pretrain_run_options()); }

void read_poly_pretrain_options(const std::string& run_dir, PolyPretrainOptions& o) {
  read_run_options(run_dir, "pretrain-poly", poly_pretrain_run_options(), o);
}

PolyPretrainSummary poly_pretrain(const PolyPretrainOptions& opt) {
  model::set_threads(opt.threads);
  torch::manual_seed(opt.seed);
  const torch::Device dev = model::pick_device(opt.device);
  if (opt.max_steps <= 0 || opt.batch_size <= 0 || opt.log_every <= 0 || opt.checkpoint_every <= 0 || opt.max_polygons <= 0)
    throw Error("pretrain-poly: --max-steps, --batch-size, --log-every, --checkpoint-every and --max-polygons must be positive");
  check_optimiser(opt.lr, opt.weight_decay, opt.warmup_ratio);
  // Every rank checks the run folder before the ranks meet, so that none has written into it yet.
  RunFolder run(opt.out_dir, opt.resume, opt.overwrite, opt.distributed.rank == 0);
  DataParallel dp(opt.distributed);
  dp.barrier();
  const bool root = dp.root();
  // Everything that can be wrong with the inputs is found before the run folder is written.
  const data::PolyTileSource source(opt.data, opt.images);
  const model::PolyLossWeights weights = model::parse_poly_loss_weights(opt.loss_weights);
  const model::ModelConfig config = config_for(opt.config);
  model::PolyPretrain net(config.poly);
  model::init_poly_pretrain(*net);
  initialise(net, opt.init);
  dp.broadcast_parameters(*net);
  net->to(dev);
  FusedAdamW optimizer(net->parameters(),
                       torch::optim::AdamWOptions(opt.lr).betas({0.9, 0.999}).eps(1e-8).weight_decay(opt.weight_decay));

  run.create();
  const std::string log_path = opt.out_dir + "/log.jsonl";
  std::string log_text;
  long step = 0, log_lines = 0;
  std::vector<double> sums(8, 0.0);
  long in_sums = 0, empty_batches = 0, this_call = 0;
  double first_loss = NAN;
  if (!opt.resume) {
    if (root) write_file_atomic(opt.out_dir + "/options.json", poly_pretrain_options_to_json(opt));
  } else {
    const std::string last = completed_folder(opt.out_dir + "/last", "state.json");
    if (last.empty()) throw Error(opt.out_dir + ": nothing to resume (no last/state.json)");
    model::load_state_dict(*net, model::read_state_dict(last + "/model.safetensors"), last + "/model.safetensors");
    torch::load(optimizer, last + "/optimizer.pt");
    const std::string state_path = last + "/state.json";
    try {
      const auto j = parse_json(read_file(state_path), state_path);
      step = j.at("step"), log_lines = j.at("log_lines");
      first_loss = j.at("first_loss").is_number() ? j.at("first_loss").get<double>() : NAN;
      sums = j.at("sums").get<std::vector<double>>(), in_sums = j.at("in_sums"), empty_batches = j.at("empty_batches");
    } catch (const nlohmann::json::exception& e) {
      throw Error(state_path + ": " + e.what());
    }
    if (step < 0 || log_lines < 0 || in_sums < 0 || empty_batches < 0 || sums.size() != 8)
      throw Error(state_path + ": not a state this run can have written (step " + std::to_string(step) + "); it was edited or damaged");
    log_text = first_lines(fs::exists(log_path) ? read_file(log_path) : "", log_lines);
  }

  const size_t N = source.size(), B = static_cast<size_t>(opt.batch_size), W = static_cast<size_t>(dp.world_size());
  const long warmup = std::lround(opt.warmup_ratio * static_cast<double>(opt.max_steps));
  data::PolySampleOptions so;
  so.max_polygons = static_cast<size_t>(opt.max_polygons);
  TileOrder tile_at(N, opt.seed);
  PolyPretrainSummary s;
  s.tiles = N;
  const auto t0 = std::chrono::steady_clock::now();
  run.keep();  // from here on the folder holds a resumable run
  Progress bar("pretrain-poly", static_cast<size_t>(opt.max_steps - step), "steps");
  net->train();
  while (step < opt.max_steps) {
    // This step's tiles and samples (this rank's share of the B x world) and dropout: fixed by the
    // seed, the step and the rank alone, so a resumed run repeats exactly what an uninterrupted one does.
    seed_step(opt.seed, step, W, dp.rank());
    std::vector<data::PolySample> samples;
    for (size_t k = 0; k < B; ++k) {
      const uint64_t g = sample_index(step, B, W, dp.rank(), k);
      std::mt19937_64 rng(opt.seed * 1000003ull + g);
      samples.push_back(data::make_poly_sample(source.tile(tile_at(g)), so, rng));
    }
    std::vector<const data::PolySample*> ptrs;
    for (const auto& x : samples)
      if (x.count > 0) ptrs.push_back(&x);
    const double f = warmup_decay(step, warmup, opt.max_steps);
    for (auto& grp : optimizer.param_groups()) static_cast<torch::optim::AdamWOptions&>(grp.options()).lr(opt.lr * f);
    const auto local = model::poly_loss_counts(ptrs);
    std::vector<double> counts(local.begin(), local.end());
    dp.all_reduce_sum(counts);
    const std::array<double, 4> global{counts[0], counts[1], counts[2], counts[3]};
    if (global[3] == 0) {
      ++empty_batches;  // no polygon in any of the step's tiles: nothing to learn from
    } else {
      drop_gradients(optimizer);
      std::vector<double> parts(7, 0.0);
      if (!ptrs.empty()) {  // a rank whose tiles have no polygon still joins the gradient sum
        const model::PolyLosses L = net->losses(ptrs, weights, dev, &global);
        L.total.backward();
        for (size_t k = 0; k < 7; ++k) parts[k] = L.sums[k].item<double>();
        check_finite_loss(std::accumulate(parts.begin(), parts.end(), 0.0), "pretrain-poly", "step " + std::to_string(step + 1));
      }
      dp.sum_gradients(*net);
      optimizer.step();
      dp.all_reduce_sum(parts);
      // The whole batch's means, as logged by one process.
      const int which[7] = {0, 1, 1, 1, 1, 2, 3};
      const double w[7] = {weights.reconstruct, weights.angle, weights.center_x, weights.center_y, weights.distance, weights.closest,
                           weights.contrastive};
      for (size_t k = 0; k < 7; ++k) {
        const double c = global[static_cast<size_t>(which[k])], v = c > 0 ? parts[k] / c : 0.0;
        sums[k + 1] += v;
        sums[0] += w[k] * v;
      }
      ++in_sums;
    }
    ++step;
    if (opt.progress && root) bar.add();
    if (opt.interrupt_after_steps >= 0 && ++this_call >= opt.interrupt_after_steps)
      throw Error("pretraining interrupted after " + std::to_string(this_call) + " step(s) (test hook)");
    const bool log_now = step % opt.log_every == 0 || step == opt.max_steps;
    if (log_now && in_sums > 0) {
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      nlohmann::ordered_json line = {{"step", step}};
      for (size_t k = 0; k < 8; ++k) line[kLossNames[k]] = sums[k] / static_cast<double>(in_sums);
      line["lr"] = opt.lr * f;
      line["empty_batches"] = empty_batches;
      line["seconds"] = secs;
      if (std::isnan(first_loss)) first_loss = line["loss"].get<double>();
      s.last_loss = line["loss"];
      log_text += line.dump() + "\n";
      ++log_lines;
      if (root) {
        write_file_atomic(log_path, log_text);
        image::draw_step_curves(log_text, {std::begin(kLossNames), std::end(kLossNames)}, "Losses", opt.out_dir + "/curves.png");
      }
      std::fill(sums.begin(), sums.end(), 0.0);
      in_sums = empty_batches = 0;
    }
    if ((step % opt.checkpoint_every == 0 || step == opt.max_steps) && root) {
      const std::string tmp = opt.out_dir + "/last.tmp";
      remove_tree(tmp);
      model::write_model_folder(*net, config, tmp);
      torch::save(optimizer, tmp + "/optimizer.pt");
      // The loss sums since the last log line too, so that a resumed run logs what this one would.
      nlohmann::ordered_json st = {{"step", step}, {"log_lines", log_lines}, {"first_loss", first_loss},
                                   {"sums", sums}, {"in_sums", in_sums}, {"empty_batches", empty_batches}};
      write_file_atomic(tmp + "/state.json", st.dump(1));
      swap_in(tmp, opt.out_dir + "/last");
    }
  }
  if (opt.progress && root) bar.finish();
  if (root) {
    const std::string tmp = opt.out_dir + "/final.tmp";
    remove_tree(tmp);
    model::write_model_folder(*net, config, tmp);
    swap_in(tmp, opt.out_dir + "/final");
  }
  dp.barrier();
  s.steps = step;
  s.first_loss = first_loss;
  s.skipped_polygons = source.skipped_polygons();
  return s;
}

}  // namespace light::train

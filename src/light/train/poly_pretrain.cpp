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
#include "light/train/step_run.h"
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

// The whole batch's mean losses, as one process logs them: the weighted total, then each part over
// the count it is averaged by (polygons, pairs, tiles).
std::vector<double> batch_means(const std::vector<double>& parts, const std::array<double, 4>& counts, const model::PolyLossWeights& weights) {
  const int which[7] = {0, 1, 1, 1, 1, 2, 3};
  const double w[7] = {weights.reconstruct, weights.angle, weights.center_x, weights.center_y, weights.distance, weights.closest,
                       weights.contrastive};
  std::vector<double> means(8, 0.0);
  for (size_t k = 0; k < 7; ++k) {
    const double c = counts[static_cast<size_t>(which[k])], v = c > 0 ? parts[k] / c : 0.0;
    means[k + 1] = v;
    means[0] += w[k] * v;
  }
  return means;
}


}  // namespace

const std::vector<RunOption<PolyPretrainOptions>>& poly_pretrain_run_options() {
  using O = RunOption<PolyPretrainOptions>;
  using T = PolyPretrainOptions;
  static const std::vector<O> options = with_step_run_options<T>({
      O("--data", "data", &T::data,
        "MapText JSON (ground truth or spotter output), or a folder of per-image {\"annotations\": [{\"pts\"}]} files")
          .absolute()
          .required(),
      O("--images", "images", &T::images, "Folder of the tile images (their sizes normalise the coordinates)").absolute().required(),
      O("--out", nullptr, &T::out_dir, "Run folder (options.json, log.jsonl, curves.png, last/, final/)").local().required(),
      O("--config", "config", &T::config, "small | base | tiny | a config.json (its poly_encoder section)").absolute_or_name(),
      O("--init", "init", &T::init, "none | a pretrain-poly run or checkpoint (also the reference's .pth) | a LIGHT model").absolute_or_name(),
      O("--batch-size", "batch_size", &T::batch_size, "Tiles per step"),
      O("--loss-weights", "loss_weights", &T::loss_weights,
        "name=value,... over reconstruct, angle, center_x, center_y, distance, closest, contrastive (default: all 1, as the reference's code)"),
      O("--max-polygons", "max_polygons", &T::max_polygons, "Polygons per tile and step (a random subset beyond)"),
  });
  return options;
}

void read_poly_pretrain_options(const std::string& run_dir, PolyPretrainOptions& o) {
  read_run_options(run_dir, "pretrain-poly", poly_pretrain_run_options(), o);
}

PolyPretrainSummary poly_pretrain(const PolyPretrainOptions& opt) {
  if (opt.max_polygons <= 0) throw Error("pretrain-poly: --max-polygons must be positive");
  StepRunStart start(opt, "pretrain-poly");
  const torch::Device dev = start.device;
  DataParallel& dp = start.dp;
  const bool root = start.root;
  // Everything that can be wrong with the inputs is found before the run folder is written.
  const data::PolygonPoints polygon_points = data::parse_polygon_points(opt.polygon_points, "--polygon-points");
  const data::PolyTileSource source(opt.data, opt.images, polygon_points);
  const model::PolyLossWeights weights = model::parse_poly_loss_weights(opt.loss_weights);
  model::ModelConfig config = config_for(opt.config);
  config.polygon_points = polygon_points;
  model::PolyPretrain net(config.poly);
  model::init_poly_pretrain(*net);
  initialise(net, opt.init);
  dp.broadcast_parameters(*net);
  net->to(dev);
  FusedAdamW optimizer(net->parameters(),
                       torch::optim::AdamWOptions(opt.lr).betas({0.9, 0.999}).eps(1e-8).weight_decay(opt.weight_decay));

  start.run.create();
  StepLog log({std::begin(kLossNames), std::end(kLossNames)}, "Losses", opt.out_dir, root, /*count_empty=*/true);
  long step = 0;
  if (!opt.resume) {
    if (root) write_file_atomic(opt.out_dir + "/options.json", run_options_json(opt, poly_pretrain_run_options()));
  } else {
    std::string state_path;
    step = log.restore(read_last(opt.out_dir, *net, optimizer, &state_path), state_path);
  }

  const size_t N = source.size(), B = static_cast<size_t>(opt.batch_size), W = static_cast<size_t>(dp.world_size());
  data::PolySampleOptions so;
  so.max_polygons = static_cast<size_t>(opt.max_polygons);
  TileOrder tile_at(N, opt.seed);
  net->train();
  // One step: this rank's share of the B x world tiles, the losses over the whole batch's counts.
  const auto one_step = [&](long step) {
    std::vector<data::PolySample> samples;
    for (size_t k = 0; k < B; ++k) {
      const uint64_t g = sample_index(step, B, W, dp.rank(), k);
      std::mt19937_64 rng(opt.seed * 1000003ull + g);
      samples.push_back(data::make_poly_sample(source.tile(tile_at(g)), so, rng));
    }
    std::vector<const data::PolySample*> ptrs;
    for (const auto& x : samples)
      if (x.count > 0) ptrs.push_back(&x);
    const auto local = model::poly_loss_counts(ptrs);
    std::vector<double> counts(local.begin(), local.end());
    dp.all_reduce_sum(counts);
    const std::array<double, 4> global{counts[0], counts[1], counts[2], counts[3]};
    if (global[3] == 0) {
      log.add_empty();  // no polygon in any of the step's tiles: nothing to learn from
      return;
    }
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
    log.add(batch_means(parts, global, weights));
  };
  PolyPretrainSummary s;
  s.tiles = N;
  s.steps = run_steps(opt, start, log, step, "pretrain-poly", {&*net, &config, "", {}}, optimizer, one_step);
  s.first_loss = log.first_loss();
  s.last_loss = log.last_loss();
  s.skipped_polygons = source.skipped_polygons();
  s.degenerate_polygons = source.degenerate_polygons();
  s.first_degenerate = source.first_degenerate();
  return s;
}

}  // namespace light::train

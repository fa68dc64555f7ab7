// The inference products (model/gemm) and the blocked rest of a layer against LibTorch's own ops.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "light/model/gemm.h"
#include "light/model/transformer.h"

namespace {

using light::model::addmm_weight;
using light::model::gemm_into;
using light::model::linear;

double max_diff(const torch::Tensor& a, const torch::Tensor& b) { return (a - b).abs().max().item<double>(); }

TEST(Gemm, AddmmWeightEqualsLibTorchsAddmmOnContiguousAndStridedRows) {
  const torch::NoGradGuard no_grad;
  torch::manual_seed(7);
  const torch::Tensor big = torch::randn({37, 90});
  const torch::Tensor w = torch::randn({21, 40}), bias = torch::randn({21}), bias_before = bias.clone();
  // A single row too: the bias, copied into the output's rows, must not become the output.
  for (const torch::Tensor& a : {big.slice(1, 0, 40).contiguous(), big.slice(1, 10, 50), big.slice(0, 3, 4).slice(1, 5, 45)}) {
    const torch::Tensor got = addmm_weight(bias, a, w), got_scaled = addmm_weight(bias, a, w, 0.25);
    EXPECT_EQ(max_diff(bias, bias_before), 0.0);
    EXPECT_LT(max_diff(got, torch::addmm(bias_before, a, w.t())), 1e-4);
    EXPECT_LT(max_diff(got_scaled, torch::addmm(bias_before, a, w.t(), 1.0, 0.25)), 1e-4);
    EXPECT_LT(max_diff(addmm_weight(torch::Tensor(), a, w), torch::mm(a, w.t())), 1e-4);
  }
}

TEST(Gemm, GemmIntoWritesTheRowsOfAViewAndKeepsTheRest) {
  const torch::NoGradGuard no_grad;
  torch::manual_seed(8);
  const torch::Tensor a = torch::randn({30, 64}).slice(1, 0, 16), b = torch::randn({25, 48}).slice(1, 8, 24);  // [30,16], [25,16]
  torch::Tensor whole = torch::randn({30, 3, 25});
  const torch::Tensor before = whole.clone();
  torch::Tensor out = whole.select(1, 1);  // rows 75 apart
  gemm_into(out, a, b, /*b_transposed=*/true, 0.5, 1.0);
  EXPECT_LT(max_diff(whole.select(1, 1), before.select(1, 1) + 0.5 * torch::mm(a, b.t())), 1e-4);
  EXPECT_EQ(max_diff(whole.select(1, 0), before.select(1, 0)), 0.0);
  EXPECT_EQ(max_diff(whole.select(1, 2), before.select(1, 2)), 0.0);

  const torch::Tensor v = torch::randn({25, 40}).slice(1, 4, 20);  // [25, 16], rows 40 apart
  torch::Tensor ctx = torch::zeros({30, 2, 16});
  torch::Tensor head = ctx.select(1, 1);
  const torch::Tensor scores = torch::randn({30, 25});
  gemm_into(head, scores, v, /*b_transposed=*/false, 1.0, 0.0);
  EXPECT_LT(max_diff(ctx.select(1, 1), torch::mm(scores, v)), 1e-4);
  EXPECT_EQ(ctx.select(1, 0).abs().max().item<double>(), 0.0);
}

TEST(Gemm, TrainableLinearGivesLibTorchsOutputsAndGradients) {
  torch::manual_seed(10);
  for (const bool with_bias : {true, false}) {
    torch::nn::Linear lin(torch::nn::LinearOptions(48, 24).bias(with_bias));
    torch::nn::Linear ref(torch::nn::LinearOptions(48, 24).bias(with_bias));
    {
      const torch::NoGradGuard no_grad;
      ref->weight.copy_(lin->weight);
      if (with_bias) ref->bias.copy_(lin->bias);
    }
    const torch::Tensor x = torch::randn({3, 17, 48}, torch::requires_grad()), x_ref = x.detach().clone().requires_grad_(true);
    const torch::Tensor y = linear(lin, x), y_ref = ref->forward(x_ref);
    EXPECT_LT(max_diff(y, y_ref), 1e-4);
    const torch::Tensor upstream = torch::randn({3, 17, 24});
    (y * upstream).sum().backward();
    (y_ref * upstream).sum().backward();
    EXPECT_LT(max_diff(x.grad(), x_ref.grad()), 1e-4);
    EXPECT_LT(max_diff(lin->weight.grad(), ref->weight.grad()), 1e-4);
    if (with_bias) EXPECT_LT(max_diff(lin->bias.grad(), ref->bias.grad()), 1e-4);
  }
}

TEST(Gemm, GemmIntoTransposesItsFirstMatrixWhereAsked) {
  const torch::NoGradGuard no_grad;
  torch::manual_seed(11);
  const torch::Tensor g = torch::randn({40, 12}), x = torch::randn({40, 30});
  torch::Tensor out = torch::empty({12, 30});
  gemm_into(out, g, x, /*b_transposed=*/false, 1.0, 0.0, /*a_transposed=*/true);
  EXPECT_LT(max_diff(out, torch::mm(g.t(), x)), 1e-4);
}

TEST(Gemm, BlockedFinishOfALayerEqualsTheLayerRowByRow) {
  torch::manual_seed(9);
  light::model::TransformerLayer layer(64, 4, 256, 1e-12, light::model::AttentionStyle::Bert, 0.0, 0.0);
  layer->eval();
  const torch::NoGradGuard no_grad;
  // 2 x 700 rows: several blocks and a ragged last one; xq a slice of a longer sequence, as a layer
  // that computes only its first rows gets it.
  const torch::Tensor context = torch::randn({2, 700, 64});
  const torch::Tensor x = torch::randn({2, 900, 64}), xq = x.slice(1, 0, 700);
  const torch::Tensor got = layer->finish_inference(context, xq);
  auto& out = layer->output;
  const torch::Tensor att = layer->attention->output->LayerNorm(
      torch::addmm(layer->attention->output->dense->bias, context.reshape({-1, 64}), layer->attention->output->dense->weight.t())
          .view({2, 700, 64}) +
      xq);
  const torch::Tensor inter = torch::gelu(torch::matmul(att, layer->intermediate->dense->weight.t()) + layer->intermediate->dense->bias);
  const torch::Tensor want = out->LayerNorm(torch::matmul(inter, out->dense->weight.t()) + out->dense->bias + att);
  ASSERT_EQ(got.sizes(), want.sizes());
  EXPECT_LT(max_diff(got, want), 1e-4);
  EXPECT_LT(max_diff(layer->finish(context, xq), want), 1e-4);
}

}  // namespace

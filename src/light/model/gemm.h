// Single-precision matrix products on the CPU, through oneDNN's sgemm when `light` is built with
// it (Debian: libdnnl-dev; LibTorch itself loads it). oneDNN picks its kernels by the CPU's
// instruction sets; OpenBLAS 0.3.21 by the CPU's model, or as OPENBLAS_CORETYPE says (machines whose
// CPU it misjudges run it as Haswell, its AVX2 kernels): there oneDNN multiplies about twice as fast.
// Anything else (another device or type, odd strides, no oneDNN) goes to LibTorch.
#pragma once
#include <torch/torch.h>

namespace light::model {

// Whether the products below run through oneDNN in this build.
bool gemm_uses_onednn();

// bias + alpha * a @ w^T: a [M, K] (rows of unit stride), w [N, K] (a Linear's weight), bias [N]
// (undefined: none). [M, N], contiguous.
torch::Tensor addmm_weight(const torch::Tensor& bias, const torch::Tensor& a, const torch::Tensor& w, double alpha = 1.0);

// out = beta * out + alpha * op(a) @ op(b) (op: transposed where asked), every matrix 2-D with rows
// of unit stride (out may be a view into a larger tensor: its rows written in place).
void gemm_into(torch::Tensor& out, const torch::Tensor& a, const torch::Tensor& b, bool b_transposed, double alpha, double beta,
               bool a_transposed = false);

// lin(x) for x [..., in] as one product over its rows that starts from the bias (LibTorch 1.13 runs
// a Linear on [B, S, in] as a product, then a second pass adding the bias): oneDNN's where it
// applies, through an autograd function whose backward's products are oneDNN's too where gradients
// are wanted; LibTorch's addmm otherwise.
torch::Tensor linear(torch::nn::Linear& lin, const torch::Tensor& x);

}  // namespace light::model

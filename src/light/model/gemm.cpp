#include "light/model/gemm.h"

#ifdef LIGHT_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl.h>
#endif

namespace light::model {

bool gemm_uses_onednn() {
#ifdef LIGHT_HAVE_ONEDNN
  return true;
#else
  return false;
#endif
}

namespace {
// A 2-D float32 CPU matrix whose rows have unit stride: what sgemm reads with a leading dimension.
bool sgemm_matrix(const torch::Tensor& t) {
  return t.dim() == 2 && t.scalar_type() == torch::kFloat32 && t.device().is_cpu() && t.stride(1) == 1 && t.stride(0) >= t.size(1) &&
         t.stride(0) >= 1;
}
// Whether oneDNN can multiply these matrices in place (whether or not gradients are wanted).
bool onednn_reads(std::initializer_list<const torch::Tensor*> ts) {
  if (!gemm_uses_onednn()) return false;
  for (const torch::Tensor* t : ts)
    if (!sgemm_matrix(*t)) return false;
  return true;
}
// ... and whether a product outside autograd may: none of them wants a gradient.
bool onednn_applies(std::initializer_list<const torch::Tensor*> ts) {
  if (torch::GradMode::is_enabled())
    for (const torch::Tensor* t : ts)
      if (t->defined() && t->requires_grad()) return false;
  return onednn_reads(ts);
}
bool onednn_bias(const torch::Tensor& b) {
  return !b.defined() || (b.dim() == 1 && b.is_contiguous() && b.scalar_type() == torch::kFloat32 && b.device().is_cpu());
}
#ifdef LIGHT_HAVE_ONEDNN
// C (M x N, row stride ldc) = beta C + alpha op(A) op(B); false where oneDNN refuses (the caller falls back).
bool onednn_sgemm(const torch::Tensor& a, bool a_transposed, const torch::Tensor& b, bool b_transposed, double alpha, double beta,
                  torch::Tensor& c) {
  const int64_t M = c.size(0), N = c.size(1), K = a_transposed ? a.size(0) : a.size(1);
  if (M == 0 || N == 0) return true;
  return dnnl_sgemm(a_transposed ? 'T' : 'N', b_transposed ? 'T' : 'N', M, N, K, static_cast<float>(alpha), a.data_ptr<float>(),
                    a.stride(0), b.data_ptr<float>(), b.stride(0), static_cast<float>(beta), c.data_ptr<float>(),
                    c.stride(0)) == dnnl_success;
}
#endif

// x @ w^T + b with oneDNN's products both ways: the backward's two products (the input's gradient
// g @ w, the weight's g^T @ x) are as large as the forward's.
struct OnednnLinear : torch::autograd::Function<OnednnLinear> {
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& w,
                               const torch::Tensor& b) {
    ctx->save_for_backward({x, w});
    return addmm_weight(b, x, w);
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const torch::Tensor &x = saved[0], &w = saved[1];
    const torch::Tensor g = grads[0].contiguous();
    torch::Tensor gx, gw, gb;
    if (ctx->needs_input_grad(0)) {
      gx = torch::empty_like(x, at::MemoryFormat::Contiguous);
      gemm_into(gx, g, w, /*b_transposed=*/false, 1.0, 0.0);
    }
    if (ctx->needs_input_grad(1)) {
      gw = torch::empty_like(w, at::MemoryFormat::Contiguous);
      gemm_into(gw, g, x, /*b_transposed=*/false, 1.0, 0.0, /*a_transposed=*/true);
    }
    if (ctx->needs_input_grad(2)) gb = g.sum(0);
    return {gx, gw, gb};
  }
};
}  // namespace

torch::Tensor addmm_weight(const torch::Tensor& bias, const torch::Tensor& a, const torch::Tensor& w, double alpha) {
  const bool with_bias = bias.defined();
  const bool bias_grad = with_bias && torch::GradMode::is_enabled() && bias.requires_grad();
  if (onednn_bias(bias) && !bias_grad && w.is_contiguous() && onednn_applies({&a, &w})) {
#ifdef LIGHT_HAVE_ONEDNN
    // A copy of the bias in every row, made with clone: contiguous() of a one-row expand is the
    // bias itself, which the product would then overwrite.
    torch::Tensor out = with_bias ? bias.unsqueeze(0).expand({a.size(0), w.size(0)}).clone(at::MemoryFormat::Contiguous)
                                  : torch::empty({a.size(0), w.size(0)}, a.options());
    if (onednn_sgemm(a, false, w, true, alpha, with_bias ? 1.0 : 0.0, out)) return out;
#endif
  }
  if (with_bias) return torch::addmm(bias, a, w.t(), 1.0, alpha);
  return alpha == 1.0 ? torch::mm(a, w.t()) : torch::mm(a, w.t()).mul_(alpha);
}

void gemm_into(torch::Tensor& out, const torch::Tensor& a, const torch::Tensor& b, bool b_transposed, double alpha, double beta,
               bool a_transposed) {
  if (onednn_applies({&out, &a, &b})) {
#ifdef LIGHT_HAVE_ONEDNN
    if (onednn_sgemm(a, a_transposed, b, b_transposed, alpha, beta, out)) return;
#endif
  }
  const torch::Tensor aa = a_transposed ? a.t() : a, bb = b_transposed ? b.t() : b;
  if (beta == 0.0) {
    torch::mm_out(out, aa, bb);
    if (alpha != 1.0) out.mul_(alpha);
  } else {
    out.addmm_(aa, bb, beta, alpha);
  }
}

torch::Tensor linear(torch::nn::Linear& lin, const torch::Tensor& x) {
  if (x.dim() < 2 || !x.is_contiguous()) return lin->forward(x);
  const torch::Tensor &w = lin->weight, &b = lin->bias;
  std::vector<int64_t> shape = x.sizes().vec();
  shape.back() = w.size(0);
  const torch::Tensor rows = x.view({-1, x.size(-1)});
  const bool grads = torch::GradMode::is_enabled() && (x.requires_grad() || w.requires_grad() || (b.defined() && b.requires_grad()));
  if (grads && onednn_bias(b) && w.is_contiguous() && onednn_reads({&rows, &w}))
    return OnednnLinear::apply(rows, w, b.defined() ? b : torch::zeros({w.size(0)}, w.options())).view(shape);
  return addmm_weight(b, rows, w).view(shape);
}

}  // namespace light::model

#include "light/train/adamw.h"

#include <ATen/Parallel.h>

#include <cmath>
#include <sstream>
#include <string>
#include <type_traits>

namespace light::train {

namespace {
// One parameter's AdamW update, as torch::optim::AdamW::step computes it:
//   p *= 1 - lr*wd;  m = m*b1 + (1-b1)*g;  v = v*b2 + (1-b2)*g*g;
//   p -= (lr/bc1) * m / (sqrt(v)/sqrt(bc2) + eps)
// (1 - beta) is rounded from double, as LibTorch passes it: 1 - float(0.999) is 5e-5 off.
void update(float* p, const float* g, float* m, float* v, int64_t n, float decay, double beta1, double beta2, float eps,
            float sqrt_bc2, float step_size, bool weight_decay) {
  const float b1 = static_cast<float>(beta1), b2 = static_cast<float>(beta2);
  const float a1 = static_cast<float>(1 - beta1), a2 = static_cast<float>(1 - beta2);
  at::parallel_for(0, n, 1 << 15, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const float gi = g[i];
      const float mi = m[i] * b1 + a1 * gi;
      const float vi = v[i] * b2 + a2 * (gi * gi);
      m[i] = mi;
      v[i] = vi;
      const float pi = weight_decay ? p[i] * decay : p[i];
      p[i] = pi - step_size * (mi / (std::sqrt(vi) / sqrt_bc2 + eps));
    }
  });
}

// The optimizer's state key for a parameter: its TensorImpl's address as text up to LibTorch 2.10
// (what c10::guts::to_string gave), the address itself from 2.11.
template <class Key>
Key state_key(c10::TensorImpl* impl) {
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream s;
    s << impl;
    return s.str();
  } else {
    return impl;
  }
}

bool fusable(const torch::Tensor& t) { return t.device().is_cpu() && t.scalar_type() == torch::kFloat32 && t.is_contiguous(); }
}  // namespace

torch::Tensor FusedAdamW::step(LossClosure closure) {
  torch::NoGradGuard no_grad;
  torch::Tensor loss = {};
  if (closure != nullptr) {
    at::AutoGradMode enable_grad(true);
    loss = closure();
  }
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const torch::optim::AdamWOptions&>(group.options());
    const double lr = o.lr(), wd = o.weight_decay(), eps = o.eps();
    const double b1 = std::get<0>(o.betas()), b2 = std::get<1>(o.betas());
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      const torch::Tensor& grad = p.grad();
      TORCH_CHECK(!grad.is_sparse(), "FusedAdamW does not support sparse gradients");
      const auto key = state_key<std::decay_t<decltype(state_.begin()->first)>>(p.unsafeGetTensorImpl());
      auto it = state_.find(key);
      if (it == state_.end()) {
        auto s = std::make_unique<torch::optim::AdamWParamState>();
        s->step(0);
        s->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        s->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        if (o.amsgrad()) s->max_exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        it = state_.emplace(key, std::move(s)).first;
      }
      auto& s = static_cast<torch::optim::AdamWParamState&>(*it->second);
      const bool fused = !o.amsgrad() && fusable(p) && fusable(grad) && fusable(s.exp_avg()) && fusable(s.exp_avg_sq());
      s.step(s.step() + 1);
      const double bc1 = 1 - std::pow(b1, static_cast<double>(s.step()));
      const double bc2 = 1 - std::pow(b2, static_cast<double>(s.step()));
      const double step_size = lr / bc1;
      if (fused) {
        update(p.data_ptr<float>(), grad.data_ptr<float>(), s.exp_avg().data_ptr<float>(), s.exp_avg_sq().data_ptr<float>(), p.numel(),
               static_cast<float>(1 - lr * wd), b1, b2, static_cast<float>(eps),
               static_cast<float>(std::sqrt(bc2)), static_cast<float>(step_size), wd != 0);
        continue;
      }
      // LibTorch 1.13's torch::optim::AdamW::step, for one parameter.
      if (wd != 0) p.mul_(1 - lr * wd);
      s.exp_avg().mul_(b1).add_(grad, 1 - b1);
      s.exp_avg_sq().mul_(b2).addcmul_(grad, grad, 1 - b2);
      torch::Tensor denom;
      if (o.amsgrad()) {
        torch::max_out(s.max_exp_avg_sq(), s.exp_avg_sq(), s.max_exp_avg_sq());
        denom = (s.max_exp_avg_sq().sqrt() / std::sqrt(bc2)).add_(eps);
      } else {
        denom = (s.exp_avg_sq().sqrt() / std::sqrt(bc2)).add_(eps);
      }
      p.addcdiv_(s.exp_avg(), denom, -step_size);
    }
  }
  return loss;
}

void drop_gradients(torch::optim::Optimizer& opt) {
  for (auto& group : opt.param_groups())
    for (auto& p : group.params())
      if (p.mutable_grad().defined()) p.mutable_grad().reset();
}

}  // namespace light::train

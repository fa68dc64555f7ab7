#include "light/model/dropout.h"

#include <ATen/Parallel.h>

#include <limits>

namespace light::model {

namespace {
inline uint64_t splitmix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// out[i] = in[i] * scale where element i is kept, 0 where it is dropped.
template <typename T>
void apply_mask(const T* in, T* out, int64_t n, uint64_t seed, uint32_t threshold, T scale) {
  const int64_t pairs = (n + 1) / 2;
  at::parallel_for(0, pairs, 1 << 14, [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) {
      const uint64_t h = splitmix64(seed + static_cast<uint64_t>(k));
      const int64_t i = 2 * k;
      out[i] = static_cast<uint32_t>(h) >= threshold ? in[i] * scale : T(0);
      if (i + 1 < n) out[i + 1] = static_cast<uint32_t>(h >> 32) >= threshold ? in[i + 1] * scale : T(0);
    }
  });
}

torch::Tensor masked(const torch::Tensor& x, double p, uint64_t seed) {
  const torch::Tensor in = x.contiguous();
  torch::Tensor out = torch::empty_like(in);
  // Dropped where the 32-bit draw is below p * 2^32 (p < 1 here).
  const auto threshold = static_cast<uint32_t>(p * 4294967296.0);
  if (in.scalar_type() == torch::kFloat32)
    apply_mask(in.data_ptr<float>(), out.data_ptr<float>(), in.numel(), seed, threshold, static_cast<float>(1.0 / (1.0 - p)));
  else
    apply_mask(in.data_ptr<double>(), out.data_ptr<double>(), in.numel(), seed, threshold, 1.0 / (1.0 - p));
  return out;
}

struct HashDropout : torch::autograd::Function<HashDropout> {
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x, double p, int64_t seed) {
    ctx->saved_data["p"] = p;
    ctx->saved_data["seed"] = seed;
    return masked(x, p, static_cast<uint64_t>(seed));
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grad) {
    const double p = ctx->saved_data["p"].toDouble();
    const auto seed = static_cast<uint64_t>(ctx->saved_data["seed"].toInt());
    return {masked(grad[0], p, seed), torch::Tensor(), torch::Tensor()};
  }
};
}  // namespace

torch::Tensor train_dropout(const torch::Tensor& x, double p) {
  if (p <= 0) return x;
  const auto t = x.scalar_type();
  if (p >= 1 || !x.device().is_cpu() || (t != torch::kFloat32 && t != torch::kFloat64)) return torch::dropout(x, p, true);
  // One draw from LibTorch's default generator per call: seeded, saved and restored with it.
  const int64_t seed = torch::randint(std::numeric_limits<int64_t>::max(), {1}, torch::kInt64).item<int64_t>();
  return HashDropout::apply(x, p, seed);
}

}  // namespace light::model

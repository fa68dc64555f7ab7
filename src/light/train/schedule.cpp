#include "light/train/schedule.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <sstream>

#include "light/error.h"

namespace light::train {

size_t TileOrder::operator()(uint64_t g) {
  const uint64_t epoch = g / n_;
  if (epoch != epoch_) {
    order_.resize(n_);
    std::iota(order_.begin(), order_.end(), 0);
    std::mt19937_64 rng(seed_ * 7919 + epoch);
    std::shuffle(order_.begin(), order_.end(), rng);
    epoch_ = epoch;
  }
  return order_[g % n_];
}

void seed_step(uint64_t seed, long step, size_t world, int rank) {
  torch::manual_seed(seed * 1000033ull + static_cast<uint64_t>(step) * world + static_cast<uint64_t>(rank));
}

double warmup_decay(long step, long warmup, long total) {
  if (step < warmup) return static_cast<double>(step) / static_cast<double>(warmup);
  return std::max(0.0, static_cast<double>(total - step) / static_cast<double>(std::max(1L, total - warmup)));
}

void save_cpu_rng(const std::string& path) {
  torch::Tensor rng = at::detail::getDefaultCPUGenerator().get_state();
  torch::save(rng, path);
}

void load_cpu_rng(const std::string& path) {
  torch::Tensor rng;
  torch::load(rng, path);
  at::Generator gen = at::detail::getDefaultCPUGenerator();
  gen.set_state(rng);
}

void check_finite_loss(double loss, const std::string& what, const std::string& at) {
  if (std::isfinite(loss)) return;
  std::ostringstream m;
  m << what << ": the loss is " << loss << " at " << at
    << "; the run stops (a lower --lr may help) and keeps its last checkpoint (--resume continues from it)";
  throw Error(m.str());
}

}  // namespace light::train

// What decides a training step: its tiles (TileOrder), its seeds, its learning rate (warm-up and
// decay), the random state a checkpoint keeps, and the stop on a loss that is not finite.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace light::train {

// The tiles of a step-based run (both pretraining loops): the g-th tile drawn is order[g % n] of epoch
// g / n's seeded shuffle, so any step's tiles follow from the seed alone (resuming, data-parallel ranks).
class TileOrder {
 public:
  TileOrder(size_t tiles, uint64_t seed) : n_(tiles), seed_(seed) {}
  size_t operator()(uint64_t g);

 private:
  size_t n_;
  uint64_t seed_, epoch_ = UINT64_MAX;
  std::vector<size_t> order_;
};

// The global index of sample k of `rank`'s share of step `step` (batch B per rank, `world` ranks).
inline uint64_t sample_index(long step, size_t batch, size_t world, int rank, size_t k) {
  return static_cast<uint64_t>(step) * batch * world + static_cast<uint64_t>(rank) * batch + k;
}
// Seeds LibTorch's generators (dropout) for one step of one rank.
void seed_step(uint64_t seed, long step, size_t world, int rank);
// The learning-rate factor of a linear warm-up over `warmup` steps, then a linear decay to 0 at `total`.
double warmup_decay(long step, long warmup, long total);

// LibTorch's default CPU generator (dropout, permutations) to and from a file.
void save_cpu_rng(const std::string& path);
void load_cpu_rng(const std::string& path);

// Throws light::Error (the run stops; its last checkpoint stays the last good one) when a loss is not
// finite: "WHAT: the loss is VALUE at STEP; the run stops (lower --lr?) and keeps its last checkpoint".
void check_finite_loss(double loss, const std::string& what, const std::string& at);

}  // namespace light::train

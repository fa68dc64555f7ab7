// Data-parallel training across processes through LibTorch's own distributed layer (c10d): Gloo on
// CPU. N processes (ranks) each take 1/N of every step's samples; after the backward pass their
// gradients are summed (one flat all-reduce) so every rank takes the same optimizer step; rank 0
// writes the run folder. Ranks meet through a store: a folder on a filesystem they share (a fresh one
// per run; `scripts/launch.sh` makes one) or host:port (rank 0 listens there).
#pragma once
#include <torch/nn/module.h>

#include <memory>
#include <string>
#include <vector>

#include "light/train/distributed_options.h"

namespace light::train {

class DataParallel {
 public:
  // world_size 1: a no-op group. Throws light::Error for bad options or when this LibTorch has no Gloo.
  explicit DataParallel(const DistributedOptions& options);
  ~DataParallel();
  DataParallel(const DataParallel&) = delete;
  DataParallel& operator=(const DataParallel&) = delete;

  int rank() const { return rank_; }
  int world_size() const { return world_; }
  bool root() const { return rank_ == 0; }

  // Sums across ranks, in place.
  void all_reduce_sum(std::vector<double>& values);
  // Sums every trainable parameter's gradient across ranks (a parameter without a gradient on every
  // rank keeps none, as in one process), in one flat buffer.
  void sum_gradients(torch::nn::Module& module);
  // Copies rank 0's parameters to every rank.
  void broadcast_parameters(torch::nn::Module& module);
  void barrier();

 private:
  struct Group;
  int rank_ = 0, world_ = 1;
  std::unique_ptr<Group> group_;
};

}  // namespace light::train

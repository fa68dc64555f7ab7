// How a training process joins a data-parallel group (no LibTorch here; see train/distributed.h).
#pragma once
#include <string>

namespace light::train {

struct DistributedOptions {
  int world_size = 1, rank = 0;
  std::string store;  // a fresh folder all ranks see, or host:port (needed when world_size > 1)
};

}  // namespace light::train

// How a training process joins a data-parallel group (no LibTorch here; see train/distributed.h).
#pragma once
#include <string>

namespace light::train {

struct DistributedOptions {
  int world_size = 1, rank = 0;
  std::string store;  // a fresh folder all ranks see, or host:port (needed when world_size > 1)
};

// Whether this build can run more than one rank (LibTorch with c10d and the Gloo headers).
bool distributed_available();

}  // namespace light::train

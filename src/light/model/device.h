// Where a command runs its model: the device (--device) and LibTorch's threads (--threads).
#pragma once
#include <c10/core/Device.h>

#include <string>

namespace light::model {

// "cpu" or "cuda" (checked to exist); anything else is a light::Error naming --device.
c10::Device pick_device(const std::string& name);

// Sets LibTorch's intra-op thread count (0 = all hardware threads).
void set_threads(int n);
// The same, only when the count differs: a model calls it before each forward, so that two models of
// one process (two Linkers in Python) each run with their own count, whichever was made last.
void use_threads(int n);
// LibTorch's thread count as the library's own code sees it (OpenMP's, in its OpenMP-compiled code).
int threads_in_use();

}  // namespace light::model

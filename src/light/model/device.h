// Where a command runs its model: the device (--device) and LibTorch's threads (--threads).
#pragma once
#include <c10/core/Device.h>

#include <string>

namespace light::model {

// "cpu" or "cuda" (checked to exist); anything else is a light::Error naming --device.
c10::Device pick_device(const std::string& name);

// Sets LibTorch's intra-op thread count (0 = all hardware threads).
void set_threads(int n);

}  // namespace light::model

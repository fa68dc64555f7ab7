// AdamW with the update done in one pass over memory.
//
// torch::optim::AdamW (LibTorch 1.13) updates a parameter in eight tensor operations, two of which
// allocate a full-size temporary: at the base size (170 M parameters) that is about 11 GB of memory
// traffic per step. FusedAdamW computes the same update (the same formula, in float, in the same
// order of operations) in one loop that reads the parameter, gradient and both moments once and
// writes them once, parallel over the LibTorch threads. Its state, options and serialisation are
// torch::optim::AdamW's: a checkpoint's `optimizer.pt` loads into either. Parameters that are not
// contiguous float32 CPU tensors (CUDA ones, for instance) and amsgrad take the LibTorch path.
#pragma once
#include <torch/optim/adamw.h>

namespace light::train {

class FusedAdamW : public torch::optim::AdamW {
 public:
  using torch::optim::AdamW::AdamW;
  torch::Tensor step(LossClosure closure = nullptr) override;
};

// Gradients dropped (set to none) rather than zeroed, as PyTorch's `zero_grad()` does since 2.0: the
// next backward then writes each gradient instead of adding it to a zeroed one.
void drop_gradients(torch::optim::Optimizer& opt);

}  // namespace light::train

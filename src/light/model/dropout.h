// Dropout for training, with its random mask made by a counter-based hash instead of LibTorch's
// bernoulli_ (which on Debian's CPU LibTorch draws each element from a Mersenne Twister: a
// quarter of the base training step's forward went there).
//
// Element i of a call keeps its value (scaled by 1/(1-p)) unless 32 bits of
// splitmix64(seed + floor(i/2)) fall below p * 2^32; the seed is drawn once per call from LibTorch's
// default generator, so torch::manual_seed and a saved generator state reproduce every mask, on
// any number of threads. The backward pass recomputes the mask from the seed (nothing is stored).
// CUDA tensors and dtypes other than float32/float64 use torch::dropout.
#pragma once
#include <ATen/core/Tensor.h>

namespace light::model {

// Training-mode dropout of x with probability p (0 <= p <= 1).
torch::Tensor train_dropout(const torch::Tensor& x, double p);

}  // namespace light::model

// LayoutLMv3's relative-position buckets (T5-style): exact small distances, logarithmic buckets up to
// max_distance, computed as transformers' LayoutLMv3Encoder.relative_position_bucket does (its
// logarithm in float32). 1D text/visual bias: 32 buckets, 128; 2D x0/y1 bias: 64 buckets, 256.
#pragma once
#include <cstdint>

namespace light::model {

// Bucket of relative position r = key position - query position (bidirectional).
int64_t relative_position_bucket(int64_t r, int num_buckets, int max_distance);

}  // namespace light::model

#include "light/model/relative_position.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace light::model {

int64_t relative_position_bucket(int64_t r, int num_buckets, int max_distance) {
  const int half = num_buckets / 2;  // one half for each direction
  int64_t ret = r > 0 ? half : 0;
  const int64_t n = std::llabs(r);
  const int max_exact = half / 2;
  if (n < max_exact) return ret + n;
  // float32 as in PyTorch: log(n / max_exact) / log(max_distance / max_exact) * (half - max_exact)
  const float ratio = static_cast<float>(n) / static_cast<float>(max_exact);
  const float denom = static_cast<float>(std::log(static_cast<double>(max_distance) / max_exact));
  const float scaled = std::log(ratio) / denom * static_cast<float>(half - max_exact);
  const int64_t large = std::min<int64_t>(max_exact + static_cast<int64_t>(scaled), half - 1);
  return ret + large;
}

}  // namespace light::model

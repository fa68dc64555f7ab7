#include "light/util/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

#include "light/error.h"

namespace light {

int core_count() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

int checked_threads(int requested, const char* name) {
  if (requested < 0)
    throw Error(std::string(name) + ": expected 0 (every core) or a count of threads, got " + std::to_string(requested));
  return std::min(requested, core_count());
}

int thread_count(int requested, size_t n) {
  size_t t = requested > 0 ? static_cast<size_t>(requested) : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(std::max<size_t>(1, std::min(t, n)));
}

void parallel_for(size_t n, int threads, const std::function<void(size_t, int)>& item) {
  if (n == 0) return;
  const int t = thread_count(threads, n);
  std::atomic<size_t> next{0};
  std::mutex m;
  size_t failed_at = SIZE_MAX;
  std::exception_ptr failure;
  auto work = [&](int worker) {
    for (size_t k = next++; k < n; k = next++) {
      try {
        item(k, worker);
      } catch (...) {
        std::lock_guard<std::mutex> lock(m);
        if (k < failed_at) failed_at = k, failure = std::current_exception();
        next = n;  // claim nothing more
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(t - 1));
  for (int w = 1; w < t; ++w) pool.emplace_back(work, w);
  work(0);
  for (auto& th : pool) th.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace light

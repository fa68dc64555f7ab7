#include "light/model/cpu_allocator.h"

#include <c10/core/CPUAllocator.h>
#include <dlfcn.h>
#include <torch/version.h>
#include <malloc.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <string_view>
#include <unordered_map>

// LibTorch 2.3 made c10::Allocator::allocate non-const and added the pure copy_data.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
#define LIGHT_ALLOCATE_CONST
#define LIGHT_ALLOCATOR_COPY_DATA 1
#else
#define LIGHT_ALLOCATE_CONST const
#define LIGHT_ALLOCATOR_COPY_DATA 0
#endif

namespace light::model {

namespace {
constexpr size_t kLarge = size_t{1} << 17;  // blocks from 128 KiB (glibc's first mmap threshold) on are kept
constexpr size_t kAlignment = 64;           // as c10's own CPU allocator aligns

// A request's size class: rounded up to an eighth of its power of two (at most 12.5 % more), so that
// the blocks of one tensor shape, and of nearby shapes, are one class.
size_t size_class(size_t n) {
  size_t top = 1;
  while (top <= n / 2) top <<= 1;  // the largest power of two <= n
  const size_t step = top >= 8 ? top / 8 : 1;
  return (n + step - 1) / step * step;
}

// One per process. A data pointer is its own context (c10's raw_allocate/raw_deallocate need that), so
// the sizes of the large blocks handed out are remembered beside them.
class BlockCache final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t n) LIGHT_ALLOCATE_CONST override {
    void* data = nullptr;
    if (n == 0) return {nullptr, nullptr, &release, c10::Device(c10::DeviceType::CPU)};
    const size_t size = n < kLarge ? n : size_class(n);
    if (size >= kLarge) {
      std::lock_guard<std::mutex> lock(mu);
      ++stats.allocated;
      const auto it = free_blocks.find(size);
      if (it != free_blocks.end()) {
        data = it->second;
        free_blocks.erase(it);
        stats.cached_bytes -= size, --stats.cached_blocks, ++stats.reused;
      }
    }
    if (!data && posix_memalign(&data, kAlignment, size) != 0) throw std::bad_alloc();
    if (size >= kLarge) {
      std::lock_guard<std::mutex> lock(mu);
      in_use[data] = size;
    }
    return {data, data, &release, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &release; }
#if LIGHT_ALLOCATOR_COPY_DATA
  void copy_data(void* dest, const void* src, std::size_t count) const override { default_copy_data(dest, src, count); }
#endif

  static void release(void* data) {
    if (!data) return;
    {
      std::lock_guard<std::mutex> lock(mu);
      const auto it = in_use.find(data);
      if (it != in_use.end()) {
        const size_t size = it->second;
        in_use.erase(it);
        if (stats.cached_bytes + size <= cap) {
          free_blocks.emplace(size, data);
          stats.cached_bytes += size, ++stats.cached_blocks;
          return;
        }
      }
    }
    std::free(data);
  }

  static std::mutex mu;
  static std::multimap<size_t, void*> free_blocks;
  static std::unordered_map<void*, size_t> in_use;
  static BlockCacheStats stats;
  static size_t cap;
};

std::mutex BlockCache::mu;
std::multimap<size_t, void*> BlockCache::free_blocks;
std::unordered_map<void*, size_t> BlockCache::in_use;
BlockCacheStats BlockCache::stats;
size_t BlockCache::cap = 0;

bool malloc_is_tcmalloc() { return dlsym(RTLD_DEFAULT, "tc_malloc") != nullptr; }

// glibc's own thresholds, fixed where they would otherwise move: blocks up to kMmapThreshold come from
// the heap, and up to kTrimThreshold of free memory at the heap's top is kept. Left alone its dynamic
// thresholds rise only as large mapped blocks happen to be freed, which depends on everything the
// process did before (in a Python interpreter they stayed low: the heap's top was given back after
// every call and 2,400 pages faulted in again, 10 % of a tile's time, where `bench_api` faulted none).
constexpr int kMmapThreshold = 32 << 20;   // glibc's own ceiling for its dynamic threshold
constexpr int kTrimThreshold = 256 << 20;
void keep_heap_top() {
  if (const char* t = std::getenv("GLIBC_TUNABLES"); t && std::string_view(t).find("glibc.malloc.") != std::string_view::npos)
    return;  // the user tuned malloc: theirs stand
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
}
}  // namespace

bool keep_large_cpu_blocks(size_t cache_bytes) {
  static const bool in_use = [cache_bytes] {
    if (malloc_is_tcmalloc() || std::getenv("LIGHT_KEEP_ALLOCATOR")) return false;
    BlockCache::cap = cache_bytes;
    static BlockCache cache;  // lives as long as the process: tensors made before may be freed after
    c10::SetCPUAllocator(&cache, /*priority=*/1);
    keep_heap_top();
    return true;
  }();
  return in_use;
}

BlockCacheStats block_cache_stats() {
  std::lock_guard<std::mutex> lock(BlockCache::mu);
  return BlockCache::stats;
}

}  // namespace light::model

// LibTorch's CPU tensors in a process whose malloc is glibc's (a Python interpreter, a program using
// liblight): a block above glibc's mmap threshold is mapped afresh at every allocation and its pages
// faulted in and zeroed on first touch, and freed memory at the heap's top is given back; a forward of
// the bundled model on a 2000-px tile then takes twice as long as under tcmalloc, which `light` links
// (docs/python.md). keep_large_cpu_blocks() makes LibTorch keep its large blocks for reuse instead.
// (No LibTorch in this header.)
#pragma once
#include <cstddef>

namespace light::model {

// Once per process, and only when malloc is not tcmalloc's: LibTorch's CPU allocator replaced by one
// that keeps freed blocks of 128 KiB or more (at most `cache_bytes` of them) and hands them back for
// requests of the same size class (sizes rounded up to an eighth of their power of two); and glibc's
// mmap and trim thresholds fixed at 32 MiB and 256 MiB (mallopt), so that the rest of a call's memory
// (images, windows, decoding) is reused from the heap rather than mapped and faulted in again (not when
// GLIBC_TUNABLES sets glibc.malloc.* itself). Returns whether it is in use.
bool keep_large_cpu_blocks(size_t cache_bytes = size_t{1} << 30);

// Blocks kept now, and how many allocations reused one (for tests and benchmarks).
struct BlockCacheStats {
  size_t cached_bytes = 0, cached_blocks = 0, reused = 0, allocated = 0;
};
BlockCacheStats block_cache_stats();

}  // namespace light::model

// The one thread pool: items 0..n-1 handed out in index order to a few threads. Every stage that
// works tile by tile (reading MapText, evaluating, heuristic linking, preparing inputs, synthesising
// maps) runs through it.
#pragma once
#include <cstddef>
#include <functional>

namespace light {

// Threads to use for `n` items when `requested` were asked for (0 or less: every hardware thread):
// at least 1, at most n.
int thread_count(int requested, size_t n);

// The cores this machine has (at least 1).
int core_count();
// A thread count a caller asked for, checked: 0 stays 0 (every core), a count above core_count() is
// that many (more threads than cores only oversubscribe OpenMP: a 2-core machine ran 40 times slower
// at 64), a negative one is refused (light::Error naming `name`).
int checked_threads(int requested, const char* name = "threads");

// Calls item(k, worker) for every k in [0, n) on `threads` threads (thread_count(threads, n) of them;
// the calling thread is one), `worker` in [0, threads) naming the thread, for per-thread state. Items
// are claimed in index order. When an item throws, no further item starts; the items already running
// finish, and the exception of the lowest failed index is rethrown here, so the error reported is the
// one a sequential loop would have met first.
void parallel_for(size_t n, int threads, const std::function<void(size_t item, int worker)>& item);

}  // namespace light

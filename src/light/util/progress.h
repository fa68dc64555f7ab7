// A progress line on stderr for long work: "link: 120/700 tiles, 45.2 tiles/s, ETA 13 s".
// Quiet for work that ends within half a second; redrawn in place on a terminal, a line every
// 10 s otherwise (logs). Thread-safe.
#pragma once
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>

namespace light {

class Progress {
 public:
  Progress(std::string label, size_t total, std::string unit);
  ~Progress();
  void add(size_t n = 1);
  // Also counts `extra` of a second unit (words while maps are the unit), shown as its rate.
  void add(size_t n, size_t extra, const std::string& extra_unit);
  void finish();

 private:
  void draw(size_t done, bool final);
  std::string label_, unit_;
  size_t total_;
  std::atomic<size_t> done_{0}, extra_{0};
  std::string extra_unit_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::mutex mutex_;
  bool tty_ = false, drawn_ = false, finished_ = false;
};

}  // namespace light

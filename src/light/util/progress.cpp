#include "light/util/progress.h"

#include <unistd.h>

#include <cstdio>

namespace light {

Progress::Progress(std::string label, size_t total, std::string unit)
    : label_(std::move(label)), unit_(std::move(unit)), total_(total), start_(std::chrono::steady_clock::now()),
      last_draw_(start_), tty_(::isatty(STDERR_FILENO) != 0) {}

Progress::~Progress() { finish(); }

void Progress::add(size_t n) {
  const size_t done = done_ += n;
  const auto now = std::chrono::steady_clock::now();
  const double since_start = std::chrono::duration<double>(now - start_).count();
  if (since_start < 0.5) return;
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  const double since_draw = std::chrono::duration<double>(now - last_draw_).count();
  if (drawn_ && since_draw < (tty_ ? 0.2 : 10.0)) return;
  last_draw_ = now;
  draw(done, false);
}

void Progress::add(size_t n, size_t extra, const std::string& extra_unit) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    extra_unit_ = extra_unit;
  }
  extra_ += extra;
  add(n);
}

void Progress::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  if (drawn_) draw(done_, true);
}

void Progress::draw(size_t done, bool final) {
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = secs > 0 ? done / secs : 0.0;
  char line[320], extra[96] = "";
  if (!extra_unit_.empty())
    std::snprintf(extra, sizeof extra, ", %.0f %s/s", secs > 0 ? extra_.load() / secs : 0.0, extra_unit_.c_str());
  if (final) {
    std::snprintf(line, sizeof line, "%s: %zu/%zu %s in %.1f s (%.1f %s/s%s)", label_.c_str(), done, total_,
                  unit_.c_str(), secs, rate, unit_.c_str(), extra);
  } else {
    const double eta = rate > 0 ? (total_ - done) / rate : 0.0;
    std::snprintf(line, sizeof line, "%s: %zu/%zu %s, %.1f %s/s%s, ETA %.0f s", label_.c_str(), done, total_,
                  unit_.c_str(), rate, unit_.c_str(), extra, eta);
  }
  if (tty_) std::fprintf(stderr, "\r%-78s%s", line, final ? "\n" : "");
  else std::fprintf(stderr, "%s\n", line);
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace light

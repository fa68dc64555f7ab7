#include "light/util/interrupt.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <mutex>

namespace light {

namespace {
constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
std::atomic<int> g_signal{0};
std::mutex g_mutex;
int g_depth = 0;
struct sigaction g_previous[3];

void note_signal(int sig) {
  int expected = 0;
  if (g_signal.compare_exchange_strong(expected, sig)) return;
  end_by_signal(sig);  // a second signal: at once (async-signal-safe calls only)
}
}  // namespace

InterruptScope::InterruptScope() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_depth++ > 0) return;
  g_signal = 0;
  for (int k = 0; k < 3; ++k) {
    ::sigaction(kSignals[k], nullptr, &g_previous[k]);
    if (g_previous[k].sa_handler == SIG_IGN) continue;  // e.g. SIGHUP under nohup: stays ignored
    struct sigaction sa {};
    sa.sa_handler = note_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(kSignals[k], &sa, nullptr);
  }
}

InterruptScope::~InterruptScope() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (--g_depth > 0) return;
  for (int k = 0; k < 3; ++k) ::sigaction(kSignals[k], &g_previous[k], nullptr);
}

void check_interrupted() {
  if (const int sig = g_signal.load()) throw Interrupted(sig);
}

void end_by_signal(int sig) {
  struct sigaction sa {};
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  ::sigaction(sig, &sa, nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
  ::raise(sig);
  std::_Exit(128 + sig);
}

}  // namespace light

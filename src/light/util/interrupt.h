// Interruption that cleans up: while an InterruptScope lives, SIGINT, SIGTERM and SIGHUP do not end
// the process at once. They are noted; the work calls check_interrupted() at safe points (between
// tiles), which throws Interrupted; the command removes what it made, as for any error, and the CLI
// then ends the process by the same signal (its exit status says so). A second signal ends it at once.
#pragma once
#include <string>

#include "light/error.h"

namespace light {

class Interrupted : public Error {
 public:
  explicit Interrupted(int signal) : Error("interrupted by signal " + std::to_string(signal)), signal(signal) {}
  int signal;
};

class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

// Throws Interrupted when a signal came while an InterruptScope lives.
void check_interrupted();

// Ends the process by `signal`, its default action restored.
[[noreturn]] void end_by_signal(int signal);

}  // namespace light

// light::Error: the one exception type for user-facing failures (bad input files, bad options).
// Its message is complete and printed as is by the CLI: it names the file, the entry and the field.
#pragma once
#include <stdexcept>
#include <string>

namespace light {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace light

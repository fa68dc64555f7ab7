// A model's config.json: any bytes give a configuration that passes validate_config, or a light::Error.
#include <cstddef>
#include <cstdint>
#include <string>

#include "light/model/config.h"
#include "light/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto c = light::model::model_config_from_text(std::string(reinterpret_cast<const char*>(data), size), "config.json");
    light::model::validate_config(c, "again");  // what was accepted is valid
    if (c.visual_tokens() <= 0) __builtin_trap();
  } catch (const light::Error&) {
  }
  return 0;
}

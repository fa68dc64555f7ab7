// The MapText reader (ground truth and predictions) and its writer: any bytes give a Dataset or a
// light::Error; what was read writes and reads back the same.
#include <cstddef>
#include <cstdint>
#include <string>

#include "light/maptext.h"
#include "light/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool gt = data[0] & 1, text = data[0] & 2;
  const std::string json(reinterpret_cast<const char*>(data) + 1, size - 1);
  light::maptext::ReadOptions opt{gt ? light::maptext::Kind::GroundTruth : light::maptext::Kind::Predictions, text};
  try {
    const auto d = light::maptext::parse_maptext(json, "fuzz.json", opt);
    const std::string again = light::maptext::to_json_text(d);
    const auto e = light::maptext::parse_maptext(again, "again.json", opt);
    if (light::maptext::to_json_text(e) != again) __builtin_trap();  // the writer's output reads back the same
  } catch (const light::Error&) {
  }
  return 0;
}

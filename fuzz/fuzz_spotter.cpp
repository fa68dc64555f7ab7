// Other spotters' word files (maptext/spotter_formats.h): any bytes give tiles whose every word has
// at least 3 finite vertices, or a light::Error; never a crash.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "light/error.h"
#include "light/maptext/spotter_formats.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto w = light::maptext::parse_spotter_words(std::string(reinterpret_cast<const char*>(data), size), "words.geojson");
    for (const auto& t : w.data)
      for (const auto& g : t.groups)
        for (const auto& word : g) {
          if (word.vertices.size() < 3) __builtin_trap();
          for (const auto& p : word.vertices)
            if (!std::isfinite(p.x) || !std::isfinite(p.y)) __builtin_trap();
        }
  } catch (const light::Error&) {
  }
  return 0;
}

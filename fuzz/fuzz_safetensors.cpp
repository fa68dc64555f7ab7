// The safetensors reader: any bytes give tensors that lie inside the file, or a light::Error.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "light/io/safetensors.h"
#include "light/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const light::io::SafeTensorsFile f("fuzz.safetensors", std::string(reinterpret_cast<const char*>(data), size));
    unsigned sum = 0;
    for (const auto& [name, t] : f.tensors())  // touch every byte of every tensor
      for (size_t k = 0; k < t.nbytes; ++k) sum += t.data[k];
    volatile unsigned keep = sum;
    (void)keep;
  } catch (const light::Error&) {
  }
  return 0;
}

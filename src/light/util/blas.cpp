#include "light/util/blas.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>

namespace light {

namespace {
using CoreFn = char* (*)();
CoreFn core_name_function() { return reinterpret_cast<CoreFn>(dlsym(RTLD_DEFAULT, "openblas_get_corename")); }
}  // namespace

std::string blas_core_override(const std::string& detected, bool avx512, bool avx2, const char* user_setting) {
  if (user_setting && *user_setting) return "";  // the user decided
  if (detected != "Prescott" && detected != "Core2" && detected != "Nehalem") return "";
  if (avx512) return "SkylakeX";
  if (avx2) return "Haswell";
  return "";
}

std::string blas_core() {
  const CoreFn fn = core_name_function();
  const char* name = fn ? fn() : nullptr;
  return name ? name : "";
}

void ensure_fast_blas(char** argv) {
  const std::string core = blas_core();
  if (core.empty()) return;
  __builtin_cpu_init();
  const std::string force = blas_core_override(core, __builtin_cpu_supports("avx512f"), __builtin_cpu_supports("avx2"),
                                               std::getenv("OPENBLAS_CORETYPE"));
  if (force.empty() || std::getenv("LIGHT_BLAS_REEXEC")) return;
  setenv("OPENBLAS_CORETYPE", force.c_str(), 1);
  setenv("LIGHT_BLAS_REEXEC", "1", 1);
  execv("/proc/self/exe", argv);  // on failure, carry on with the slow kernel
}

}  // namespace light

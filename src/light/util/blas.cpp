#include "light/util/blas.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>

namespace light {

namespace {
using CoreFn = char* (*)();
// An OpenBLAS symbol: in the global scope (a program), else in an OpenBLAS already loaded privately
// (a Python extension module's dependencies are not global).
void* blas_symbol(const char* name) {
  if (void* f = dlsym(RTLD_DEFAULT, name)) return f;
  for (const char* lib : {"libopenblas.so.0", "libblas.so.3", "libopenblas.so"})
    if (void* h = dlopen(lib, RTLD_LAZY | RTLD_NOLOAD)) {
      void* f = dlsym(h, name);
      dlclose(h);
      if (f) return f;
    }
  return nullptr;
}
CoreFn core_name_function() { return reinterpret_cast<CoreFn>(blas_symbol("openblas_get_corename")); }

// The kernel to force for the loaded `core` on this CPU ("" to keep it).
std::string kernel_to_force(const std::string& core) {
  __builtin_cpu_init();
  return blas_core_override(core, __builtin_cpu_supports("avx512f"), __builtin_cpu_supports("avx2"), std::getenv("OPENBLAS_CORETYPE"));
}
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

std::string fix_blas_in_process() {
  const std::string core = blas_core();
  if (core.empty()) return "";
  const std::string force = kernel_to_force(core);
  if (force.empty()) return core;
  using Fn = void (*)();
  const auto quit = reinterpret_cast<Fn>(blas_symbol("gotoblas_dynamic_quit"));
  const auto init = reinterpret_cast<Fn>(blas_symbol("gotoblas_dynamic_init"));
  if (!quit || !init) return core;  // not a DYNAMIC_ARCH build: nothing to switch
  setenv("OPENBLAS_CORETYPE", force.c_str(), 1);
  quit();  // forgets the kernel table; init reads OPENBLAS_CORETYPE and sets its blocking up again
  init();
  return blas_core();
}

void ensure_fast_blas(char** argv) {
  const std::string core = blas_core();
  if (core.empty()) return;
  const std::string force = kernel_to_force(core);
  if (force.empty() || std::getenv("LIGHT_BLAS_REEXEC")) return;
  setenv("OPENBLAS_CORETYPE", force.c_str(), 1);
  setenv("LIGHT_BLAS_REEXEC", "1", 1);
  execv("/proc/self/exe", argv);  // on failure, carry on with the slow kernel
}

}  // namespace light

// OpenBLAS 0.3.21 takes some AVX-512 CPUs for "Prescott" (SSE3 kernels, 5x slower): the core type to
// force, and the re-execution that applies it (OpenBLAS reads OPENBLAS_CORETYPE when it loads).
#pragma once
#include <string>

namespace light {

// The OpenBLAS core type to force, or "" when the detected kernel is fine. `user_setting` is
// OPENBLAS_CORETYPE.
std::string blas_core_override(const std::string& detected, bool avx512, bool avx2, const char* user_setting);

// The OpenBLAS kernel loaded in this process (e.g. "SkylakeX"), or "" when OpenBLAS is not loaded.
std::string blas_core();

// Called first thing in main(): when OpenBLAS picked a kernel below this CPU (and the user did not
// choose one), sets OPENBLAS_CORETYPE and re-executes the program.
void ensure_fast_blas(char** argv);

// The same correction in a process that cannot restart (a Python module, a program using liblight):
// OpenBLAS's kernel table chosen again with OPENBLAS_CORETYPE set (gotoblas_dynamic_quit, then
// gotoblas_dynamic_init, which a DYNAMIC_ARCH OpenBLAS exports). Call it before any BLAS work runs on
// another thread. Returns the kernel in use ("" without OpenBLAS).
std::string fix_blas_in_process();

}  // namespace light

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include <c10/core/CPUAllocator.h>
#include <malloc.h>
#include <torch/torch.h>

#include "light/model/cpu_allocator.h"
#include "light/model/device.h"
#include "light/model/runtime.h"
#include "light/util/blas.h"

TEST(Runtime, LibTorchIsLinkedAndThreadsAreSet) {
  light::model::set_threads(2);
  const auto info = light::model::runtime_info();
  EXPECT_EQ(info.threads, 2);
  light::model::set_threads(1);
  EXPECT_EQ(light::model::runtime_info().threads, 1);
  EXPECT_FALSE(info.torch_version.empty());
  EXPECT_TRUE(info.torch_version[0] == '1' || info.torch_version[0] == '2') << info.torch_version;
}

TEST(Runtime, BlasCoreOverrideOnlyFixesMisdetections) {
  using light::blas_core_override;
  EXPECT_EQ(blas_core_override("Prescott", true, true, nullptr), "SkylakeX");
  EXPECT_EQ(blas_core_override("Prescott", false, true, nullptr), "Haswell");
  EXPECT_EQ(blas_core_override("Prescott", false, false, nullptr), "");      // an old CPU: Prescott is right
  EXPECT_EQ(blas_core_override("Prescott", true, true, "Zen"), "");         // the user's choice stands
  EXPECT_EQ(blas_core_override("Cooperlake", true, true, nullptr), "");
  EXPECT_EQ(blas_core_override("Haswell", true, true, nullptr), "");
}

TEST(Runtime, AMisdetectedBlasKernelIsSwitchedInProcessWithoutRestarting) {
  // What the Python module and liblight do: OpenBLAS's kernel table chosen again in a running process.
  // A "Prescott" kernel is put in place (as OpenBLAS 0.3.21 picks on some AVX-512 CPUs), then
  // fix_blas_in_process must replace it by the CPU's own (SkylakeX with AVX-512, Haswell with AVX2).
  if (light::blas_core().empty()) GTEST_SKIP() << "not OpenBLAS";
  using Fn = void (*)();
  const auto quit = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, "gotoblas_dynamic_quit"));
  const auto init = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, "gotoblas_dynamic_init"));
  if (!quit || !init) GTEST_SKIP() << "OpenBLAS without DYNAMIC_ARCH";
  const char* user = std::getenv("OPENBLAS_CORETYPE");
  const std::string saved = user ? user : "", before = light::blas_core();
  setenv("OPENBLAS_CORETYPE", "Prescott", 1);
  quit();
  init();
  ASSERT_EQ(light::blas_core(), "Prescott");
  unsetenv("OPENBLAS_CORETYPE");
  __builtin_cpu_init();
  const std::string want = __builtin_cpu_supports("avx512f") ? "SkylakeX" : __builtin_cpu_supports("avx2") ? "Haswell" : "Prescott";
  EXPECT_EQ(light::fix_blas_in_process(), want);
  EXPECT_EQ(light::blas_core(), want);
  // A user's choice stands.
  setenv("OPENBLAS_CORETYPE", "Prescott", 1);
  quit();
  init();
  EXPECT_EQ(light::fix_blas_in_process(), "Prescott");
  // Back as it was.
  if (saved.empty()) unsetenv("OPENBLAS_CORETYPE"); else setenv("OPENBLAS_CORETYPE", saved.c_str(), 1);
  if (saved.empty()) setenv("OPENBLAS_CORETYPE", before.c_str(), 1);
  quit();
  init();
  if (saved.empty()) unsetenv("OPENBLAS_CORETYPE");
  EXPECT_EQ(light::blas_core(), before);
}

TEST(Runtime, LargeCpuBlocksAreKeptForReuseWhereMallocIsGlibcs) {
  // What liblight and the Python module do under glibc's malloc (model/cpu_allocator.h).
  ASSERT_TRUE(light::model::keep_large_cpu_blocks());
  const auto before = light::model::block_cache_stats();
  void* first = nullptr;
  {
    const torch::Tensor t = torch::ones({1 << 20}, torch::kFloat32);  // 4 MiB
    first = t.data_ptr();
    EXPECT_EQ(t.sum().item<float>(), float(1 << 20));
  }
  const auto freed = light::model::block_cache_stats();
  EXPECT_EQ(freed.cached_blocks, before.cached_blocks + 1);
  {
    const torch::Tensor again = torch::zeros({1 << 20}, torch::kFloat32);  // the same size class: the same block
    EXPECT_EQ(again.data_ptr(), first);
    EXPECT_EQ(again.sum().item<float>(), 0.0f);  // zeros written, not the old ones
  }
  EXPECT_EQ(light::model::block_cache_stats().reused, before.reused + 1);
  const torch::Tensor small = torch::ones({16});  // small blocks (under 128 KiB) are not kept
  EXPECT_EQ(light::model::block_cache_stats().allocated, before.allocated + 2);
  // c10's raw allocation (a data pointer that is its own context) works too.
  c10::Allocator* a = c10::GetCPUAllocator();
  void* raw = a->raw_allocate(3 << 20);
  ASSERT_NE(raw, nullptr);
  a->raw_deallocate(raw);
  EXPECT_EQ(light::model::block_cache_stats().cached_bytes, freed.cached_bytes + (3 << 20));
}

TEST(Runtime, GlibcKeepsTheHeapTopAndServesBlocksUpTo32MiBFromTheHeapOnceLargeBlocksAreKept) {
  // The rest of a call's memory (images, windows) is reused, not mapped and faulted in again.
  ASSERT_TRUE(light::model::keep_large_cpu_blocks());
  if (const char* t = std::getenv("GLIBC_TUNABLES"); t && std::string(t).find("glibc.malloc.") != std::string::npos)
    GTEST_SKIP() << "GLIBC_TUNABLES sets malloc's thresholds: liblight leaves them";
  const size_t mapped_before = mallinfo2().hblkhd;
  char* block = static_cast<char*>(std::malloc(size_t{8} << 20));  // 8 MiB: from the heap, not mapped
  ASSERT_NE(block, nullptr);
  block[0] = 1, block[(size_t{8} << 20) - 1] = 1;
  EXPECT_EQ(mallinfo2().hblkhd, mapped_before);
  std::free(block);
  // Freed at the heap's top, it stays there (glibc's default would give back all but 128 KiB).
  EXPECT_GE(mallinfo2().keepcost, size_t{8} << 20);
}

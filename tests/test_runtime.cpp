#include <gtest/gtest.h>

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

#include <gtest/gtest.h>

#include "light/model/runtime.h"

TEST(Runtime, LibTorchIsLinkedAndThreadsAreSet) {
  light::model::set_threads(2);
  const auto info = light::model::runtime_info();
  EXPECT_EQ(info.threads, 2);
  light::model::set_threads(1);
  EXPECT_EQ(light::model::runtime_info().threads, 1);
  EXPECT_FALSE(info.torch_version.empty());
  EXPECT_TRUE(info.torch_version[0] == '1' || info.torch_version[0] == '2') << info.torch_version;
}

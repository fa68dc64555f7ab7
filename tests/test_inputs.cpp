// Model inputs against the parity fixtures (../shared/fixtures/parity): safetensors IO, relative
// position buckets, PIL-exact image preprocessing.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "light/image/resize.h"
#include "light/io/safetensors.h"
#include "light/model/relative_position.h"
#include "light/util/error.h"
#include "test_util.h"

using namespace light;

namespace {
std::string fixture(const std::string& rel) {
  const std::string p = std::string(LIGHT_SHARED_DIR) + "/fixtures/parity/" + rel;
  if (!std::filesystem::exists(p)) ADD_FAILURE() << "missing fixture " << p << " (set -DLIGHT_SHARED_DIR)";
  return p;
}
}  // namespace

TEST(SafeTensors, ReadsTheFixturesAndRoundTrips) {
  const io::SafeTensorsFile f(fixture("buckets/buckets.safetensors"));
  const auto& r = f.at("relative_position");
  EXPECT_EQ(r.dtype, io::DType::I64);
  ASSERT_EQ(r.shape, (std::vector<int64_t>{2601}));
  EXPECT_EQ(r.as<int64_t>()[0], -1300);
  EXPECT_EQ(r.as<int64_t>()[2600], 1300);
  EXPECT_THROW(f.at("nope"), light::Error);

  const std::string dir = test::temp_dir();
  std::map<std::string, io::Tensor> t;
  t["a.ids"] = io::Tensor::i64({2, 3}, {1, 2, 3, 4, 5, -6});
  t["b.x"] = io::Tensor::f32({3}, {0.5f, -1.25f, 3e-8f});
  io::write_safetensors(dir + "/t.safetensors", t, {{"format", "pt"}});
  const io::SafeTensorsFile g(dir + "/t.safetensors");
  EXPECT_EQ(g.metadata().at("format"), "pt");
  EXPECT_EQ(g.at("a.ids").as<int64_t>()[5], -6);
  EXPECT_EQ(g.at("b.x").as<float>()[2], 3e-8f);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(g.at("a.ids").data) % 8, 0u);

  // Not a safetensors file, and a header that lies about sizes: clear errors naming the file.
  test::write_text(dir + "/bad.safetensors", "hello world, not tensors");
  EXPECT_THROW(io::SafeTensorsFile(dir + "/bad.safetensors"), light::Error);
  std::string bytes = test::read_text(dir + "/t.safetensors");
  const auto pos = bytes.find("\"shape\":[3]");
  ASSERT_NE(pos, std::string::npos);
  bytes.replace(pos, 11, "\"shape\":[4]");
  test::write_text(dir + "/lie.safetensors", bytes);
  try {
    io::SafeTensorsFile bad(dir + "/lie.safetensors");
    FAIL();
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("lie.safetensors: tensor \"b.x\": shape [4]"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(RelativePosition, BucketsEqualTheFixtureTables) {
  const io::SafeTensorsFile f(fixture("buckets/buckets.safetensors"));
  const auto* r = f.at("relative_position").as<int64_t>();
  const auto* b1 = f.at("bucket_1d").as<int64_t>();
  const auto* b2 = f.at("bucket_2d").as<int64_t>();
  int mismatches = 0;
  for (int k = 0; k < 2601; ++k) {
    mismatches += model::relative_position_bucket(r[k], 32, 128) != b1[k];
    mismatches += model::relative_position_bucket(r[k], 64, 256) != b2[k];
    if (mismatches && mismatches < 5) ADD_FAILURE() << "r = " << r[k];
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(ImagePreprocessing, PilBilinearResizeIsByteExact) {
  const io::SafeTensorsFile f(fixture("image/image.safetensors"));
  for (const std::string name : {"img0", "img1", "img2"}) {
    const image::RgbImage src = image::read_rgb(fixture("image/" + name + ".png"));
    const image::RgbImage small = image::pil_resize_bilinear(src, 224, 224);
    ASSERT_EQ(small.rgb.size(), 224u * 224u * 3u);
    const auto& expected = f.at(name + ".resized_u8");
    ASSERT_EQ(expected.numel(), 224 * 224 * 3);
    int diff = 0;
    for (size_t i = 0; i < small.rgb.size(); ++i) diff += small.rgb[i] != static_cast<uint8_t>(expected.as<float>()[i]);
    EXPECT_EQ(diff, 0) << name << ": bytes differing from Pillow";
    const std::vector<float> pv = image::pixel_values(small);
    const auto& pexp = f.at(name + ".pixel_values");
    ASSERT_EQ(static_cast<int64_t>(pv.size()), pexp.numel());
    EXPECT_EQ(std::memcmp(pv.data(), pexp.data, pexp.nbytes), 0) << name << ": pixel_values not bitwise equal";
  }
  EXPECT_THROW(image::read_rgb("/nonexistent.png"), light::Error);
}

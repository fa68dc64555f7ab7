// LIGHT-pretraining labels (MLM, MIM, word-patch alignment) on hand-worked inputs.
#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>
#include <random>

#include "light/data/light_pretrain.h"
#include "light/data/patch_codebook.h"
#include "test_util.h"
#include "light/util/error.h"

using namespace light::data;

TEST(LightPretrainLabels, MaskedLanguageModelling) {
  const std::vector<int64_t> ids = {0, 100, 101, 102, 2, 1};
  const std::vector<uint8_t> maskable = {0, 1, 1, 1, 0, 0};
  std::mt19937_64 rng(1);
  MlmResult all = mask_tokens(ids, maskable, 1.0, kRobertaMaskId, rng);
  EXPECT_EQ(all.input_ids, (std::vector<int64_t>{0, 50264, 50264, 50264, 2, 1}));  // specials never masked
  EXPECT_EQ(all.labels, (std::vector<int64_t>{-100, 100, 101, 102, -100, -100}));
  MlmResult none = mask_tokens(ids, maskable, 0.0, kRobertaMaskId, rng);
  EXPECT_EQ(none.input_ids, ids);
  EXPECT_EQ(none.labels, std::vector<int64_t>(6, -100));
  // p = 0.3, independently per token: about 3,000 of 10,000 (binomial sd 46).
  std::vector<int64_t> many(10000, 7);
  const MlmResult r = mask_tokens(many, std::vector<uint8_t>(10000, 1), 0.3, kRobertaMaskId, rng);
  const int masked = std::accumulate(r.masked.begin(), r.masked.end(), 0);
  EXPECT_NEAR(masked, 3000, 200);
  EXPECT_THROW(mask_tokens(ids, {1, 1}, 0.3, kRobertaMaskId, rng), light::Error);
}

TEST(LightPretrainLabels, MaskedImageModelling) {
  std::mt19937_64 a(1), b(2);
  const auto m1 = mask_patches(14, 0.4, a), m2 = mask_patches(14, 0.4, b);
  ASSERT_EQ(m1.size(), 196u);
  EXPECT_EQ(std::accumulate(m1.begin(), m1.end(), 0), 79);  // exactly ceil(0.4 x 196)
  EXPECT_EQ(std::accumulate(m2.begin(), m2.end(), 0), 79);
  EXPECT_NE(m1, m2);
  // 3 x 32 x 32 pixels in a 2 x 2 grid: masking patch 1 zeroes the top-right 16 x 16 of every channel.
  std::vector<float> px(3 * 32 * 32, 0.5f);
  zero_patches(px, 3, 32, 2, {0, 1, 0, 0});
  for (int c = 0; c < 3; ++c)
    for (int y = 0; y < 32; ++y)
      for (int x = 0; x < 32; ++x)
        EXPECT_EQ(px[(c * 32 + y) * 32 + x], (y < 16 && x >= 16) ? 0.0f : 0.5f) << c << " " << y << " " << x;
}

TEST(LightPretrainLabels, WordPatchAlignment) {
  EXPECT_EQ(word_patch(0, 0, 100, 100, 14), 0);
  EXPECT_EQ(word_patch(500, 500, 600, 700, 14), 7 + 14 * 8);  // centre (0.55, 0.6) -> column 7, row 8
  EXPECT_EQ(word_patch(990, 990, 1000, 1000, 14), 195);
  EXPECT_EQ(word_patch(1000, 1000, 1100, 1100, 14), 195);     // clamped into the grid
  // <s> w0a w0b w1 </s>: w0's patch 5 is masked, w1's patch 9 visible, w0b is MLM-masked.
  std::vector<uint8_t> patches(196, 0);
  patches[5] = 1;
  EXPECT_EQ(wpa_labels({0, 1, 1, 1, 0}, {0, 0, 1, 0, 0}, {0, 5, 5, 9, 0}, patches),
            (std::vector<int64_t>{-100, 0, -100, 1, -100}));
}

TEST(LightPretrainLabels, PatchCodebookClustersAndRoundTrips) {
  // 3-channel 32 x 32 images of 2 x 2 patches, each patch one of three colours plus a little noise.
  const float colours[3][3] = {{-1, -1, -1}, {1, 1, 1}, {1, -1, 0}};
  std::mt19937_64 rng(3);
  std::normal_distribution<float> noise(0.0f, 0.02f);
  std::vector<std::vector<float>> images;
  std::vector<std::vector<int>> truth;
  for (int n = 0; n < 6; ++n) {
    std::vector<float> px(3 * 32 * 32);
    std::vector<int> which;
    for (int p = 0; p < 4; ++p) {
      const int c = (n + p) % 3;
      which.push_back(c);
      for (int ch = 0; ch < 3; ++ch)
        for (int y = (p / 2) * 16; y < (p / 2 + 1) * 16; ++y)
          for (int x = (p % 2) * 16; x < (p % 2 + 1) * 16; ++x) px[(ch * 32 + y) * 32 + x] = colours[c][ch] + noise(rng);
    }
    images.push_back(px);
    truth.push_back(which);
  }
  const PatchCodebook book = train_codebook(images, 3, 32, 16, 3, 20, 7);
  ASSERT_EQ(book.size(), 3);
  int code_of[3] = {-1, -1, -1};
  for (size_t n = 0; n < images.size(); ++n) {
    const auto ids = book.encode(images[n], 3, 32);
    ASSERT_EQ(ids.size(), 4u);
    for (int p = 0; p < 4; ++p) {
      const int c = truth[n][static_cast<size_t>(p)];
      if (code_of[c] < 0) code_of[c] = ids[static_cast<size_t>(p)];
      EXPECT_EQ(ids[static_cast<size_t>(p)], code_of[c]) << "colour " << c;
    }
  }
  EXPECT_NE(code_of[0], code_of[1]);
  EXPECT_NE(code_of[1], code_of[2]);
  EXPECT_NE(code_of[0], code_of[2]);
  const std::string dir = light::test::temp_dir();
  book.save(dir + "/codebook.safetensors");
  const PatchCodebook back = PatchCodebook::load(dir + "/codebook.safetensors");
  EXPECT_EQ(back.centres(), book.centres());
  EXPECT_EQ(back.encode(images[0], 3, 32), book.encode(images[0], 3, 32));
  light::test::write_text(dir + "/x.safetensors", "not a safetensors file");
  EXPECT_THROW(PatchCodebook::load(dir + "/x.safetensors"), light::Error);
  EXPECT_THROW(train_codebook({images[0]}, 3, 32, 16, 5, 10, 1), light::Error);  // 4 patches for 5 codes
  std::filesystem::remove_all(dir);
}

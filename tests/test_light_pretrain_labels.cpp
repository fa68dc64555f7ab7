// LIGHT-pretraining labels (MLM, MIM, word-patch alignment) on hand-worked inputs.
#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>
#include <random>

#include "light/data/light_pretrain.h"
#include "light/data/patch_codebook.h"
#include "test_util.h"
#include "light/error.h"

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

namespace {
// A 1400 x 700 tile with two rectangular words: "Ab" over (140, 70)-(420, 140) and "C" over
// (700, 350)-(980, 560). Boxes in 0–1000: (100, 100, 300, 200) and (500, 500, 700, 800); their centres
// (0.2, 0.15) and (0.6, 0.65) lie over patches 2 + 14·2 = 30 and 8 + 14·9 = 134.
PolyTile two_word_tile() {
  PolyTile t;
  t.image = "t.png";
  t.width = 1400, t.height = 700;
  t.polygons = {{{140, 140}, {420, 140}, {420, 70}, {140, 70}}, {{700, 560}, {980, 560}, {980, 350}, {700, 350}}};
  t.texts = {"Ab", "C"};
  return t;
}
std::vector<int64_t> byte_tokens(const std::string& w) {  // the byte-level vocabulary: 3 + byte, " " first
  std::vector<int64_t> ids{3 + ' '};
  for (unsigned char c : w) ids.push_back(3 + c);
  return ids;
}
std::vector<float> gradient_pixels() {
  std::vector<float> px(3 * 224 * 224);
  for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<float>((i * 7919) % 1000) / 500.0f - 1.0f;
  return px;
}
}  // namespace

TEST(LightPretrainLabels, SampleOfAHandWorkedTile) {
  const PolyTile tile = two_word_tile();
  const std::vector<float> px = gradient_pixels();
  const PatchCodebook book = train_codebook({px}, 3, 224, 16, 4, 5, 1);
  LightPretrainOptions o;
  o.mask_id = 259;
  for (double p : {0.0, 1.0}) {
    o.mlm_probability = p;
    std::mt19937_64 rng(11);
    const LightPretrainSample s = make_light_pretrain_sample(tile, px, byte_tokens, {}, &book, o, rng);
    ASSERT_EQ(s.tokens, 7);  // <s> " Ab" (3) " C" (2) </s>
    EXPECT_EQ(s.words, 2u);
    EXPECT_EQ(s.left_out, 0u);
    EXPECT_EQ(s.mlm_labels.front(), kIgnoreLabel);
    EXPECT_EQ(s.input_ids.front(), 0);
    EXPECT_EQ(s.input_ids.back(), 2);
    EXPECT_EQ(s.token_patch.front(), -1);
    EXPECT_EQ(s.token_patch.back(), -1);
    for (int k = 0; k < 32; ++k) {  // <s> and </s>: fully masked polygons, as the reference
      EXPECT_EQ(s.polygons[static_cast<size_t>(k)], -100.0f);
      EXPECT_EQ(s.polygons[6 * 32 + static_cast<size_t>(k)], -100.0f);
    }
    // Each word token: its word's box, normalised polygon and patch.
    for (size_t i = 1; i < 6; ++i) {
      const int64_t original = s.mlm_labels[i] == kIgnoreLabel ? s.input_ids[i] : s.mlm_labels[i];
      const bool word_c = s.token_patch[i] == 134;
      EXPECT_TRUE(word_c || s.token_patch[i] == 30) << i;
      if (original == 3 + 'C') EXPECT_TRUE(word_c);
      if (original == 3 + 'A' || original == 3 + 'b') EXPECT_FALSE(word_c);
      const std::vector<int64_t> box(s.bbox.begin() + static_cast<long>(4 * i), s.bbox.begin() + static_cast<long>(4 * i + 4));
      EXPECT_EQ(box, word_c ? (std::vector<int64_t>{500, 500, 700, 800}) : (std::vector<int64_t>{100, 100, 300, 200})) << i;
      EXPECT_FLOAT_EQ(s.polygons[i * 32], word_c ? 0.5f : 0.1f) << i;      // x of the first point / W
      EXPECT_FLOAT_EQ(s.polygons[i * 32 + 1], word_c ? 0.8f : 0.2f) << i;  // y / H
      EXPECT_EQ(s.polygons[i * 32 + 8], -100.0f) << "4 points, padded";
      if (p == 1.0) {
        EXPECT_EQ(s.input_ids[i], 259);
        EXPECT_NE(s.mlm_labels[i], kIgnoreLabel);
        EXPECT_EQ(s.wpa_labels[i], kIgnoreLabel) << "a masked token has no alignment label";
      } else {
        EXPECT_EQ(s.mlm_labels[i], kIgnoreLabel);
        EXPECT_EQ(s.wpa_labels[i], s.patch_masked[static_cast<size_t>(s.token_patch[i])] ? 0 : 1);
      }
    }
    // MIM: exactly 79 patches, zeroed; codes from the unmasked pixels.
    EXPECT_EQ(std::accumulate(s.patch_masked.begin(), s.patch_masked.end(), 0), 79);
    for (int q : {0, 30, 134, 195}) {
      const size_t at = static_cast<size_t>((q / 14) * 16 * 224 + (q % 14) * 16 + 5 * 224 + 3);  // a pixel inside patch q
      EXPECT_EQ(s.pixels[at], s.patch_masked[static_cast<size_t>(q)] ? 0.0f : px[at]) << q;
    }
    const std::vector<int> codes = book.encode(px, 3, 224);
    EXPECT_EQ(s.mim_labels, std::vector<int64_t>(codes.begin(), codes.end()));
  }
  // Room for 2 word tokens: one word (whole or cut) is kept, the other left out.
  o.max_length = 4;
  std::mt19937_64 rng(5);
  const LightPretrainSample cut = make_light_pretrain_sample(tile, px, byte_tokens, {}, nullptr, o, rng);
  EXPECT_EQ(cut.tokens, 4);
  EXPECT_EQ(cut.words, 1u);
  EXPECT_EQ(cut.left_out, 1u);
  EXPECT_TRUE(cut.mim_labels.empty()) << "no image tokenizer, no codes";
  // A tile without usable words: <s> </s> and nothing to learn from the text.
  PolyTile empty = tile;
  empty.polygons = {{{5, 5}, {5, 5}, {5, 5}}};  // no area
  empty.texts = {"x"};
  const LightPretrainSample e = make_light_pretrain_sample(empty, px, byte_tokens, {}, nullptr, o, rng);
  EXPECT_EQ(e.tokens, 2);
  EXPECT_EQ(e.words, 0u);
  for (int64_t v : e.mlm_labels) EXPECT_EQ(v, kIgnoreLabel);
  for (int64_t v : e.wpa_labels) EXPECT_EQ(v, kIgnoreLabel);
}

// The pairwise head's line features (model::pair_line_features, ModelConfig::pair_lines): hand-worked
// values on a name set on two lines, the batch that fills them, and a model widened to read them.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <filesystem>

#include "light/data/inputs.h"
#include "light/geometry/line_chains.h"
#include "light/model/light.h"
#include "light/train/init_weights.h"
#include "light/util/fs.h"
#include "test_util.h"

using namespace light;
using namespace light::model;

namespace {
ModelConfig tiny_pairwise_config() {
  ModelConfig c;
  auto& l = c.layoutlmv3;
  l.vocab_size = 40, l.hidden_size = 16, l.num_hidden_layers = 1, l.num_attention_heads = 2, l.intermediate_size = 32;
  l.max_position_embeddings = 64, l.coordinate_size = 2, l.shape_size = 4, l.input_size = 32, l.patch_size = 16;
  c.poly.emb_dim = 16, c.poly.num_hidden_layers = 1, c.poly.num_attention_heads = 2, c.poly.intermediate_size = 32;
  c.head = SuccessorHead::Pairwise;
  return c;
}
}  // namespace

TEST(PairLines, FeaturesSayWhereEachWordsLineStartsAndEnds) {
  // "Lodge" (0, 0)-(50, 0) and "Pole" (56, 0)-(96, 0) on one line, "Cr." (38, 14)-(58, 14) centred
  // under it; 10 high.
  const torch::Tensor frames =
      torch::tensor({0.0, 0.0, 50.0, 0.0, 10.0, 56.0, 0.0, 96.0, 0.0, 10.0, 38.0, 14.0, 58.0, 14.0, 10.0}, torch::kFloat64).view({3, 5});
  const torch::Tensor lines =
      torch::tensor({0.0, 0.0, 96.0, 0.0, 0.0, 0.0, 96.0, 0.0, 38.0, 14.0, 58.0, 14.0}, torch::kFloat64).view({3, 4});
  const torch::Tensor phi = pair_line_features(frames, lines);
  ASSERT_EQ(phi.sizes(), (std::vector<int64_t>{3, 3, kPairLineFeatures}));
  auto at = [&](int i, int j, int f) { return phi[i][j][f].item<double>(); };
  // Pole -> Cr.: the line below starts 3.8 heights on and 1.4 down, is centred (0 along), ends 3.8 short.
  EXPECT_NEAR(at(1, 2, 0), std::log1p(3.8), 1e-12);
  EXPECT_NEAR(at(1, 2, 1), std::log1p(1.4), 1e-12);
  EXPECT_NEAR(at(1, 2, 2), 0.0, 1e-12);
  EXPECT_NEAR(at(1, 2, 3), std::log1p(1.4), 1e-12);
  EXPECT_NEAR(at(1, 2, 4), -std::log1p(3.8), 1e-12);
  EXPECT_NEAR(at(1, 2, 5), std::log1p(1.4), 1e-12);
  EXPECT_NEAR(at(1, 2, 6), 0.0, 1e-12);   // Pole ends its line
  EXPECT_NEAR(at(1, 2, 7), 0.0, 1e-12);   // Cr. begins its own
  EXPECT_NEAR(at(0, 2, 6), std::log1p(4.6), 1e-12);  // Lodge ends 4.6 heights before its line does
  EXPECT_NEAR(at(2, 1, 7), std::log1p(5.6), 1e-12);  // Pole starts 5.6 heights into its line
  EXPECT_NEAR(at(0, 1, 0), 0.0, 1e-12);   // one line: the same start, centre, end
  EXPECT_NEAR(at(0, 1, 2), 0.0, 1e-12);
  EXPECT_NEAR(at(0, 1, 4), 0.0, 1e-12);
}

TEST(PairLines, MakeBatchFillsEachWordsLineAndTheWidenedHeadStartsFromTheModelsOwnScores) {
  ModelConfig c = tiny_pairwise_config();
  data::TileInputs in;
  in.real_tokens = in.length = 5;
  in.input_ids = {0, 5, 6, 7, 2};
  in.attention_mask = {1, 1, 1, 1, 1};
  in.labels = {-100, 10001, 10002, 10003, -100};
  in.first_token_indices = {1, 2, 3, -999, -999};
  in.bbox.assign(20, 10);
  in.polygons.assign(5 * 32, 0.1f);
  // "Lodge" and "Pole" on one line, "Cr." centred under it (polygons 0-1 of the window, 0.1 high).
  auto word = [](const std::string& text, float x0, float x1, float y) {
    data::ModelWord w;
    w.text = text;
    w.bbox = {static_cast<int64_t>(x0 * 1000), static_cast<int64_t>(y * 1000), static_cast<int64_t>(x1 * 1000),
              static_cast<int64_t>((y + 0.1f) * 1000)};
    w.polygon = {x0, y + 0.1f, x1, y + 0.1f, x1, y, x0, y};
    w.polygon.resize(32, data::kPolygonPad);
    return w;
  };
  in.words = {word("Lodge", 0.0f, 0.5f, 0.1f), word("Pole", 0.56f, 0.96f, 0.1f), word("Cr.", 0.38f, 0.58f, 0.24f)};
  const int64_t S = c.layoutlmv3.input_size;
  const std::vector<float> px(static_cast<size_t>(3 * S * S), 1.0f);
  LightTextLinking plain(c);
  plain->eval();
  const Outputs before = plain->forward(make_batch({&in}, {&px}, c, torch::kCPU));
  ModelConfig wide = c;
  wide.pair_lines = true;
  const Batch batch = make_batch({&in}, {&px}, wide, torch::kCPU);
  ASSERT_EQ(batch.word_lines.size(), 1u);
  const torch::Tensor l = batch.word_lines[0];
  ASSERT_EQ(l.sizes(), (std::vector<int64_t>{3, 4}));
  EXPECT_NEAR(l[0][0].item<double>(), 0.0, 1e-4);   // Lodge's line starts at Lodge
  EXPECT_NEAR(l[0][2].item<double>(), 0.96, 1e-4);  // and ends with Pole
  EXPECT_NEAR(l[1][0].item<double>(), 0.0, 1e-4);
  EXPECT_NEAR(l[2][0].item<double>(), 0.38, 1e-4);  // Cr. stands alone
  EXPECT_NEAR(l[2][2].item<double>(), 0.58, 1e-4);
  // What `light train --init MODEL --head pairwise-lines` does: the checkpoint's columns, zero new ones.
  train::InitWeights w;
  w.kind = train::InitWeights::Light;
  w.path = "model.safetensors";
  for (const auto& p : plain->named_parameters()) w.state[p.key()] = p.value().detach().clone();
  LightTextLinking widened(wide);
  train::initialise(*widened, *widened->light, wide, w);
  widened->eval();
  ASSERT_EQ(widened->successor_pair->geometry->weight.size(1), kPairFeatures + kPairLineFeatures);
  const Outputs after = widened->forward(batch);
  EXPECT_TRUE(torch::allclose(after.tiles[0].probs, before.tiles[0].probs, 1e-6, 1e-7));
  EXPECT_TRUE(torch::allclose(after.tiles[0].bi_probs, before.tiles[0].bi_probs, 1e-6, 1e-7));
  // What `--head-hidden 96` does besides: the checkpoint's units first, new ones with no say at first.
  ModelConfig wider = wide;
  wider.pair_hidden = c.pair_hidden + 32;
  LightTextLinking widest(wider);
  train::initialise(*widest, *widest->light, wider, w);
  widest->eval();
  ASSERT_EQ(widest->successor_pair->out->weight.size(1), c.pair_hidden + 32);
  EXPECT_GT(widest->successor_pair->from->weight.slice(0, c.pair_hidden).abs().sum().item<double>(), 0.0);  // the new units can learn
  const Outputs widest_out = widest->forward(batch);
  EXPECT_TRUE(torch::allclose(widest_out.tiles[0].probs, before.tiles[0].probs, 1e-6, 1e-7));
  EXPECT_TRUE(torch::allclose(widest_out.tiles[0].bi_probs, before.tiles[0].bi_probs, 1e-6, 1e-7));
  // A batch without the lines is refused by name.
  EXPECT_THROW(widened->forward(make_batch({&in}, {&px}, c, torch::kCPU)), std::runtime_error);
  // Its config says so; earlier models' config.json is unchanged.
  const std::string dir = test::temp_dir();
  write_model_config(dir + "/c.json", wide);
  EXPECT_TRUE(read_model_config(dir + "/c.json").pair_lines);
  write_model_config(dir + "/c.json", c);
  EXPECT_EQ(read_file(dir + "/c.json").find("lines"), std::string::npos);
  EXPECT_FALSE(read_model_config(dir + "/c.json").pair_lines);
  std::filesystem::remove_all(dir);
}

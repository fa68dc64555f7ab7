// Polygon-encoder pretraining: the reference's parameter names, the masking convention, the losses,
// a run that learns, resuming, and fine-tuning from its result.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "light/data/synth/synth.h"
#include "light/model/checkpoint.h"
#include "light/model/light.h"
#include "light/model/poly_pretrain.h"
#include "light/train/poly_pretrain.h"
#include "light/train/trainer.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "pretraining_checks.h"
#include "test_util.h"

using namespace light;
using namespace light::model;

namespace {
PolyEncoderConfig no_dropout(PolyEncoderConfig c) {
  c.hidden_dropout = c.attention_dropout = 0;
  return c;
}
}  // namespace

TEST(PolyPretrain, ParameterNamesAreTheReferenceCheckpoints) {
  PolyPretrain m(PolyEncoderConfig{});  // the released sizes: 768 wide, 6 layers
  std::map<std::string, std::vector<int64_t>> shapes;
  for (const auto& p : m->named_parameters()) shapes[p.key()] = p.value().sizes().vec();
  const std::map<std::string, std::vector<int64_t>> expected = {
      {"cls_token", {1, 1, 768}},
      {"coord_embedding.weight", {768, 1}},
      {"position_embedding.weight", {33, 768}},
      {"encoder.embeddings.position_embeddings.weight", {33, 768}},
      {"encoder.embeddings.token_type_embeddings.weight", {2, 768}},
      {"encoder.encoder.layer.5.attention.self.query.weight", {768, 768}},
      {"encoder.encoder.layer.5.output.dense.weight", {768, 3072}},
      {"reconstruct_mlp.layers.0.weight", {384, 768}},
      {"reconstruct_mlp.layers.2.weight", {1, 384}},
      {"center_x_mlp.layers.2.bias", {1}},
      {"center_y_mlp.layers.0.bias", {384}},
      {"height_mlp.layers.0.weight", {384, 768}},
      {"angle_mlp.layers.2.weight", {1, 384}},
      {"dist_mlp.layers.0.weight", {768, 768}},
      {"dist_mlp.layers.2.weight", {768, 768}},
  };
  for (const auto& [k, shape] : expected) {
    ASSERT_TRUE(shapes.count(k)) << k;
    EXPECT_EQ(shapes[k], shape) << k;
  }
  EXPECT_FALSE(shapes.count("norm.weight")) << "the pretraining model has no final norm";
  // A reference checkpoint's extra tensors (unused BERT word table, pooler, buffers) are dropped when
  // its trunk goes to LIGHT; the heads too.
  std::map<std::string, torch::Tensor> state;
  for (const auto& p : m->named_parameters()) state[p.key()] = p.value();
  state["encoder.embeddings.word_embeddings.weight"] = torch::zeros({30522, 768});
  state["encoder.pooler.dense.weight"] = torch::zeros({768, 768});
  state["encoder.embeddings.position_ids"] = torch::zeros({1, 33});
  EXPECT_TRUE(is_poly_pretrain_state(state));
  const auto trunk = poly_trunk_for_light(state);
  EXPECT_TRUE(trunk.count("light.poly_encoder.encoder.encoder.layer.0.attention.self.key.bias"));
  EXPECT_TRUE(trunk.count("light.poly_encoder.cls_token"));
  for (const auto& [k, v] : trunk) {
    EXPECT_EQ(k.find("_mlp"), std::string::npos) << k;
    EXPECT_EQ(k.find("pooler"), std::string::npos) << k;
    EXPECT_EQ(k.find("word_embeddings"), std::string::npos) << k;
    EXPECT_EQ(k.find("position_ids"), std::string::npos) << k;
  }
}

TEST(PolyPretrain, SameTrunkAsLightAndTheMaskingConventions) {
  torch::manual_seed(1);
  const PolyEncoderConfig c = no_dropout(preset_config("tiny", 259).poly);
  PolyPretrain pre(c);
  init_poly_pretrain(*pre);
  PolyEncoder enc(c);
  {  // LIGHT's encoder gets the pretrained trunk, by name
    torch::NoGradGuard ng;
    std::map<std::string, torch::Tensor> state;
    for (const auto& p : pre->named_parameters()) state[p.key()] = p.value();
    for (const auto& [k, v] : poly_trunk_for_light(state)) enc->named_parameters()[k.substr(std::string("light.poly_encoder.").size())].copy_(v);
  }
  pre->eval();
  enc->eval();
  torch::NoGradGuard ng;
  // Polygons inside the tile (values >= 0, -100 padding): the two agree exactly on the CLS.
  torch::Tensor x = torch::full({2, 32}, -100.0f);
  x.index_put_({0, torch::indexing::Slice(0, 8)}, torch::rand({8}));
  x.index_put_({1, torch::indexing::Slice(0, 32)}, torch::rand({32}));
  torch::Tensor light_cls;
  enc->forward(x, &light_cls);
  const torch::Tensor pre_cls = pre->encode(x).select(1, 0);
  EXPECT_LT((light_cls - pre_cls).abs().max().item<double>(), 1e-5);
  // In pretraining only the exact padding value -100 is masked (as the reference: value != -100).
  torch::Tensor y = x.clone();
  y.index_put_({0, 20}, -100.5f);
  EXPECT_GT((pre->encode(y).select(1, 0) - pre_cls).abs().max().item<double>(), 1e-4);
  // A negative coordinate (here the mask value -1): pretraining attends to it, LIGHT masks it.
  torch::Tensor z = x.clone(), z2 = x.clone();
  z.index_put_({0, 3}, -1.0f);
  z2.index_put_({0, 3}, -0.5f);
  EXPECT_GT((pre->encode(z).select(1, 0) - pre->encode(z2).select(1, 0)).abs().max().item<double>(), 1e-4);
  torch::Tensor a, b;
  enc->forward(z, &a);
  enc->forward(z2, &b);
  EXPECT_LT((a - b).abs().max().item<double>(), 1e-6);
}

TEST(PolyPretrain, LossesAreTheWeightedSumAndWeightsParse) {
  torch::manual_seed(2);
  const PolyEncoderConfig c = no_dropout(preset_config("tiny", 259).poly);
  PolyPretrain m(c);
  data::PolyTile t;
  t.width = t.height = 100;
  t.polygons = {{{10, 10}, {30, 10}, {30, 15}, {10, 15}}, {{40, 10}, {60, 10}, {60, 15}, {40, 15}}, {{10, 50}, {20, 50}, {20, 70}, {10, 70}}};
  std::mt19937_64 rng(1);
  const data::PolySample s = data::make_poly_sample(t, {}, rng);
  data::PolySample alone;  // a tile with no polygon is skipped
  const PolyLossWeights w = parse_poly_loss_weights("angle=0.1,center_x=0.1,center_y=0.1,distance=0.1,closest=0.1");
  EXPECT_DOUBLE_EQ(w.reconstruct, 1.0);
  EXPECT_DOUBLE_EQ(w.angle, 0.1);
  EXPECT_DOUBLE_EQ(w.contrastive, 1.0);
  const PolyLosses L = m->losses({&s, &alone}, w, torch::kCPU);
  const double sum = L.reconstruct.item<double>() + 0.1 * (L.angle.item<double>() + L.center_x.item<double>() +
                     L.center_y.item<double>() + L.distance.item<double>() + L.closest.item<double>()) + L.contrastive.item<double>();
  EXPECT_NEAR(L.total.item<double>(), sum, 1e-5);
  for (const auto& [name, v] : L.values()) EXPECT_TRUE(std::isfinite(v) && v >= 0) << name;
  // Closest polygon among 3: a cross-entropy over the 2 others, so at most ln 2 + margin at start,
  // and the contrastive term a cross-entropy over 11 candidates.
  EXPECT_GT(L.closest.item<double>(), 0.0);
  EXPECT_GT(L.contrastive.item<double>(), 0.0);
  EXPECT_THROW(m->losses({&alone}, w, torch::kCPU), Error);
  EXPECT_THROW(parse_poly_loss_weights("angel=1"), Error);
  EXPECT_THROW(parse_poly_loss_weights("angle=-1"), Error);
  EXPECT_THROW(parse_poly_loss_weights("angle"), Error);
}

TEST(PolyPretrain, LearnsResumesAndInitialisesFineTuning) {
  const std::string dir = test::temp_dir();
  synth::SynthOptions so;
  so.width = so.height = 400;
  synth::synthesize(synth::Gazetteer(""), so, dir + "/d", 3, 1, false);
  auto o = test::tiny_pretraining<train::PolyPretrainOptions>(dir, 60);
  o.batch_size = 2;
  o.lr = 3e-3;
  o.log_every = 10;
  o.checkpoint_every = 7;  // not on log lines: the sums between must survive a resume
  o.out_dir = dir + "/straight";
  const train::PolyPretrainSummary s = train::poly_pretrain(o);
  EXPECT_EQ(s.steps, 60);
  EXPECT_LT(s.last_loss, 0.8 * s.first_loss) << "the pretraining loss should fall";
  for (const char* f : {"options.json", "log.jsonl", "curves.png", "last/model.safetensors", "last/optimizer.pt",
                        "final/model.safetensors", "final/config.json"})
    EXPECT_TRUE(std::filesystem::exists(dir + "/straight/" + f)) << f;
  // Polygons resampled by default, and said so in the run's options and its model config.
  EXPECT_EQ(nlohmann::json::parse(read_file(dir + "/straight/options.json"))["polygon_points"], "resample");
  EXPECT_NE(read_file(dir + "/straight/final/config.json").find("\"polygon_points\": \"resample\""), std::string::npos);
  // Killed at step 25 and resumed: the same weights and log.
  test::expect_resumed_run_as_left_alone(dir, o, 25, 60, [](const train::PolyPretrainOptions& x) { train::poly_pretrain(x); },
                                         train::read_poly_pretrain_options);
  // `light train --init RUN/`: LIGHT's polygon encoder starts from the run's trunk.
  train::train(test::fine_tuning_from(dir, o, test::write_byte_level_tokenizer(dir + "/tok")));
  const auto pre = read_state_dict(dir + "/straight/final/model.safetensors");
  const auto fine = read_state_dict(dir + "/fine/last/model.safetensors");
  for (const char* k : {"cls_token", "coord_embedding.weight", "encoder.encoder.layer.0.output.dense.weight"})
    EXPECT_TRUE(torch::equal(pre.at(k), fine.at(std::string("light.poly_encoder.") + k))) << k;
  // The transformer itself starts from random weights: its relative-position tables train (auto).
  EXPECT_TRUE(read_model_config(dir + "/fine/last/config.json").layoutlmv3.train_relative_bias);
  std::filesystem::remove_all(dir);
}

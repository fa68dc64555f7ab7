// LIGHT pretraining (MLM, MIM, WPA): the heads' names and shapes, the losses worked out by hand from
// the trunk's states (patch p is visual token p + 1), losses that split across ranks add up to the
// whole batch, a run that learns, resuming, fine-tuning from its result, and two Gloo ranks that
// reach the weights of one process with the doubled batch.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "light/data/light_pretrain.h"
#include "light/data/synth/synth.h"
#include "light/image/resize.h"
#include "light/io/safetensors.h"
#include "light/model/beit.h"
#include "light/model/checkpoint.h"
#include "light/model/light_pretrain.h"
#include "light/text/bpe.h"
#include "light/train/distributed.h"
#include "light/train/light_pretrain.h"
#include "light/train/poly_pretrain.h"
#include "light/train/trainer.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "pretraining_checks.h"
#include "test_util.h"

using namespace light;
using namespace light::model;

namespace {

torch::Tensor hf_tensor(const io::Tensor& t) {
  return torch::from_blob(const_cast<unsigned char*>(t.bytes.data()), t.shape, torch::kFloat32).clone();
}

std::string first_line_of(const std::string& text) { return text.substr(0, text.find('\n')); }

ModelConfig tiny_without_dropout() {
  ModelConfig c = preset_config("tiny", 260);
  c.layoutlmv3.hidden_dropout = c.layoutlmv3.attention_dropout = 0;
  c.poly.hidden_dropout = c.poly.attention_dropout = 0;
  c.fusion_dropout = 0;
  return c;
}

// Three 400 px synthetic tiles in `dir`/d (annotations.json + images).
void synth_tiles(const std::string& dir, int count = 3, double density = 1) {
  synth::SynthOptions so;
  so.width = so.height = 400;
  so.density = density;
  synth::synthesize(synth::Gazetteer(""), so, dir + "/d", count, 1, false);
}

// Samples of the synthetic tiles, with a 16-code codebook trained on them.
std::vector<data::LightPretrainSample> samples_of(const std::string& dir, int count, uint64_t seed, data::PatchCodebook& book) {
  const data::PolyTileSource source(dir + "/d/annotations.json", dir + "/d");
  const std::string tok_dir = text::BpeTokenizer::write_byte_level(dir + "/tok");
  const text::BpeTokenizer tok = text::BpeTokenizer::from_folder(tok_dir);
  std::vector<std::vector<float>> pixels;
  for (int k = 0; k < count; ++k)
    pixels.push_back(image::pixel_values(image::pil_resize_bilinear(image::read_rgb(source.tile(static_cast<size_t>(k)).image_path), 224, 224)));
  book = data::train_codebook(pixels, 3, 224, 16, 16, 5, seed);
  data::LightPretrainOptions o;
  o.mask_id = tok.token_id("<mask>");
  std::vector<data::LightPretrainSample> out;
  for (int k = 0; k < count; ++k) {
    std::mt19937_64 rng(seed + static_cast<uint64_t>(k));
    out.push_back(data::make_light_pretrain_sample(source.tile(static_cast<size_t>(k)), pixels[static_cast<size_t>(k)],
                                                   [&](const std::string& w) { return tok.encode_word(w); }, {}, &book, o, rng));
  }
  return out;
}

}  // namespace

TEST(LightPretrain, HeadsAreTheReferenceModulesAndTheTrunkIsLights) {
  ModelConfig c = preset_config("tiny", 260);
  LightPretrain m(c, 16);
  std::map<std::string, std::vector<int64_t>> shapes;
  for (const auto& p : m->named_parameters()) shapes[p.key()] = p.value().sizes().vec();
  const std::map<std::string, std::vector<int64_t>> expected = {
      {"token_mlp.layers.0.weight", {32, 32}}, {"token_mlp.layers.2.weight", {260, 32}}, {"token_mlp.layers.2.bias", {260}},
      {"visual_mlp.layers.0.weight", {32, 32}}, {"visual_mlp.layers.2.weight", {16, 32}},
      {"wpa_mlp.layers.0.weight", {32, 64}}, {"wpa_mlp.layers.2.weight", {32, 32}}, {"wpa_mlp.layers.4.weight", {1, 32}},
  };
  for (const auto& [k, shape] : expected) {
    ASSERT_TRUE(shapes.count(k)) << k;
    EXPECT_EQ(shapes[k], shape) << k;
  }
  // Every parameter of the fine-tuning model's trunk is here under the same name.
  LightTextLinking fine(c);
  for (const auto& p : fine->named_parameters())
    if (p.key().rfind("light.", 0) == 0) {
      ASSERT_TRUE(shapes.count(p.key())) << p.key();
      EXPECT_EQ(shapes[p.key()], p.value().sizes().vec()) << p.key();
    }
}

TEST(LightPretrain, LossesByHandAndSplitAcrossRanksTheyAddUp) {
  const std::string dir = test::temp_dir();
  synth_tiles(dir, 2);
  data::PatchCodebook book;
  const auto samples = samples_of(dir, 2, 3, book);
  torch::manual_seed(1);
  LightPretrain m(tiny_without_dropout(), book.size());
  m->eval();  // deterministic
  const PretrainBatch both = make_pretrain_batch({&samples[0], &samples[1]}, {}, torch::kCPU);
  ASSERT_GT(both.counts[0], 0) << "some tokens are masked";
  EXPECT_EQ(both.counts[1], 2 * 79);
  EXPECT_EQ(both.counts[2], 2);
  const PretrainLosses L = m->losses(both);

  // By hand from the trunk's states: text tokens first, then the visual CLS, then patch p at T + 1 + p.
  Outputs out;
  const torch::Tensor h = encode_sequence(*m->light, m->config, both.batch, out);
  const int64_t T = both.batch.input_ids.size(1);
  double mlm = 0, mim = 0, wpa = 0;
  for (int64_t b = 0; b < 2; ++b) {
    const auto& s = samples[static_cast<size_t>(b)];
    double bce = 0;
    int eligible = 0;
    for (int64_t i = 0; i < s.tokens; ++i) {
      const torch::Tensor text = h[b][i];
      if (s.mlm_labels[static_cast<size_t>(i)] != data::kIgnoreLabel)
        mlm -= torch::log_softmax(m->token_mlp(text), -1)[s.mlm_labels[static_cast<size_t>(i)]].item<double>();
      if (s.wpa_labels[static_cast<size_t>(i)] != data::kIgnoreLabel) {
        const torch::Tensor patch = h[b][T + 1 + s.token_patch[static_cast<size_t>(i)]];
        const double p = torch::sigmoid(m->wpa_mlp(torch::cat({patch, text}))).item<double>();
        bce -= s.wpa_labels[static_cast<size_t>(i)] == 1 ? std::log(p) : std::log(1 - p);
        ++eligible;
      }
    }
    if (eligible) wpa += bce / eligible;
    for (int64_t q = 0; q < 196; ++q)
      if (s.patch_masked[static_cast<size_t>(q)])
        mim -= torch::log_softmax(m->visual_mlp(h[b][T + 1 + q]), -1)[s.mim_labels[static_cast<size_t>(q)]].item<double>();
  }
  EXPECT_NEAR(L.mlm.item<double>(), mlm / both.counts[0], 1e-4);
  EXPECT_NEAR(L.mim.item<double>(), mim / both.counts[1], 1e-4);
  EXPECT_NEAR(L.wpa.item<double>(), wpa / 2, 1e-4);
  EXPECT_NEAR(L.total.item<double>(), L.mlm.item<double>() + L.mim.item<double>() + L.wpa.item<double>(), 1e-5);

  // Two ranks with one sample each, normalised by the whole batch's counts: losses and gradients add up.
  m->zero_grad();
  L.total.backward();
  std::map<std::string, torch::Tensor> whole;
  for (const auto& p : m->named_parameters())
    if (p.value().grad().defined()) whole[p.key()] = p.value().grad().clone();
  m->zero_grad();
  double split = 0;
  for (int b = 0; b < 2; ++b) {
    const PretrainBatch one = make_pretrain_batch({&samples[static_cast<size_t>(b)]}, {}, torch::kCPU);
    const PretrainLosses part = m->losses(one, &both.counts);
    split += part.total.item<double>();
    part.total.backward();  // gradients accumulate: the all-reduced sum
  }
  EXPECT_NEAR(split, L.total.item<double>(), 1e-5);
  for (const auto& p : m->named_parameters()) {
    if (!whole.count(p.key())) continue;
    // float32 sums in another order: the rounding scales with the gradient's size (pos_embed's reach
    // 6.6e4, where OpenBLAS's Prescott kernels differ by 2^-6), so the tolerance does too.
    const double scale = whole[p.key()].abs().max().item<double>();
    EXPECT_TRUE(torch::allclose(p.value().grad(), whole[p.key()], 1e-4, 1e-6 + 1e-6 * scale))
        << p.key() << ": largest difference " << (p.value().grad() - whole[p.key()]).abs().max().item<double>() << " at scale " << scale;
  }
  std::filesystem::remove_all(dir);
}

TEST(LightPretrain, LearnsResumesAndInitialisesFineTuning) {
  const std::string dir = test::temp_dir();
  synth_tiles(dir);
  auto o = test::tiny_pretraining<train::LightPretrainOptions>(dir, 40);
  o.batch_size = 2;
  o.lr = 2e-3;
  o.log_every = 10;
  o.checkpoint_every = 7;  // not on log lines: the sums between must survive a resume
  o.codebook_size = 16;
  o.codebook_tiles = 3;
  o.out_dir = dir + "/straight";
  const train::LightPretrainSummary s = train::light_pretrain(o);
  EXPECT_EQ(s.steps, 40);
  EXPECT_LT(s.last_loss, 0.85 * s.first_loss) << "the pretraining loss should fall";
  for (const char* f : {"options.json", "image_tokenizer.safetensors", "log.jsonl", "curves.png", "last/model.safetensors",
                        "last/optimizer.pt", "final/model.safetensors", "final/config.json", "final/vocab.json",
                        "final/image_tokenizer.safetensors"})
    EXPECT_TRUE(std::filesystem::exists(dir + "/straight/" + f)) << f;
  // Killed at step 17 and resumed: the same weights and log.
  test::expect_resumed_run_as_left_alone(dir, o, 17, 40, [](const train::LightPretrainOptions& x) { train::light_pretrain(x); },
                                         train::read_light_pretrain_options);
  // `light train --init RUN/`: LIGHT's whole trunk starts from the pretrained one.
  train::train(test::fine_tuning_from(dir, o, dir + "/straight/final"));
  const auto pre = read_state_dict(dir + "/straight/final/model.safetensors");
  const auto fine = read_state_dict(dir + "/fine/last/model.safetensors");
  size_t same = 0;
  for (const auto& [k, v] : fine)
    if (k.rfind("light.", 0) == 0) {
      EXPECT_TRUE(torch::equal(pre.at(k), v)) << k;
      ++same;
    }
  EXPECT_GT(same, 50u);
  // Bad input: a tokenizer without <mask>, a polygon checkpoint that is not one.
  o.out_dir = dir + "/bad";
  o.on_step = nullptr;
  std::filesystem::create_directories(dir + "/nomask");
  test::write_text(dir + "/nomask/vocab.json", R"({"<s>": 0, "<pad>": 1, "</s>": 2, "a": 3})");
  test::write_text(dir + "/nomask/merges.txt", "#version: 0.2\n");
  o.tokenizer = dir + "/nomask";
  try {
    train::light_pretrain(o);
    ADD_FAILURE() << "a tokenizer without <mask> was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("<mask>"), std::string::npos) << e.what();
  }
  o.tokenizer = "bytes";
  o.init_poly = dir + "/straight";
  EXPECT_THROW(train::light_pretrain(o), Error);
  std::filesystem::remove_all(dir);
}

// Two local CPU ranks (Gloo, a folder store) with 1 tile a step each reach the weights of one process
// with 2 tiles a step: pretrain, pretrain-poly and train.
TEST(DataParallel, TwoGlooRanksEqualOneProcessWithTheDoubledBatch) {
  if (!train::distributed_available()) GTEST_SKIP() << "this build has no c10d/Gloo";
  const std::string dir = test::temp_dir();
  synth_tiles(dir, 4, 4);
  write_model_config(dir + "/config.json", tiny_without_dropout());
  const std::string bin = std::string("'") + LIGHT_BINARY + "'";
  test::write_byte_level_tokenizer(dir + "/tok");
  for (const std::string command : {"pretrain", "pretrain-poly", "train"}) {
    std::string common = command + " --config " + dir + "/config.json --threads 1 -q --lr 1e-3";
    if (command == "train")  // 4 tiles: two steps an epoch, both ranks busy
      common += " --train " + dir + "/d/annotations.json --train-images " + dir + "/d --val " + dir + "/d/annotations.json --val-images " +
                dir + "/d --tokenizer " + dir + "/tok --max-epochs 3";
    else
      common += " --data " + dir + "/d/annotations.json --images " + dir + "/d --max-steps 6 --log-every 3";
    if (command == "pretrain") common += " --codebook-size 8 --codebook-tiles 3";
    const std::string one = dir + "/" + command + "-one", two = dir + "/" + command + "-two";
    ASSERT_EQ(std::system((bin + " " + common + " --batch-size 2 --out " + one).c_str()), 0);
    const std::string ranks = bin + " " + common + " --batch-size 1 --out " + two + " --world-size 2 --store " + dir + "/store-" + command;
    test::write_text(dir + "/ranks.sh", ranks + " --rank 0 &\nfirst=$!\n" + ranks + " --rank 1 || exit 1\nwait $first\n");
    ASSERT_EQ(std::system(("bash " + dir + "/ranks.sh").c_str()), 0) << command;
    const std::string weights = command == "train" ? "/last/model.safetensors" : "/final/model.safetensors";
    const auto a = read_state_dict(one + weights);
    const auto b = read_state_dict(two + weights);
    ASSERT_EQ(a.size(), b.size());
    double worst = 0, total = 0, count = 0;
    std::string where;
    for (const auto& [k, v] : a) {
      const torch::Tensor d = (v - b.at(k)).abs();
      if (d.max().item<double>() > worst) worst = d.max().item<double>(), where = k;
      total += d.sum().item<double>(), count += static_cast<double>(d.numel());
    }
    // Float tolerance under Adam: gradients that differ in their last bits (the order of the sums)
    // barely move the weights (measured: mean difference 2e-10 pretrain, 6e-7 pretrain-poly, whose
    // closest-polygon softmax at temperature 0.1 amplifies rounding), except where a gradient is float
    // noise around 0 (an attention key bias's is exactly 0), which Adam's normalisation turns into
    // steps of up to ~2e-4. Without the gradient sum the ranks drift by a mean of 2e-4 to 5e-4 and a
    // maximum of 5e-3 (measured by disabling it).
    EXPECT_LT(worst, 1e-3) << command << ": the ranks' weights differ from the one process's, most in " << where;
    EXPECT_LT(total / count, 1e-5) << command << ": the ranks' weights differ from the one process's on average";
    // The logs agree too (losses of the whole batch).
    const auto la = nlohmann::json::parse(first_line_of(read_file(one + "/log.jsonl")));
    const auto lb = nlohmann::json::parse(first_line_of(read_file(two + "/log.jsonl")));
    const char* loss = command == "train" ? "train_loss" : "loss";
    EXPECT_NEAR(la[loss].get<double>(), lb[loss].get<double>(), 1e-5 * std::abs(la[loss].get<double>())) << command;
  }
  std::filesystem::remove_all(dir);
}

// BEiT's image tokenizer against Hugging Face transformers 5.17 on a small random
// BeitForMaskedImageModeling (tests/data/beit-tiny: 2 layers, 32 wide, 64 codes, the pt22k layout),
// also from a checkpoint with transformers 4's key names; and `light pretrain --image-tokenizer BEIT/`.
TEST(Beit, LogitsAndCodesEqualTransformers) {
  const std::string dir = test::source_path("tests/data/beit-tiny");
  ASSERT_TRUE(is_beit_folder(dir));
  BeitImageTokenizer m = load_beit(dir);
  const auto expected = read_safetensors_state_dict(dir + "/expected.safetensors");
  {
    torch::NoGradGuard no_grad;
    const torch::Tensor logits = m->logits(expected.at("pixel_values"));
    ASSERT_EQ(logits.sizes(), expected.at("logits").sizes());
    EXPECT_LT((logits - expected.at("logits")).abs().max().item<double>(), 1e-4);
    EXPECT_TRUE(torch::equal(m->codes(expected.at("pixel_values")), expected.at("codes")));
  }

  // The same weights under transformers 4's names (as the released BEiT checkpoints have them).
  const std::string tmp = test::temp_dir();
  std::filesystem::create_directories(tmp + "/beit4");
  std::filesystem::copy_file(dir + "/config.json", tmp + "/beit4/config.json");
  const std::vector<std::pair<std::string, std::string>> back = {
      {"beit.shared_position_bias.", "beit.encoder.relative_position_bias."}, {"beit.layers.", "beit.encoder.layer."},
      {".attention.q_proj.", ".attention.attention.query."}, {".attention.k_proj.", ".attention.attention.key."},
      {".attention.v_proj.", ".attention.attention.value."}, {".attention.o_proj.", ".attention.output.dense."},
      {".mlp.fc1.", ".intermediate.dense."}, {".mlp.fc2.", ".output.dense."}};
  std::map<std::string, io::Tensor> old;
  for (const auto& [key, v] : read_safetensors_state_dict(dir + "/model.safetensors")) {
    std::string k = key;
    for (const auto& [from, to] : back)
      if (const auto at = k.find(from); at != std::string::npos) k.replace(at, from.size(), to);
    const torch::Tensor c = v.contiguous();
    old[k] = io::Tensor::f32(c.sizes().vec(), std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel()));
  }
  io::write_safetensors(tmp + "/beit4/model.safetensors", old, {});
  EXPECT_TRUE(torch::equal(load_beit(tmp + "/beit4")->codes(expected.at("pixel_values")), expected.at("codes")));
  // A missing tensor is named.
  old.erase("lm_head.weight");
  io::write_safetensors(tmp + "/beit4/model.safetensors", old, {});
  try {
    load_beit(tmp + "/beit4");
    ADD_FAILURE() << "a BEiT without lm_head.weight loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("lm_head.weight"), std::string::npos) << e.what();
  }

  // Pretraining with it: MIM over BEiT's 64 codes.
  synth_tiles(tmp, 2);
  auto o = test::tiny_pretraining<train::LightPretrainOptions>(tmp, 3);
  o.log_every = 1;
  o.image_tokenizer = dir;
  o.out_dir = tmp + "/run";
  train::light_pretrain(o);
  const auto w = read_state_dict(tmp + "/run/final/model.safetensors");
  EXPECT_EQ(w.at("visual_mlp.layers.2.weight").size(0), 64);
  EXPECT_FALSE(std::filesystem::exists(tmp + "/run/image_tokenizer.safetensors")) << "no codebook is trained with BEiT";
  std::filesystem::remove_all(tmp);
}

// `light pretrain --init HF_DIR --init-poly POLY_RUN`: the transformer from a Hugging Face LayoutLMv3
// folder (1-D positions resized from 514 to 1024 and re-initialised, as the reference), the polygon
// encoder from a pretrain-poly run.
TEST(LightPretrain, StartsFromAHuggingFaceBackboneAndAPolygonRun) {
  const std::string dir = test::temp_dir();
  synth_tiles(dir, 2);
  // A Hugging Face folder with the tiny sizes: random LayoutLMv3 weights under "layoutlmv3." names.
  torch::manual_seed(5);
  LightPretrain donor(preset_config("tiny", 260), 8);
  std::map<std::string, io::Tensor> hf;
  std::map<std::string, torch::Tensor> expected;
  for (const auto& p : donor->named_parameters()) {
    const std::string& k = p.key();
    if (k.rfind("light.", 0) != 0 || k.rfind("light.poly", 0) == 0) continue;
    torch::Tensor v = p.value().detach().clone();
    if (k == "light.embeddings.position_embeddings.weight") v = v.slice(0, 0, 514).contiguous();
    else if (k == "light.embeddings.token_type_embeddings.weight") v = v.slice(0, 0, 1).contiguous();
    else expected[k] = v;  // resized tables are re-initialised; everything else is copied
    hf["layoutlmv3." + k.substr(6)] = io::Tensor::f32(v.sizes().vec(), std::vector<float>(v.data_ptr<float>(), v.data_ptr<float>() + v.numel()));
  }
  std::filesystem::create_directories(dir + "/hf");
  io::write_safetensors(dir + "/hf/model.safetensors", hf);
  test::write_text(dir + "/hf/config.json", R"({"model_type": "layoutlmv3", "max_position_embeddings": 514, "type_vocab_size": 1})");
  // A short polygon pretraining run.
  train::PolyPretrainOptions p;
  p.data = dir + "/d/annotations.json";
  p.images = dir + "/d";
  p.config = "tiny";
  p.threads = 1;
  p.max_steps = 2;
  p.out_dir = dir + "/poly";
  train::poly_pretrain(p);
  // lr 0: the saved weights are the loaded ones.
  train::LightPretrainOptions o;
  o.data = p.data;
  o.images = p.images;
  o.config = "tiny";
  o.threads = 1;
  o.max_steps = 1;
  o.lr = 0;
  o.codebook_size = 4;
  o.codebook_tiles = 2;
  o.init = dir + "/hf";
  o.init_poly = dir + "/poly";
  o.out_dir = dir + "/run";
  train::light_pretrain(o);
  const auto got = read_state_dict(dir + "/run/final/model.safetensors");
  for (const auto& [k, v] : expected) EXPECT_TRUE(torch::equal(got.at(k), v)) << k;
  const torch::Tensor pos = got.at("light.embeddings.position_embeddings.weight");
  EXPECT_EQ(pos.size(0), 1024);
  EXPECT_FALSE(torch::equal(pos.slice(0, 0, 514), hf_tensor(hf.at("layoutlmv3.embeddings.position_embeddings.weight"))))
      << "the 1-D position table is re-initialised, not copied";
  const auto poly = read_state_dict(dir + "/poly/final/model.safetensors");
  for (const char* k : {"cls_token", "coord_embedding.weight", "encoder.encoder.layer.0.output.dense.weight"})
    EXPECT_TRUE(torch::equal(poly.at(k), got.at(std::string("light.poly_encoder.") + k))) << k;
  // Relative-position tables came with the backbone: they stay frozen, as fine-tuning's auto.
  EXPECT_FALSE(read_model_config(dir + "/run/final/config.json").layoutlmv3.train_relative_bias);
  std::filesystem::remove_all(dir);
}

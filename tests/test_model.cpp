// The LIGHT model against the parity fixtures (tests/data/parity/model: tests/data/parity/README.md), computed by the real
// Hugging Face and authors' code: tolerances of the fixtures' README.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "light/io/safetensors.h"
#include "light/model/checkpoint.h"
#include "light/model/device.h"
#include "light/model/light.h"
#include "light/model/poly_encoder.h"
#include "light/error.h"
#include "light/text/letter_case.h"
#include "light/train/init_weights.h"
#include "light/util/fs.h"
#include "test_util.h"

using namespace light;
using namespace light::model;

namespace {
std::string fixture(const std::string& rel) { return std::string(LIGHT_FIXTURES_DIR) + "/" + rel; }

torch::Tensor tensor(const io::SafeTensorsFile& f, const std::string& name) {
  const auto& v = f.at(name);
  return torch::from_blob(const_cast<unsigned char*>(v.data), std::vector<int64_t>(v.shape.begin(), v.shape.end()),
                          v.dtype == io::DType::I64 ? torch::kInt64 : torch::kFloat32)
      .clone();
}

double max_diff(const torch::Tensor& a, const torch::Tensor& b) {
  EXPECT_EQ(a.sizes(), b.sizes());
  if (a.sizes() != b.sizes()) return 1e9;
  return (a - b).abs().max().item<double>();
}

struct Tile {
  int64_t T;
  Batch batch;
};

Tile tile_inputs(const io::SafeTensorsFile& in, const std::string& name, int64_t pad_to = 0) {
  const std::string p = name + ".";
  const torch::Tensor mask = tensor(in, p + "attention_mask");
  const int64_t T = mask.sum().item<int64_t>(), L = std::max(T, pad_to);
  Tile t{T, {}};
  t.batch.input_ids = tensor(in, p + "input_ids").slice(0, 0, L).unsqueeze(0);
  t.batch.bbox = tensor(in, p + "bbox").slice(0, 0, L).unsqueeze(0);
  t.batch.attention_mask = mask.slice(0, 0, L).unsqueeze(0);
  t.batch.polygons = tensor(in, p + "polygons").slice(0, 0, L).unsqueeze(0);
  t.batch.pixel_values = tensor(in, p + "pixel_values").unsqueeze(0);
  const torch::Tensor first = tensor(in, p + "first_token_indices");
  const torch::Tensor valid = first.index_select(0, torch::nonzero(first.ne(-999)).flatten());
  t.batch.first_token_indices.push_back(valid);
  t.batch.word_labels.push_back(tensor(in, p + "labels").index_select(0, valid));
  return t;
}

LightTextLinking fixture_model() {
  static bool once = [] {
    torch::set_num_threads(2);
    return true;
  }();
  (void)once;
  return load_model(fixture("model"));
}
}  // namespace

TEST(Model, ParityWithTheReferenceOnEveryFixtureTile) {
  torch::NoGradGuard no_grad;
  LightTextLinking model = fixture_model();
  const io::SafeTensorsFile in(fixture("model/inputs.safetensors"));
  const io::SafeTensorsFile out(fixture("model/outputs.safetensors"));
  for (const std::string name : {"tile0", "tile1", "tile2"}) {
    SCOPED_TRACE(name);
    Tile t = tile_inputs(in, name);
    const Outputs o = model->forward(t.batch, /*keep_layers=*/true);
    const std::string p = name + ".";
    auto rows = [&](const std::string& key) { return tensor(out, p + key).slice(0, 0, t.T); };
    EXPECT_LT(max_diff(o.text_embeddings[0], rows("text_embeddings")), 1e-5);
    EXPECT_LT(max_diff(o.poly_embeddings[0], rows("poly_embeddings")), 1e-5);
    EXPECT_LT(max_diff(o.fused_embeddings[0], rows("fused_embeddings")), 1e-5);
    EXPECT_LT(max_diff(o.visual_embeddings[0], tensor(out, p + "visual_embeddings")), 1e-5);
    EXPECT_LT(max_diff(o.final_hidden_text[0], rows("final_hidden_text")), 5e-5);
    const TileOutputs& r = o.tiles[0];
    EXPECT_LT(max_diff(r.first_token_hidden, tensor(out, p + "first_token_hidden")), 5e-5);
    EXPECT_LT(max_diff(r.word_embeddings, tensor(out, p + "word_embeddings")), 5e-5);
    EXPECT_LT(max_diff(r.logits, tensor(out, p + "logits")), 1e-4);
    EXPECT_LT(max_diff(r.bi_logits, tensor(out, p + "bi_logits")), 1e-4);
    EXPECT_LT(max_diff(r.probs, tensor(out, p + "probs")), 1e-5);
    EXPECT_LT(max_diff(r.bi_probs, tensor(out, p + "bi_probs")), 1e-5);
    for (const std::string loss : {"base_loss", "bidirection_loss", "focal_loss"}) {
      const double want = tensor(out, p + loss).item<double>();
      const double got = (loss == "base_loss" ? r.base_loss : loss == "bidirection_loss" ? r.bidirection_loss : r.focal_loss).item<double>();
      EXPECT_NEAR(got, want, 1e-4 * std::abs(want)) << loss;
    }
  }
}

TEST(Model, BatchedForwardOfTwoTiles) {
  torch::NoGradGuard no_grad;
  LightTextLinking model = fixture_model();
  const io::SafeTensorsFile in(fixture("model/inputs.safetensors"));
  const io::SafeTensorsFile out(fixture("model/outputs.safetensors"));
  // Both padded to the longer one's real length; pads are masked.
  const int64_t T = std::max(tile_inputs(in, "tile0").T, tile_inputs(in, "tile1").T);
  Tile a = tile_inputs(in, "tile0", T), b = tile_inputs(in, "tile1", T);
  Batch batch;
  batch.input_ids = torch::cat({a.batch.input_ids, b.batch.input_ids});
  batch.bbox = torch::cat({a.batch.bbox, b.batch.bbox});
  batch.attention_mask = torch::cat({a.batch.attention_mask, b.batch.attention_mask});
  batch.polygons = torch::cat({a.batch.polygons, b.batch.polygons});
  batch.pixel_values = torch::cat({a.batch.pixel_values, b.batch.pixel_values});
  batch.first_token_indices = {a.batch.first_token_indices[0], b.batch.first_token_indices[0]};
  batch.word_labels = {a.batch.word_labels[0], b.batch.word_labels[0]};
  const Outputs o = model->forward(batch);
  // The last layer run for the words' first tokens alone (what linking runs): the same logits.
  const Outputs w = model->forward(batch, /*keep_layers=*/false, /*words_only=*/true);
  EXPECT_FALSE(w.final_hidden_text.defined());
  for (int k = 0; k < 2; ++k) {
    EXPECT_LT(max_diff(w.tiles[k].first_token_hidden, o.tiles[k].first_token_hidden), 1e-5);
    EXPECT_LT(max_diff(w.tiles[k].logits, tensor(out, "batch_tile0_tile1.logits." + std::to_string(k))), 1e-4);
    EXPECT_LT(max_diff(w.tiles[k].bi_probs, o.tiles[k].bi_probs), 1e-6);
  }
  double base = 0, bidir = 0, focal = 0;
  for (int k = 0; k < 2; ++k) {
    EXPECT_LT(max_diff(o.tiles[k].logits, tensor(out, "batch_tile0_tile1.logits." + std::to_string(k))), 1e-4);
    EXPECT_LT(max_diff(o.tiles[k].bi_logits, tensor(out, "batch_tile0_tile1.bi_logits." + std::to_string(k))), 1e-4);
    base += o.tiles[k].base_loss.item<double>();
    bidir += o.tiles[k].bidirection_loss.item<double>();
    focal += o.tiles[k].focal_loss.item<double>();
  }
  const double want_base = tensor(out, "batch_tile0_tile1.base_loss").item<double>();
  EXPECT_NEAR(base, want_base, 1e-4 * want_base);  // summed over the batch
  EXPECT_NEAR(bidir, tensor(out, "batch_tile0_tile1.bidirection_loss").item<double>(), 1e-4 * bidir);
  EXPECT_NEAR(focal, tensor(out, "batch_tile0_tile1.focal_loss").item<double>(), 1e-4 * focal);
}

TEST(Model, WrongCheckpointsAreClearErrors) {
  const std::string dir = test::temp_dir();
  // Other sizes: a config with a wider FFN than the weights.
  auto config = nlohmann::json::parse(read_file(fixture("model/config.json")));
  config["layoutlmv3"]["intermediate_size"] = 256;
  std::filesystem::create_directories(dir + "/m");
  test::write_text(dir + "/m/config.json", config.dump());
  std::filesystem::copy_file(fixture("model/model.safetensors"), dir + "/m/model.safetensors");
  try {
    load_model(dir + "/m");
    FAIL();
  } catch (const light::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("shapes differ"), std::string::npos) << m;
    EXPECT_NE(m.find("light.encoder.layer.0.intermediate.dense.weight (checkpoint [128, 64], model [256, 64])"), std::string::npos) << m;
  }
  // Missing keys: drop one tensor.
  std::map<std::string, io::Tensor> some;
  const io::SafeTensorsFile full(fixture("model/model.safetensors"));
  for (const auto& [k, v] : full.tensors()) {
    if (k == "successor_mlp.layers.4.bias") continue;
    io::Tensor t{v.dtype, std::vector<int64_t>(v.shape.begin(), v.shape.end()), std::vector<unsigned char>(v.data, v.data + v.nbytes)};
    some.emplace(k, std::move(t));
  }
  some["extra.weight"] = io::Tensor::f32({1}, {1.0f});
  std::filesystem::create_directories(dir + "/m2");
  std::filesystem::copy_file(fixture("model/config.json"), dir + "/m2/config.json");
  io::write_safetensors(dir + "/m2/model.safetensors", some);
  try {
    load_model(dir + "/m2");
    FAIL();
  } catch (const light::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("missing from the checkpoint (1):\n    successor_mlp.layers.4.bias"), std::string::npos) << m;
    EXPECT_NE(m.find("not in the model (1):\n    extra.weight"), std::string::npos) << m;
  }
  // Not a checkpoint at all.
  test::write_text(dir + "/m2/model.safetensors", "PK this is not it");
  EXPECT_THROW(load_model(dir + "/m2"), light::Error);
  EXPECT_THROW(load_model(dir + "/none"), light::Error);
  std::filesystem::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// light link --model
// ---------------------------------------------------------------------------------------------
#include "light/data/synth/synth.h"
#include "light/link/model_linking.h"

using light::link::link_with_model;
using light::link::ModelLinkOptions;
using light::link::ModelLinkReport;

namespace {
// The fixture model's folder plus a byte-level tokenizer whose ids (3..258) fit its 1000-word vocabulary.
std::string model_with_tokenizer(const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(fixture("model/config.json"), dir + "/config.json");
  std::filesystem::copy_file(fixture("model/model.safetensors"), dir + "/model.safetensors");
  test::write_byte_level_tokenizer(dir);
  return dir;
}

size_t count_words(const maptext::Dataset& d) {
  size_t n = 0;
  for (const auto& t : d) n += t.word_count();
  return n;
}
}  // namespace

TEST(ModelLink, TwoLinkersInOneProcessEachRunWithTheirOwnThreads) {
  // LibTorch's thread count is one per process; a Python user keeps a Linker(threads=1) and a
  // Linker(threads=2): each must link with its own, not with the count of the one made last.
  const std::string dir = test::temp_dir();
  const std::string m = model_with_tokenizer(dir + "/model");
  synth::SynthOptions so;
  so.width = so.height = 500;
  const auto data = synth::synthesize(synth::Gazetteer(""), so, dir + "/syn", 1, 3, false);
  ModelLinkOptions one, two;
  one.threads = 1, two.threads = 2;
  light::link::ModelLinker first(m, one), second(m, two);
  ModelLinkReport r;
  const std::string image = dir + "/syn/" + data[0].image;
  first.link_file(data[0], image, r);
  EXPECT_EQ(light::model::threads_in_use(), 1);
  second.link_file(data[0], image, r);
  EXPECT_EQ(light::model::threads_in_use(), 2);
  const std::string by_first = light::maptext::to_json_text({first.link_file(data[0], image, r)});
  const std::string by_second = light::maptext::to_json_text({second.link_file(data[0], image, r)});
  EXPECT_EQ(by_first, by_second);
  EXPECT_EQ(light::model::threads_in_use(), 2);
  first.link_file(data[0], image, r);
  EXPECT_EQ(light::model::threads_in_use(), 1);
}

TEST(ModelLink, EveryWordOnceWithOneOrManyWindows) {
  const std::string dir = test::temp_dir();
  const std::string m = model_with_tokenizer(dir + "/model");
  synth::SynthOptions so;
  so.width = so.height = 700;
  const auto data = synth::synthesize(synth::Gazetteer(""), so, dir + "/syn", 2, 1, false);
  for (int max_length : {1000, 40}) {
    SCOPED_TRACE("max_length " + std::to_string(max_length));
    ModelLinkOptions opt;
    opt.threads = 2;
    opt.max_length = max_length;
    ModelLinkReport report;
    const auto linked = link_with_model(data, m, dir + "/syn", opt, &report);
    ASSERT_EQ(linked.size(), data.size());
    EXPECT_EQ(count_words(linked), count_words(data));
    EXPECT_EQ(report.words, count_words(data));
    for (size_t t = 0; t < data.size(); ++t) {
      std::multiset<std::string> in, got;
      for (const auto& g : data[t].groups)
        for (const auto& w : g) in.insert(*w.text + "@" + std::to_string(w.vertices[0].x));
      for (const auto& g : linked[t].groups)
        for (const auto& w : g) got.insert(*w.text + "@" + std::to_string(w.vertices[0].x));
      EXPECT_EQ(in, got) << "tile " << t;
    }
    if (max_length == 40) {
      EXPECT_GT(report.windowed_tiles, 0u);
    } else {
      EXPECT_EQ(report.windowed_tiles, 0u);
    }
  }
  // A tokenizer whose ids do not fit the model, and a missing image: clear errors.
  ModelLinkOptions bad;
  bad.tokenizer_dir = dir + "/gpt2";
  std::filesystem::create_directories(bad.tokenizer_dir);
  test::write_text(bad.tokenizer_dir + "/vocab.json", R"({"Ġ": 5000, "a": 7})");  // one id past the model's: found as a word uses it
  test::write_text(bad.tokenizer_dir + "/merges.txt", "#version: 0.2\nx y\n");
  try {
    link_with_model(data, m, dir + "/syn", bad, nullptr);
    FAIL();
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("outside the model's vocabulary of 1000"), std::string::npos) << e.what();
  }
  EXPECT_THROW(link_with_model(data, m, dir + "/nowhere", {}, nullptr), light::Error);
  std::filesystem::remove_all(dir);
}

// The image side comes from the config: a model with 64 x 64 pixel inputs links (the resize once
// hard-coded 224 and read past the end of a 64 x 64 buffer), and a batch with pixels of another
// size is refused by name.
TEST(ModelLink, AModelWithAnotherImageSizeLinksAndMismatchedPixelsAreRefused) {
  const std::string dir = test::temp_dir();
  torch::manual_seed(3);
  ModelConfig c = preset_config("tiny", 259);
  c.layoutlmv3.input_size = 64;
  LightTextLinking net(c);
  model::write_model_folder(*net, c, dir + "/model");
  test::write_byte_level_tokenizer(dir + "/model");
  synth::SynthOptions so;
  so.width = so.height = 300;
  const auto data = synth::synthesize(synth::Gazetteer(""), so, dir + "/syn", 1, 1, false);
  ModelLinkOptions opt;
  opt.threads = 1;
  const auto linked = link_with_model(data, dir + "/model", dir + "/syn", opt, nullptr);
  EXPECT_EQ(count_words(linked), count_words(data));

  data::TileInputs in;
  in.real_tokens = in.length = 3;
  in.input_ids = {0, 5, 2};
  in.attention_mask = {1, 1, 1};
  in.labels = {-100, 10001, -100};
  in.first_token_indices = {1, -999, -999};
  in.bbox.assign(12, 10);
  in.polygons.assign(3 * 32, 0.1f);
  const std::vector<float> right(3 * 64 * 64, 0.0f), wrong(3 * 224 * 224, 0.0f);
  EXPECT_EQ(make_batch({&in}, {&right}, c, torch::kCPU).pixel_values.sizes(), (std::vector<int64_t>{1, 3, 64, 64}));
  try {
    make_batch({&in}, {&wrong}, c, torch::kCPU);
    FAIL();
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("expected 3 x 64 x 64 (the model's input_size)"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// PyTorch checkpoints
// ---------------------------------------------------------------------------------------------
#include "light/io/torch_pickle.h"

TEST(Checkpoint, PthEqualsSafetensorsAndLoads) {
  const auto a = read_pth_state_dict(fixture("model/best_model.pth"));
  const auto b = read_safetensors_state_dict(fixture("model/model.safetensors"));
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [k, v] : b) {
    ASSERT_TRUE(a.count(k)) << k;
    EXPECT_TRUE(torch::equal(a.at(k), v)) << k;
  }
  // A folder with config.json + best_model.pth computes what the safetensors model computes.
  const std::string dir = test::temp_dir();
  std::filesystem::copy_file(fixture("model/config.json"), dir + "/config.json");
  std::filesystem::copy_file(fixture("model/best_model.pth"), dir + "/best_model.pth");
  LightTextLinking m = load_model(dir);
  for (const auto& p : m->named_parameters()) EXPECT_TRUE(torch::equal(p.value(), b.at(p.key()))) << p.key();
  test::write_text(dir + "/best_model.pth", "not a zip at all");
  EXPECT_THROW(load_model(dir), light::Error);
  std::filesystem::remove_all(dir);
}

TEST(Checkpoint, WrappedTrainingCheckpointsUnwrap) {
  // {"model_state_dict": OrderedDict({"module.w": tensor([1., 2.])}), "epoch": 5}, as a pickle.
  const float data[2] = {1.0f, 2.0f};
  std::string p = "\x80\x02}(X";
  auto str = [&](const std::string& s) {
    const uint32_t n = static_cast<uint32_t>(s.size());
    p += std::string(reinterpret_cast<const char*>(&n), 4) + s;
  };
  str("model_state_dict");
  p += "ccollections\nOrderedDict\n)R(X";
  str("module.w");
  p += "ctorch._utils\n_rebuild_tensor_v2\n((X";
  str("storage");
  p += "ctorch\nFloatStorage\nX";
  str("0");
  p += "X";
  str("cpu");
  p += std::string("K\x02tQK\x00K\x02\x85K\x01\x85\x89", 13);
  p += "ccollections\nOrderedDict\n)RtRuX";
  str("epoch");
  p += "K\x05u.";
  const std::map<std::string, io::PickleStorage> storages{{"0", {reinterpret_cast<const unsigned char*>(data), 8}}};
  const auto sd = io::state_dict_from_pickle(p, storages, "wrapped.pth");
  ASSERT_EQ(sd.size(), 1u);
  ASSERT_TRUE(sd.count("w"));
  EXPECT_EQ(sd.at("w").shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(reinterpret_cast<const float*>(sd.at("w").storage)[1], 2.0f);
  // A storage missing from the archive, and garbage: clear errors.
  EXPECT_THROW(io::state_dict_from_pickle(p, {}, "wrapped.pth"), light::Error);
  EXPECT_THROW(io::state_dict_from_pickle("\x80\x02\xff", {}, "junk.pth"), light::Error);
}

TEST(Checkpoint, LayoutLMv3BackboneFromAHuggingFaceFolder) {
  // A Hugging Face-style folder made from the fixture's backbone: "layoutlmv3."-prefixed keys, a
  // 514-row position table and one token type, a flat config.json.
  const std::string dir = test::temp_dir();
  const io::SafeTensorsFile full(fixture("model/model.safetensors"));
  std::map<std::string, io::Tensor> hf;
  for (const auto& [k, v] : full.tensors()) {
    if (k.rfind("light.", 0) != 0 || k.rfind("light.poly", 0) == 0) continue;
    std::vector<int64_t> shape(v.shape.begin(), v.shape.end());
    size_t bytes = v.nbytes;
    if (k == "light.embeddings.position_embeddings.weight") shape[0] = 514, bytes = 514 * shape[1] * 4;
    if (k == "light.embeddings.token_type_embeddings.weight") shape[0] = 1, bytes = shape[1] * 4;
    hf["layoutlmv3." + k.substr(6)] = io::Tensor{v.dtype, shape, std::vector<unsigned char>(v.data, v.data + bytes)};
  }
  io::write_safetensors(dir + "/model.safetensors", hf);
  auto cfg = nlohmann::json::parse(read_file(fixture("model/config.json")))["layoutlmv3"];
  cfg["model_type"] = "layoutlmv3";
  cfg["max_position_embeddings"] = 514;
  cfg["type_vocab_size"] = 1;
  test::write_text(dir + "/config.json", cfg.dump());

  ModelConfig c = config_from_layoutlmv3(dir + "/config.json");
  EXPECT_EQ(c.layoutlmv3.max_position_embeddings, 1024);
  EXPECT_EQ(c.layoutlmv3.type_vocab_size, 2);
  c.poly = read_model_config(fixture("model/config.json")).poly;
  LightTextLinking m(c);
  const torch::Tensor poly_before = m->light->poly_encoder->cls_token.clone();
  const BackboneReport r = load_layoutlmv3_backbone(m, dir);
  EXPECT_EQ(std::set<std::string>(r.reinitialised.begin(), r.reinitialised.end()),
            (std::set<std::string>{"light.embeddings.position_embeddings.weight", "light.embeddings.token_type_embeddings.weight"}));
  const auto ref = read_safetensors_state_dict(fixture("model/model.safetensors"));
  EXPECT_TRUE(torch::equal(m->light->encoder->rel_pos_bias->weight, ref.at("light.encoder.rel_pos_bias.weight")));
  EXPECT_TRUE(torch::equal(m->light->patch_embed->proj->weight, ref.at("light.patch_embed.proj.weight")));
  EXPECT_TRUE(torch::equal(m->light->poly_encoder->cls_token, poly_before));  // not part of LayoutLMv3
  const auto pos = m->light->embeddings->position_embeddings->weight;
  EXPECT_EQ(pos[1].abs().sum().item<float>(), 0.0f);  // the padding row
  EXPECT_NEAR(pos.std().item<double>(), 0.02, 0.002);
  EXPECT_GT(r.loaded, 30u);
  // A folder without a backbone's keys.
  io::write_safetensors(dir + "/model.safetensors", {{"foo", io::Tensor::f32({1}, {0.f})}});
  EXPECT_THROW(load_layoutlmv3_backbone(m, dir), light::Error);
  std::filesystem::remove_all(dir);
}

// The parity harness as users run it: `light forward` on the fixture inputs, from either weights file.
TEST(Model, LightForwardCommandMatchesTheFixtures) {
  const std::string dir = test::temp_dir();
  for (const std::string weights : {"model.safetensors", "best_model.pth"}) {
    SCOPED_TRACE(weights);
    const std::string m = dir + "/" + weights + ".model";
    std::filesystem::create_directories(m);
    std::filesystem::copy_file(fixture("model/config.json"), m + "/config.json");
    std::filesystem::copy_file(fixture("model/" + weights), m + "/" + weights);
    const std::string out = dir + "/" + weights + ".out.safetensors";
    const std::string cmd = std::string(LIGHT_BINARY) + " forward --threads 2 --model '" + m + "' --inputs '" +
                            fixture("model/inputs.safetensors") + "' --out '" + out + "' 2>/dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    const io::SafeTensorsFile got(out), want(fixture("model/outputs.safetensors"));
    const std::vector<std::pair<std::string, double>> tol{
        {"text_embeddings", 1e-5}, {"poly_embeddings", 1e-5}, {"fused_embeddings", 1e-5}, {"visual_embeddings", 1e-5},
        {"final_hidden_text", 5e-5}, {"first_token_hidden", 5e-5}, {"word_embeddings", 5e-5}, {"logits", 1e-4},
        {"bi_logits", 1e-4}, {"probs", 1e-5}, {"bi_probs", 1e-5}};
    for (const std::string tile : {"tile0", "tile1", "tile2"})
      for (const auto& [name, t] : tol) {
        const torch::Tensor g = tensor(got, tile + "." + name);
        const torch::Tensor w = tensor(want, tile + "." + name).slice(0, 0, g.size(0));  // text rows: real tokens
        EXPECT_LT(max_diff(g, w), t) << tile << "." << name;
      }
    for (const std::string tile : {"tile0", "tile1", "tile2"})
      for (const std::string loss : {"base_loss", "bidirection_loss", "focal_loss"}) {
        const double w = tensor(want, tile + "." + loss).item<double>();
        EXPECT_NEAR(tensor(got, tile + "." + loss).item<double>(), w, 1e-4 * std::abs(w)) << tile << "." << loss;
      }
  }
  std::filesystem::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// Modality variants, loss switches, gradients
// ---------------------------------------------------------------------------------------------
#include "light/data/inputs.h"

namespace {
ModelConfig tiny_config(Modalities m) {
  ModelConfig c;
  auto& l = c.layoutlmv3;
  l.vocab_size = 40, l.hidden_size = 16, l.num_hidden_layers = 1, l.num_attention_heads = 2, l.intermediate_size = 32;
  l.max_position_embeddings = 64, l.coordinate_size = 2, l.shape_size = 4, l.input_size = 32, l.patch_size = 16;
  c.poly.emb_dim = 16, c.poly.num_hidden_layers = 1, c.poly.num_attention_heads = 2, c.poly.intermediate_size = 32;
  c.modalities = m;
  return c;
}

// One tile: <s>, five one-token words in two phrases, </s>.
Batch tiny_batch(torch::ScalarType dtype, uint64_t seed) {
  torch::manual_seed(seed);
  const auto i64 = torch::TensorOptions().dtype(torch::kInt64);
  Batch b;
  b.input_ids = torch::tensor({0, 5, 9, 13, 17, 21, 2}, i64).unsqueeze(0);
  torch::Tensor xy = torch::randint(0, 900, {1, 7, 2}, i64);
  b.bbox = torch::cat({xy, xy + torch::randint(5, 100, {1, 7, 2}, i64)}, 2);
  b.attention_mask = torch::ones({1, 7}, i64);
  b.polygons = torch::rand({1, 7, 32}, torch::TensorOptions().dtype(dtype));
  b.polygons.slice(2, 12, 32).fill_(-100);
  b.pixel_values = torch::rand({1, 3, 32, 32}, torch::TensorOptions().dtype(dtype)) * 2 - 1;
  b.first_token_indices = {torch::tensor({1, 2, 3, 4, 5}, i64)};
  b.word_labels = {torch::tensor({data::word_label(0, 1), data::word_label(0, 2), data::word_label(0, 3),
                                  data::word_label(1, 1), data::word_label(1, 2)}, i64)};
  return b;
}
}  // namespace

TEST(Model, ModalityVariantsSeeOnlyTheirInputs) {
  torch::NoGradGuard no_grad;
  for (Modalities m : {Modalities::G, Modalities::L, Modalities::LI, Modalities::LIG}) {
    SCOPED_TRACE(modalities_name(m));
    torch::manual_seed(1);
    LightTextLinking net(tiny_config(m));
    net->eval();
    const Batch b = tiny_batch(torch::kFloat32, 2);
    const torch::Tensor base = net->forward(b).tiles[0].logits;
    ASSERT_EQ(base.sizes(), (std::vector<int64_t>{5, 5}));
    auto changes = [&](auto edit) {
      Batch c = b;
      c.input_ids = b.input_ids.clone(), c.bbox = b.bbox.clone(), c.polygons = b.polygons.clone(), c.pixel_values = b.pixel_values.clone();
      edit(c);
      return !torch::allclose(net->forward(c).tiles[0].logits, base);
    };
    const bool text = changes([](Batch& c) { c.input_ids[0][2] = 30; });
    const bool layout = changes([](Batch& c) { c.bbox[0][3] += 50; });
    const bool image = changes([](Batch& c) { c.pixel_values.mul_(-1); });
    const bool polygon = changes([](Batch& c) { c.polygons[0][3][0] += 0.3; });
    EXPECT_EQ(text, m != Modalities::G);
    EXPECT_EQ(layout, m == Modalities::LI || m == Modalities::LIG);
    EXPECT_EQ(image, m == Modalities::LI || m == Modalities::LIG);
    EXPECT_EQ(polygon, m == Modalities::G || m == Modalities::LIG);
  }
}

TEST(Model, GradientsMatchFiniteDifferences) {
  torch::manual_seed(3);
  LightTextLinking net(tiny_config(Modalities::LIG));
  net->to(torch::kFloat64);
  net->eval();  // no dropout: the loss must be a deterministic function of the weights
  Batch b = tiny_batch(torch::kFloat64, 4);
  const LossSwitches all{true, true};
  auto loss = [&] { return net->forward(b).tiles[0].total_loss(all); };
  net->zero_grad();
  loss().backward();
  const auto params = net->named_parameters();
  const std::vector<std::pair<std::string, std::vector<int64_t>>> probes{
      {"successor_mlp.layers.0.weight", {0, 1}},
      {"predecessor_mlp.layers.4.bias", {3}},
      {"token_encoder.layer_norm.weight", {2}},
      {"light.encoder.layer.0.attention.self.query.weight", {2, 5}},
      {"light.encoder.layer.0.output.dense.weight", {1, 7}},
      {"light.embeddings.word_embeddings.weight", {9, 1}},
      {"light.poly_encoder.coord_embedding.weight", {3, 0}},
      {"light.poly_encoder.encoder.encoder.layer.0.intermediate.dense.weight", {4, 2}},
      {"light.patch_embed.proj.weight", {0, 1, 2, 3}},
      {"light.pos_embed", {0, 2, 5}}};
  torch::NoGradGuard no_grad;
  for (const auto& [name, at] : probes) {
    SCOPED_TRACE(name);
    torch::Tensor p = params[name];
    torch::Tensor entry = p;
    for (int64_t k : at) entry = entry[k];
    const double analytic = p.grad().defined() ? [&] {
      torch::Tensor g = p.grad();
      for (int64_t k : at) g = g[k];
      return g.item<double>();
    }() : 0.0;
    const double h = 1e-6, orig = entry.item<double>();
    entry.fill_(orig + h);
    const double up = loss().item<double>();
    entry.fill_(orig - h);
    const double down = loss().item<double>();
    entry.fill_(orig);
    const double numeric = (up - down) / (2 * h);
    EXPECT_NEAR(analytic, numeric, 1e-6 + 1e-5 * std::abs(numeric));
    EXPECT_GT(std::abs(numeric), 1e-9) << "probe does not affect the loss";
  }
  // The relative-position tables stay frozen, as in the reference.
  const torch::Tensor g = params["light.encoder.rel_pos_bias.weight"].grad();
  EXPECT_TRUE(!g.defined() || g.abs().sum().item<double>() == 0.0);
}

// The polygon encoder's inference shortcuts (the first layer's projections from per-position tables,
// the last layer for the CLS query alone, polygons grouped by their number of valid values) against
// the plain computation: every token through every layer with the masked keys, then the CLS.
TEST(Model, PolygonEncoderShortcutsEqualTheFullComputation) {
  for (const int layers : {1, 2, 3}) {
    SCOPED_TRACE(layers);
    torch::manual_seed(layers);
    PolyEncoderConfig c;
    c.emb_dim = 24, c.num_hidden_layers = layers, c.num_attention_heads = 3, c.intermediate_size = 40;
    c.hidden_dropout = c.attention_dropout = 0.0;
    PolyEncoder enc(c);
    enc->to(torch::kFloat64);
    {
      torch::NoGradGuard no_grad;
      for (auto& p : enc->parameters()) p.normal_(0.0, 0.5);  // LayerNorm weights and biases far from 1 and 0
    }
    enc->eval();
    torch::Tensor polys = torch::rand({8, 32}, torch::kFloat64);
    polys[1].slice(0, 8).fill_(-100.0);   // 4 points
    polys[2].slice(0, 6).fill_(-100.0);   // 3 points
    polys[3][5] = -0.25;                  // a negative value inside: masked, later positions kept
    polys[3][17] = -1.0;
    polys[4].zero_();                     // zeros are valid values
    polys[5].fill_(-100.0);               // nothing valid: the CLS alone
    polys[6].slice(0, 8).fill_(-100.0);   // a second 4-point polygon
    torch::Tensor pre;
    const torch::Tensor got = enc->forward(polys, &pre);
    const torch::Tensor states = poly_token_states(enc->cls_token, enc->coord_embedding, enc->position_embedding, enc->encoder,
                                                   polys, polys >= 0, 0.0, false);
    const torch::Tensor cls = states.select(1, 0);
    EXPECT_LT((pre - cls).abs().max().item<double>(), 1e-10);
    EXPECT_LT((got - enc->norm(cls)).abs().max().item<double>(), 1e-10);
    // Training mode without dropout takes the same shortcuts, with the same gradients.
    enc->train();
    const torch::Tensor trained = enc->forward(polys);
    EXPECT_LT((trained - got).abs().max().item<double>(), 1e-10);
    const torch::Tensor weights = torch::randn_like(trained);
    auto grads = [&](const torch::Tensor& out) {
      enc->zero_grad();
      (out * weights).sum().backward();
      std::vector<torch::Tensor> g;
      for (const auto& p : enc->parameters()) g.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
      return g;
    };
    const auto fast = grads(trained);
    const auto plain = grads(enc->norm(poly_token_states(enc->cls_token, enc->coord_embedding, enc->position_embedding, enc->encoder,
                                                         polys, polys >= 0, 0.0, true).select(1, 0)));
    for (size_t i = 0; i < fast.size(); ++i) EXPECT_LT((fast[i] - plain[i]).abs().max().item<double>(), 1e-9) << i;
  }
}

TEST(Model, PolygonEncoderSplitAmongThreadsEqualsOneThread) {
  // Without gradients and with several threads, the polygons are shared among the threads, each share
  // encoded on one core: the same encodings as one thread and as the full computation.
  torch::manual_seed(11);
  PolyEncoderConfig c;
  c.emb_dim = 24, c.num_hidden_layers = 2, c.num_attention_heads = 3, c.intermediate_size = 40;
  c.hidden_dropout = c.attention_dropout = 0.0;
  PolyEncoder enc(c);
  enc->to(torch::kFloat64);
  enc->eval();
  torch::Tensor polys = torch::rand({70, 32}, torch::kFloat64);
  for (int64_t i = 0; i < 70; i += 3) polys[i].slice(0, 8).fill_(-100.0);  // 4-point polygons among 16-point ones
  polys[9].fill_(-100.0);                                                  // nothing valid
  const int before = at::get_num_threads();
  torch::NoGradGuard no_grad;
  at::set_num_threads(1);
  const torch::Tensor one = enc->forward(polys);
  at::set_num_threads(2);
  torch::Tensor pre;
  const torch::Tensor two = enc->forward(polys, &pre);
  at::set_num_threads(before);
  ASSERT_EQ(two.sizes(), one.sizes());
  EXPECT_LT((two - one).abs().max().item<double>(), 1e-12);
  const torch::Tensor cls = poly_token_states(enc->cls_token, enc->coord_embedding, enc->position_embedding, enc->encoder, polys,
                                              polys >= 0, 0.0, false).select(1, 0);
  EXPECT_LT((pre - cls).abs().max().item<double>(), 1e-10);
  EXPECT_LT((two - enc->norm(cls)).abs().max().item<double>(), 1e-10);
}

TEST(Model, LossSwitchesAreThePapersTable3) {
  torch::manual_seed(3);
  LightTextLinking net(tiny_config(Modalities::LIG));
  net->eval();
  const TileOutputs t = net->forward(tiny_batch(torch::kFloat32, 4)).tiles[0];
  const double base = t.base_loss.item<double>(), bi = t.bidirection_loss.item<double>();
  const double focal = t.focal_loss.item<double>(), focal_succ = t.focal_successor_loss.item<double>();
  EXPECT_GT(focal_succ, 0);
  EXPECT_GT(focal, focal_succ);  // + the predecessor focal term
  EXPECT_NEAR(t.total_loss({false, false}).item<double>(), base, 1e-6);                  // plain
  EXPECT_NEAR(t.total_loss({false, true}).item<double>(), base + focal_succ, 1e-5);      // + focal
  EXPECT_NEAR(t.total_loss({true, false}).item<double>(), base + bi, 1e-6);              // + bidirectional
  EXPECT_NEAR(t.total_loss({true, true}).item<double>(), base + bi + focal, 1e-5);       // full
}

TEST(Model, TheOnePassRelativeBiasEqualsTheTensorComputation) {
  torch::manual_seed(8);
  ModelConfig c = tiny_config(Modalities::LIG);
  c.layoutlmv3.train_relative_bias = true;  // with a gradient: the tensor path
  LightTextLinking net(c);
  {
    torch::NoGradGuard g;
    for (const auto& p : net->named_parameters())
      if (p.key().find("rel_pos") != std::string::npos) p.value().normal_();
  }
  const auto& enc = net->light->encoder;
  const int64_t T = 37, V = 17;
  const torch::Tensor positions = torch::cat({torch::arange(T, torch::kLong), torch::arange(V, torch::kLong)});
  const torch::Tensor boxes = torch::randint(0, 1001, {3, T + V, 4}, torch::kLong);
  const torch::Tensor tensor_path = enc->attention_bias(positions, boxes);
  ASSERT_TRUE(tensor_path.requires_grad());
  torch::NoGradGuard no_grad;
  const torch::Tensor one_pass = enc->attention_bias(positions, boxes);
  ASSERT_FALSE(one_pass.requires_grad());
  ASSERT_EQ(one_pass.sizes(), tensor_path.sizes());
  EXPECT_EQ(max_diff(one_pass, tensor_path.detach()), 0.0);  // the same sums of the same floats
  EXPECT_GT(tensor_path.abs().max().item<double>(), 0.1);
}

TEST(Model, RelativeBiasTablesTrainOnlyWhenAsked) {
  for (const bool train : {false, true}) {
    torch::manual_seed(3);
    ModelConfig c = tiny_config(Modalities::LIG);
    c.layoutlmv3.train_relative_bias = train;
    LightTextLinking net(c);
    net->eval();
    Batch b = tiny_batch(torch::kFloat32, 4);
    net->forward(b).tiles[0].total_loss({true, true}).backward();
    for (const char* name : {"light.encoder.rel_pos_bias.weight", "light.encoder.rel_pos_x_bias.weight", "light.encoder.rel_pos_y_bias.weight"}) {
      const torch::Tensor g = net->named_parameters()[name].grad();
      EXPECT_EQ(g.defined() && g.abs().sum().item<double>() > 0, train) << name;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// light train
// ---------------------------------------------------------------------------------------------
#include "light/eval/evaluator.h"
#include "light/train/trainer.h"

namespace {
// Two synthetic tiles of side x side px under DIR/two, and training options on them (train and
// validate on both, run folder DIR/run, the byte-level tokenizer).
struct TwoTiles {
  maptext::Dataset data;
  train::TrainOptions options;
};
TwoTiles two_tiles(const std::string& dir, int side, uint64_t seed) {
  synth::SynthOptions so;
  so.width = so.height = side;
  so.seed = seed;
  TwoTiles t;
  t.data = synth::synthesize(synth::Gazetteer(""), so, dir + "/two", 2, 1, false);
  t.options.train_json = t.options.val_json = dir + "/two/annotations.json";
  t.options.train_images = t.options.val_images = dir + "/two";
  t.options.out_dir = dir + "/run";
  t.options.tokenizer_dir = test::write_byte_level_tokenizer(dir + "/tok");
  return t;
}
}  // namespace

// The validation F a run logs is what `light link` with the folder it saves, then `light eval`, give
// on the validation tiles: one linker, one decoding (whole tiles and scale windows).
TEST(Train, LogsTheValidationFThatLinkingWithTheSavedFolderGives) {
  for (const double window : {0.0, 0.1}) {
    const std::string dir = test::temp_dir();
    TwoTiles two = two_tiles(dir, 1000, 7);
    train::TrainOptions& o = two.options;
    // Every decoding setting away from its neutral value, as the bundled model's are.
    ModelConfig c = preset_config("tiny", 260);
    c.window_word_height = window;
    c.no_successor_bias = 0.45, c.reading_prior_above = 0.5, c.reading_prior_next_line = 2;
    c.lettering_prior = 3, c.alignment_prior = 3, c.baseline_prior = 3, c.polygon_height = 1.5;
    write_model_config(dir + "/tiny.json", c);
    o.config = dir + "/tiny.json";
    o.window_word_height = window;
    o.max_epochs = 1;
    o.lr = 1e-3;
    o.threads = 2;
    train::train(o);
    const auto log = nlohmann::json::parse(read_file(dir + "/run/log.jsonl"));
    ModelLinkReport r;
    const auto linked = link_with_model(two.data, dir + "/run/best", dir + "/two", ModelLinkOptions{}, &r);
    eval::Options eo;
    eo.task = eval::Task::DetEdges;
    const auto scores = eval::evaluate(two.data, linked, eo).overall;
    double f = -1;
    for (const auto& [k, v] : scores)
      if (k == "edges_fscore") f = v;
    EXPECT_GT(f, 0.0);
    EXPECT_EQ(log["edges_fscore"].get<double>(), f) << "window " << window;
    EXPECT_EQ(r.windowed_tiles > 0, window > 0);
    std::filesystem::remove_all(dir);
  }
}

TEST(Train, FitsTwoTilesAndWritesAModelFolder) {
  const std::string dir = test::temp_dir();
  TwoTiles two = two_tiles(dir, 500, 5);
  const auto& data = two.data;
  train::TrainOptions& o = two.options;
  // The tiny preset without dropout (from a config file): the loop's mechanics, not regularisation.
  ModelConfig c = preset_config("tiny", 260);
  c.layoutlmv3.hidden_dropout = c.layoutlmv3.attention_dropout = c.poly.hidden_dropout = c.poly.attention_dropout = 0;
  c.fusion_dropout = 0;
  write_model_config(dir + "/tiny.json", c);
  o.config = dir + "/tiny.json";
  o.max_epochs = 30;
  o.lr = 2e-3;
  o.threads = 2;
  const train::TrainSummary s = train::train(o);
  EXPECT_GT(s.epochs, 5);
  // The validation loss (words in reading order) falls well below where it started.
  const auto log = read_file(dir + "/run/log.jsonl");
  const auto first = nlohmann::json::parse(log.substr(0, log.find('\n')));
  EXPECT_LT(s.best_val_loss, 0.9 * first["val_loss"].get<double>());
  for (const char* f : {"best/config.json", "best/model.safetensors", "best/vocab.json", "best/merges.txt", "last/model.safetensors",
                        "curves.png", "options.json"})
    EXPECT_TRUE(std::filesystem::exists(dir + "/run/" + f)) << f;
  // Trained with resampled polygons (the default), and so recorded for linking.
  EXPECT_EQ(nlohmann::json::parse(read_file(dir + "/run/options.json"))["polygon_points"], "resample");
  EXPECT_EQ(read_model_config(dir + "/run/best/config.json").polygon_points, light::data::PolygonPoints::Resample);
  // The result is a model folder that light link --model loads; it resamples a 4-point box.
  ModelLinkOptions lo;
  ModelLinkReport r;
  auto boxed = data;
  boxed[0].groups[0][0].vertices = {{10, 60}, {90, 60}, {90, 40}, {10, 40}};
  const auto linked = link_with_model(boxed, dir + "/run/best", dir + "/two", lo, &r);
  EXPECT_EQ(count_words(linked), count_words(data));
  EXPECT_EQ(r.polygon_points, "resample");
  EXPECT_EQ(r.polygons.resampled, 1u);
  size_t boxes_out = 0;  // the output keeps the polygon as it came
  for (const auto& t : linked)
    for (const auto& g : t.groups)
      for (const auto& w : g) boxes_out += w.vertices.size() == 4;
  EXPECT_EQ(boxes_out, 1u);
  lo.polygon_points = "keep";
  link_with_model(boxed, dir + "/run/best", dir + "/two", lo, &r);
  EXPECT_EQ(r.polygon_points, "keep");
  EXPECT_EQ(r.polygons.resampled, 0u);
  // A missing image is named (in a new run folder: the finished run's own is refused).
  o.out_dir = dir + "/run2";
  o.train_images = dir + "/nowhere";
  try {
    train::train(o);
    FAIL();
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("not found"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(PairwiseHead, PairFeaturesReadTheSecondWordInTheFirstWordsFrame) {
  // Word 0 runs from (0, 0) to (10, 0), 2 high; word 1 starts 2 further on the same line; word 2 sits a
  // line below word 0's start, upright rotated by 90 degrees.
  const torch::Tensor frames = torch::tensor({0.0, 0.0, 10.0, 0.0, 2.0, 12.0, 0.0, 20.0, 0.0, 2.0, 0.0, 4.0, 0.0, 14.0, 4.0},
                                             torch::kFloat64)
                                   .view({3, 5});
  const torch::Tensor phi = pair_features(frames);
  ASSERT_EQ(phi.sizes(), (std::vector<int64_t>{3, 3, kPairFeatures}));
  auto at = [&](int i, int j, int f) { return phi[i][j][f].item<double>(); };
  EXPECT_NEAR(at(0, 1, 0), std::log1p(1.0), 1e-12);   // gap 2 along / height 2
  EXPECT_NEAR(at(0, 1, 1), 0.0, 1e-12);               // same line
  EXPECT_NEAR(at(0, 1, 2), std::log1p(5.5), 1e-12);   // centres 11 apart
  EXPECT_NEAR(at(0, 1, 4), std::log1p(6.0), 1e-12);   // starts 12 apart
  EXPECT_NEAR(at(0, 2, 5), std::log1p(2.0), 1e-12);   // start 4 below (across, down) / 2
  EXPECT_NEAR(at(0, 1, 7), 1.0, 1e-12);               // same direction
  EXPECT_NEAR(at(0, 2, 7), 0.0, 1e-12);
  EXPECT_NEAR(at(0, 2, 8), 1.0, 1e-12);               // turned clockwise on screen (y down)
  EXPECT_NEAR(at(1, 0, 6), 0.0, 1e-12);               // equal heights
  EXPECT_NEAR(at(0, 1, 9), std::log(8.0 / 2.0), 1e-12);
  EXPECT_EQ(at(1, 1, 10), 1.0);
  EXPECT_EQ(at(0, 1, 10), 0.0);
}

TEST(PairwiseHead, ContextFeaturesRankEachPairAmongTheTilesWords) {
  // The frames of the test above: word 0 from (0, 0) to (10, 0), 2 high; word 1 from (12, 0) to (20, 0);
  // word 2 upright from (0, 4) to (0, 14), 4 high. Centres (5, 0), (16, 0), (0, 9).
  const torch::Tensor frames = torch::tensor({0.0, 0.0, 10.0, 0.0, 2.0, 12.0, 0.0, 20.0, 0.0, 2.0, 0.0, 4.0, 0.0, 14.0, 4.0},
                                             torch::kFloat64)
                                   .view({3, 5});
  const torch::Tensor plain = pair_features(frames), phi = pair_features(frames, true);
  ASSERT_EQ(phi.sizes(), (std::vector<int64_t>{3, 3, kPairContextFeatures}));
  EXPECT_TRUE(torch::equal(phi.slice(2, 0, kPairFeatures), plain));  // the geometry first, unchanged
  auto at = [&](int i, int j, int f) { return phi[i][j][f].item<double>(); };
  EXPECT_NEAR(at(0, 1, 11), std::log1p(5.0), 1e-12);  // ends 10 apart along / height 2
  EXPECT_NEAR(at(0, 1, 12), 0.0, 1e-12);
  // From word 0, centres: word 2 is 5.15 heights away, word 1 5.5: word 2 ranks first.
  EXPECT_NEAR(at(0, 2, 13), 0.0, 1e-12);
  EXPECT_NEAR(at(0, 1, 13), std::log1p(1.0), 1e-12);
  EXPECT_NEAR(at(0, 0, 13), std::log1p(2.0), 1e-12);  // a word and itself: last
  // Towards word 1: word 2 is 4.6 of its heights away, word 0 5.5 of its own: word 0 ranks second.
  EXPECT_NEAR(at(2, 1, 14), 0.0, 1e-12);
  EXPECT_NEAR(at(0, 1, 14), std::log1p(1.0), 1e-12);
  // From word 0's end: word 1 starts 1 height on, word 2 5.4: word 1 first.
  EXPECT_NEAR(at(0, 1, 15), 0.0, 1e-12);
  EXPECT_NEAR(at(0, 2, 15), std::log1p(1.0), 1e-12);
  // Into word 1's start: word 0's end (1 height) before word 2's (|(12, -14)| / 4 = 4.6).
  EXPECT_NEAR(at(0, 1, 16), 0.0, 1e-12);
  EXPECT_NEAR(at(2, 1, 16), std::log1p(1.0), 1e-12);
}

TEST(PairwiseHead, WithContextReadsMoreFeaturesAndSaysSoInItsConfig) {
  ModelConfig c = tiny_config(Modalities::LIG);
  c.head = SuccessorHead::Pairwise;
  c.pair_context = true;
  LightTextLinking m(c);
  EXPECT_EQ(m->successor_pair->geometry->weight.size(1), kPairContextFeatures);
  const std::string dir = test::temp_dir();
  write_model_config(dir + "/c.json", c);
  EXPECT_TRUE(read_model_config(dir + "/c.json").pair_context);
  c.pair_context = false;
  write_model_config(dir + "/c.json", c);
  EXPECT_EQ(read_file(dir + "/c.json").find("context"), std::string::npos);  // earlier models' config.json unchanged
  EXPECT_FALSE(read_model_config(dir + "/c.json").pair_context);
  EXPECT_EQ(LightTextLinking(c)->successor_pair->geometry->weight.size(1), kPairFeatures);
  std::filesystem::remove_all(dir);
}

TEST(PairwiseHead, LetteringFeaturesSayHowAlikeTwoWordsAreLettered) {
  // Words: black capitals, black capitals, red small letters, black figures (no case).
  const torch::Tensor letters = torch::tensor({0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.6, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0},
                                              torch::kFloat64)
                                    .view({4, 4});
  const torch::Tensor phi = pair_lettering_features(letters);
  ASSERT_EQ(phi.sizes(), (std::vector<int64_t>{4, 4, kPairLetteringFeatures}));
  auto at = [&](int i, int j, int f) { return phi[i][j][f].item<double>(); };
  EXPECT_NEAR(at(0, 1, 0), 0.0, 1e-12);  // one ink
  EXPECT_NEAR(at(0, 2, 0), 0.6, 1e-12);  // red against black
  EXPECT_NEAR(at(2, 0, 0), 0.6, 1e-12);
  EXPECT_EQ(at(0, 1, 1), 1.0);           // capitals and capitals
  EXPECT_EQ(at(0, 2, 1), 0.0);           // capitals and small letters
  EXPECT_EQ(at(0, 3, 1), 1.0);           // figures go with any case
  EXPECT_EQ(at(0, 2, 2), 1.0);           // both have letters
  EXPECT_EQ(at(0, 3, 2), 0.0);
  EXPECT_EQ(at(3, 0, 2), 0.0);
}

TEST(PairwiseHead, MakeBatchReadsEachWordsInkAndCaseFromItsWindow) {
  ModelConfig c = tiny_config(Modalities::LIG);
  c.head = SuccessorHead::Pairwise;
  c.pair_lettering = true;
  const int64_t S = c.layoutlmv3.input_size;
  data::TileInputs in;
  in.real_tokens = in.length = 4;
  in.input_ids = {0, 5, 6, 2};
  in.attention_mask = {1, 1, 1, 1};
  in.labels = {-100, 10001, 10002, -100};
  in.first_token_indices = {1, 2, -999, -999};
  in.bbox.assign(16, 10);
  in.polygons.assign(4 * 32, 0.1f);
  // Two words on white: "Lodge" in the left half's box, drawn in red, and "1906" on the right, in black;
  // each box a fifth ink, the rest paper.
  data::ModelWord a, b;
  a.text = "Lodge", b.text = "1906";
  a.bbox = {0, 0, 500, 1000}, b.bbox = {500, 0, 1000, 1000};
  a.polygon = {0.0f, 0.0f, 0.5f, 0.0f, 0.5f, 0.1f, 0.0f, 0.1f}, b.polygon = {0.5f, 0.0f, 1.0f, 0.0f, 1.0f, 0.1f, 0.5f, 0.1f};
  a.polygon.resize(32, data::kPolygonPad), b.polygon.resize(32, data::kPolygonPad);
  in.words = {a, b};
  std::vector<float> px(static_cast<size_t>(3 * S * S), 1.0f);  // white (normalised: 1)
  const size_t plane = static_cast<size_t>(S * S);
  for (int64_t y = 0; y < S; y += 5)
    for (int64_t x = 0; x < S; ++x) {
      const size_t o = static_cast<size_t>(y * S + x);
      const bool left = x < S / 2;
      px[o] = left ? 0.6f : -1.0f;  // red 0.8 on the left, black on the right
      px[plane + o] = px[2 * plane + o] = -1.0f;
    }
  const Batch batch = make_batch({&in}, {&px}, c, torch::kCPU);
  ASSERT_EQ(batch.word_lettering.size(), 1u);
  const torch::Tensor l = batch.word_lettering[0];
  ASSERT_EQ(l.sizes(), (std::vector<int64_t>{2, 4}));
  EXPECT_NEAR(l[0][0].item<double>(), 0.8, 1e-6);
  EXPECT_NEAR(l[0][1].item<double>(), 0.0, 1e-6);
  EXPECT_NEAR(l[1][0].item<double>(), 0.0, 1e-6);
  EXPECT_EQ(l[0][3].item<double>(), static_cast<double>(text::LetterCase::Title));
  EXPECT_EQ(l[1][3].item<double>(), static_cast<double>(text::LetterCase::None));
  LightTextLinking m(c);
  m->eval();
  EXPECT_EQ(m->successor_pair->geometry->weight.size(1), kPairFeatures + kPairLetteringFeatures);
  const Outputs o = m->forward(batch);
  EXPECT_EQ(o.tiles[0].probs.sizes(), (std::vector<int64_t>{2, 2}));
  // Its config says so; earlier models' config.json is unchanged.
  const std::string dir = test::temp_dir();
  write_model_config(dir + "/c.json", c);
  EXPECT_TRUE(read_model_config(dir + "/c.json").pair_lettering);
  c.pair_lettering = false;
  write_model_config(dir + "/c.json", c);
  EXPECT_EQ(read_file(dir + "/c.json").find("lettering\""), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(PairwiseHead, APairwiseModelWidenedForLetteringStartsWithItsOwnWeightsAndZeroNewColumns) {
  // What `light train --init MODEL --head pairwise-lettering` does (train/init_weights.h).
  ModelConfig c = tiny_config(Modalities::LIG);
  c.head = SuccessorHead::Pairwise;
  LightTextLinking from(c);
  train::InitWeights w;
  w.kind = train::InitWeights::Light;
  w.path = "model.safetensors";
  for (const auto& p : from->named_parameters()) w.state[p.key()] = p.value().detach().clone();
  ModelConfig wide = c;
  wide.pair_lettering = true;
  LightTextLinking to(wide);
  train::initialise(*to, *to->light, wide, w);
  const torch::Tensor g = to->successor_pair->geometry->weight;
  ASSERT_EQ(g.size(1), kPairFeatures + kPairLetteringFeatures);
  EXPECT_TRUE(torch::equal(g.slice(1, 0, kPairFeatures), from->successor_pair->geometry->weight));
  EXPECT_EQ(g.slice(1, kPairFeatures).abs().sum().item<double>(), 0.0);
  EXPECT_TRUE(torch::equal(to->predecessor_pair->out->weight, from->predecessor_pair->out->weight));
  // Any other shape still differs loudly.
  w.state["token_encoder.layer_norm.weight"] = torch::zeros({3});
  ASSERT_TRUE(to->named_parameters().contains("token_encoder.layer_norm.weight"));
  EXPECT_THROW(train::initialise(*to, *to->light, wide, w), light::Error);
}

TEST(PairwiseHead, IsAnOptionThatKeepsThePapersModelUnchanged) {
  torch::manual_seed(3);
  ModelConfig c = tiny_config(Modalities::LIG);
  LightTextLinking paper(c);
  EXPECT_FALSE(paper->successor_pair);
  c.head = SuccessorHead::Pairwise;
  LightTextLinking pairwise(c);
  ASSERT_TRUE(pairwise->successor_pair);
  size_t extra = 0;
  for (const auto& p : pairwise->named_parameters())
    if (p.key().find("_pair.") != std::string::npos) ++extra;
  EXPECT_EQ(extra, 2u * 6u);  // geometry (weight, bias), from, to, out (weight, bias) in each direction
  Batch b = tiny_batch(torch::kFloat32, 4);
  pairwise->eval();
  EXPECT_THROW(pairwise->forward(b), std::exception);  // no word frames
  b.word_frames = {torch::tensor({0.1, 0.1, 0.3, 0.1, 0.02, 0.32, 0.1, 0.5, 0.1, 0.02, 0.1, 0.5, 0.2, 0.5, 0.02, 0.1, 0.7, 0.3,
                                  0.7, 0.03, 0.35, 0.7, 0.6, 0.7, 0.03}, torch::kFloat32).view({5, 5})};
  const TileOutputs t = pairwise->forward(b).tiles[0];
  EXPECT_EQ(t.logits.sizes(), (std::vector<int64_t>{5, 5}));
  EXPECT_TRUE(torch::isfinite(t.total_loss({true, true})).item<bool>());
  // Written and read back through config.json; absent from a paper model's.
  const std::string dir = test::temp_dir();
  write_model_config(dir + "/p.json", c);
  const ModelConfig back = read_model_config(dir + "/p.json");
  EXPECT_EQ(back.head, SuccessorHead::Pairwise);
  EXPECT_EQ(back.pair_hidden, 64);
  write_model_config(dir + "/b.json", tiny_config(Modalities::LIG));
  EXPECT_EQ(read_file(dir + "/b.json").find("successor_head"), std::string::npos);
  EXPECT_EQ(read_file(dir + "/b.json").find("window_word_height"), std::string::npos);
  EXPECT_EQ(read_file(dir + "/b.json").find("no_successor_bias"), std::string::npos);
  c.no_successor_bias = 3.5;
  write_model_config(dir + "/p.json", c);
  EXPECT_DOUBLE_EQ(read_model_config(dir + "/p.json").no_successor_bias, 3.5);
  // The rest of the decoding prior (link/decoding_prior.h): absent unless set, then read back.
  EXPECT_EQ(read_file(dir + "/b.json").find("no_successor_exponent"), std::string::npos);
  EXPECT_EQ(read_file(dir + "/b.json").find("reading_prior_above"), std::string::npos);
  EXPECT_DOUBLE_EQ(read_model_config(dir + "/b.json").no_successor_exponent, 0.0);
  EXPECT_DOUBLE_EQ(read_model_config(dir + "/b.json").reading_prior_above, 1.0);
  c.no_successor_exponent = 0.4;
  c.reading_prior_above = 0.1;
  write_model_config(dir + "/p.json", c);
  EXPECT_DOUBLE_EQ(read_model_config(dir + "/p.json").no_successor_exponent, 0.4);
  EXPECT_DOUBLE_EQ(read_model_config(dir + "/p.json").reading_prior_above, 0.1);
  EXPECT_EQ(read_file(dir + "/p.json").find("reading_prior_next_line"), std::string::npos);
  EXPECT_DOUBLE_EQ(read_model_config(dir + "/p.json").reading_prior_next_line, 1.0);
  c.reading_prior_next_line = 2.5;
  write_model_config(dir + "/p.json", c);
  EXPECT_DOUBLE_EQ(read_model_config(dir + "/p.json").reading_prior_next_line, 2.5);
  EXPECT_EQ(read_file(dir + "/p.json").find("lettering_prior"), std::string::npos);
  c.lettering_prior = 1.5;
  write_model_config(dir + "/p.json", c);
  EXPECT_DOUBLE_EQ(read_model_config(dir + "/p.json").lettering_prior, 1.5);
  EXPECT_EQ(read_file(dir + "/p.json").find("alignment_prior"), std::string::npos);
  c.alignment_prior = 3, c.baseline_prior = 2;
  write_model_config(dir + "/p.json", c);
  EXPECT_DOUBLE_EQ(read_model_config(dir + "/p.json").alignment_prior, 3.0);
  EXPECT_DOUBLE_EQ(read_model_config(dir + "/p.json").baseline_prior, 2.0);
  EXPECT_EQ(read_file(dir + "/p.json").find("polygon_height"), std::string::npos);
  c.polygon_height = 0.8;
  write_model_config(dir + "/p.json", c);
  EXPECT_DOUBLE_EQ(read_model_config(dir + "/p.json").polygon_height, 0.8);
  // The message reading a config.json of `text` fails with ("" when it reads).
  const auto config_error = [&](const std::string& text) {
    test::write_text(dir + "/bad.json", text);
    try {
      read_model_config(dir + "/bad.json");
    } catch (const light::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(config_error("{\"lettering_prior\": 0.5}").find("bad.json: lettering_prior: expected a factor in [1, 100]"), std::string::npos);
  EXPECT_NE(config_error("{\"alignment_prior\": 0}").find("bad.json: alignment_prior: expected a factor in [1, 100]"), std::string::npos);
  EXPECT_NE(config_error("{\"polygon_height\": 0}").find("bad.json: polygon_height: expected a share of the words' height in [0.25, 4]"), std::string::npos);
  EXPECT_NE(config_error("{\"baseline_prior\": 200}").find("bad.json: baseline_prior: expected a factor in [1, 100]"), std::string::npos);
  EXPECT_NE(config_error("{\"reading_prior_next_line\": -1}").find("bad.json: reading_prior_next_line: expected a factor in [0, 100]"), std::string::npos);
  EXPECT_NE(config_error("{\"reading_prior_above\": 2}").find("bad.json: reading_prior_above: expected a factor in [0, 1]"), std::string::npos);
  // How polygons reach the model: absent (keep, the reference's) unless resampled.
  EXPECT_EQ(read_file(dir + "/b.json").find("polygon_points"), std::string::npos);
  EXPECT_EQ(read_model_config(dir + "/b.json").polygon_points, light::data::PolygonPoints::Keep);
  c.polygon_points = light::data::PolygonPoints::Resample;
  write_model_config(dir + "/p.json", c);
  EXPECT_NE(read_file(dir + "/p.json").find("\"polygon_points\": \"resample\""), std::string::npos);
  EXPECT_EQ(read_model_config(dir + "/p.json").polygon_points, light::data::PolygonPoints::Resample);
  EXPECT_NE(config_error("{\"polygon_points\": \"cut\"}").find("bad.json: polygon_points: expected \"resample\" or \"keep\", got \"cut\""), std::string::npos);
  EXPECT_NE(config_error("{\"no_successor_bias\": 0}").find("no_successor_bias: expected a positive factor"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(Losses, RowsWhoseNeighbourLiesBeyondTheWindowAreLeftOut) {
  torch::manual_seed(5);
  const torch::Tensor logits = torch::randn({3, 3}), bi = torch::randn({3, 3});
  const std::vector<int64_t> labels = {data::word_label(0, 1), data::word_label(0, 2), data::word_label(1, 1)};
  TileOutputs all, cut;
  link_losses(logits, bi, labels, 0.25, 2.0, all);
  link_losses(logits, bi, labels, 0.25, 2.0, cut, RowWeights{{1, 0, 0}, {0, 0, 0}, {}, {}});
  // Word 0's successor row is left out: the CE is the mean over rows 1 and 2 (both "no successor").
  const torch::Tensor rows = logits.slice(0, 1, 3);
  const double expected = torch::nn::functional::cross_entropy(rows, torch::tensor({1, 2}, torch::kLong)).item<double>();
  EXPECT_NEAR(cut.base_loss.item<double>(), expected, 1e-6);
  EXPECT_NE(cut.base_loss.item<double>(), all.base_loss.item<double>());
  EXPECT_NEAR(cut.bidirection_loss.item<double>(), all.bidirection_loss.item<double>(), 1e-7);
  TileOutputs none;
  link_losses(logits, bi, labels, 0.25, 2.0, none, RowWeights{{1, 1, 1}, {}, {}, {}});
  EXPECT_EQ(none.base_loss.item<double>(), 0.0);
}

TEST(Losses, WeighedRowsCountInProportionToTheirWeights) {
  torch::manual_seed(7);
  const torch::Tensor logits = torch::randn({3, 3}), bi = torch::randn({3, 3});
  const std::vector<int64_t> labels = {data::word_label(0, 1), data::word_label(0, 2), data::word_label(1, 1)};
  TileOutputs plain, ones, weighed, cut;
  link_losses(logits, bi, labels, 0.25, 2.0, plain);
  link_losses(logits, bi, labels, 0.25, 2.0, ones, RowWeights{{}, {}, {1, 1, 1}, {1, 1, 1}});
  EXPECT_EQ(ones.base_loss.item<double>(), plain.base_loss.item<double>());  // all 1: the paper's loss, as computed before
  EXPECT_EQ(ones.focal_loss.item<double>(), plain.focal_loss.item<double>());
  // Row 0 weighed 4, rows 1 and 2 once: scaled to 2, 0.5, 0.5 (sum 3), the CE is their weighed mean.
  link_losses(logits, bi, labels, 0.25, 2.0, weighed, RowWeights{{}, {}, {4, 1, 1}, {}});
  const torch::Tensor ce = torch::nn::functional::cross_entropy(logits, torch::tensor({1, 1, 2}, torch::kLong),
                                                                torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone));
  const double expected = (2.0 * ce[0].item<double>() + 0.5 * ce[1].item<double>() + 0.5 * ce[2].item<double>()) / 3.0;
  EXPECT_NEAR(weighed.base_loss.item<double>(), expected, 1e-6);
  EXPECT_NEAR(weighed.bidirection_loss.item<double>(), plain.bidirection_loss.item<double>(), 1e-7);
  // A row left out takes no weight, and the rest are scaled over the kept rows alone.
  link_losses(logits, bi, labels, 0.25, 2.0, cut, RowWeights{{0, 0, 1}, {}, {4, 1, 7}, {}});
  const double kept = (1.6 * ce[0].item<double>() + 0.4 * ce[1].item<double>()) / 2.0;
  EXPECT_NEAR(cut.base_loss.item<double>(), kept, 1e-6);
  EXPECT_THROW(link_losses(logits, bi, labels, 0.25, 2.0, cut, RowWeights{{}, {}, {2, 1}, {}}), std::exception);
}

TEST(Losses, LinkWeightsAreReadFromTheirSpecAndKeptInTheConfig) {
  const data::LinkWeights w = data::parse_link_weights("spread=2, above=3.5,next_line_unaligned=3", "--link-weights");
  EXPECT_EQ(w.spread, 2);
  EXPECT_EQ(w.above, 3.5);
  EXPECT_EQ(w.next_line_unaligned, 3);
  EXPECT_EQ(w.next_line, 1);
  EXPECT_EQ(data::link_weights_spec(w), "spread=2,next_line_unaligned=3,above=3.5");
  EXPECT_TRUE(data::parse_link_weights("", "--link-weights").neutral());
  auto error = [](const std::string& spec) {
    try {
      data::parse_link_weights(spec, "--link-weights");
    } catch (const light::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("spread=0").find("--link-weights: spread: expected a weight above 0"), std::string::npos);
  EXPECT_NE(error("spread=2x").find("--link-weights: spread: expected a weight above 0"), std::string::npos);
  EXPECT_NE(error("near=2").find("--link-weights: unknown link class \"near\""), std::string::npos);
  const std::string dir = test::temp_dir();
  ModelConfig c = preset_config("tiny", 260);
  write_model_config(dir + "/plain.json", c);
  EXPECT_EQ(read_file(dir + "/plain.json").find("link_weights"), std::string::npos);  // absent unless used
  c.link_weights = w;
  write_model_config(dir + "/w.json", c);
  EXPECT_EQ(read_model_config(dir + "/w.json").link_weights.above, 3.5);
  std::filesystem::remove_all(dir);
}

TEST(Losses, EachLinkIsWeighedByWhereItsNextWordLies) {
  // Words in a 1000 x 1000 window, 20 high: "Lodge" -> "Pole" (near), "Pole" -> "Cr." on the next line
  // lined up at its left end; "Big" -> "Horn" on a next line indented by 3 heights; "Wide" -> "Plain"
  // spread 6 heights apart; "Bend" -> "Top" above it; "Alone" ends its phrase.
  auto word = [](int64_t group, int64_t seq, double x0, double y0, double x1) {
    data::ModelWord m;
    m.label = data::word_label(static_cast<size_t>(group), seq);
    m.polygon.assign(data::kPolygonValues, data::kPolygonPad);
    const double y1 = y0 + 20;
    const double pts[8] = {x0, y1, x1, y1, x1, y0, x0, y0};  // lower edge left to right, then the upper edge back
    for (int k = 0; k < 8; ++k) m.polygon[k] = static_cast<float>(pts[k] / 1000.0);
    return m;
  };
  data::TileInputs in;
  in.aspect = 1.0;
  in.words = {word(0, 1, 100, 100, 180), word(0, 2, 190, 100, 250), word(0, 3, 100, 125, 150),       // Lodge Pole / Cr.
              word(1, 1, 400, 100, 460), word(1, 2, 520, 125, 580),                                  // Big / (indented) Horn
              word(2, 1, 100, 400, 160), word(2, 2, 280, 400, 340),                                  // Wide ... Plain
              word(3, 1, 600, 600, 660), word(3, 2, 600, 570, 640), word(4, 1, 800, 800, 880)};   // Bend, Top above; Alone
  data::LinkWeights w;
  w.spread = 2, w.next_line = 1.5, w.next_line_unaligned = 3, w.above = 4;
  std::vector<float> next, prev;
  data::link_row_weights(in, w, next, prev);
  EXPECT_EQ(next, (std::vector<float>{1, 1.5, 1, 3, 1, 2, 1, 4, 1, 1}));
  EXPECT_EQ(prev, (std::vector<float>{1, 1, 1.5, 1, 3, 1, 2, 1, 4, 1}));
  data::link_row_weights(in, data::LinkWeights{}, next, prev);
  EXPECT_EQ(next, std::vector<float>(10, 1.0f));
}

TEST(Losses, TheFocalSelfTargetMakesAPhraseFinalWordsOwnEntryItsPositive) {
  // Two words of one phrase: 0 -> 1, and 1 ends it. Row 0 is uniform, row 1 gives itself 0.75.
  // alpha 0.25 on the diagonal, gamma 2, hand-worked: the paper's row 1 is two negatives,
  // 0.0625 ln(4/3) + 0.25 (0.5625 ln 4); with the self target its diagonal is a positive,
  // 0.25 (0.0625 ln(4/3)). Row 0: 0.25 (0.25 ln 2) + 0.25 ln 2. Mean of 4 entries, times 100.
  const torch::Tensor logits = torch::tensor({0.0f, 0.0f, 0.0f, static_cast<float>(std::log(3.0))}).view({2, 2});
  const std::vector<int64_t> labels = {data::word_label(0, 1), data::word_label(0, 2)};
  TileOutputs paper, self;
  link_losses(logits, logits, labels, 0.25, 2.0, paper);
  link_losses(logits, logits, labels, 0.25, 2.0, self, {}, /*focal_self_target=*/true);
  EXPECT_NEAR(paper.focal_successor_loss.item<double>(), 10.738406, 1e-4);
  EXPECT_NEAR(self.focal_successor_loss.item<double>(), 5.977091, 1e-4);
  EXPECT_NEAR(self.base_loss.item<double>(), paper.base_loss.item<double>(), 1e-9);  // the cross-entropy is unchanged
  // The model config keeps the switch only when it is on (released checkpoints' files unchanged).
  const std::string dir = test::temp_dir();
  ModelConfig c = preset_config("tiny", 260);
  write_model_config(dir + "/off.json", c);
  EXPECT_EQ(read_file(dir + "/off.json").find("focal_self_target"), std::string::npos);
  c.focal_self_target = true;
  write_model_config(dir + "/on.json", c);
  EXPECT_TRUE(read_model_config(dir + "/on.json").focal_self_target);
  std::filesystem::remove_all(dir);
}

TEST(Train, ScaleWindowsAndAPairwiseHeadTrainAndLinkEveryWord) {
  const std::string dir = test::temp_dir();
  TwoTiles two = two_tiles(dir, 1200, 6);
  const auto& data = two.data;
  train::TrainOptions& o = two.options;
  o.config = "tiny";
  o.head = "pairwise";
  o.window_word_height = 0.04;  // windows of about half the tile
  o.max_epochs = 2;
  o.lr = 1e-3;
  o.threads = 2;
  train::train(o);
  const ModelConfig c = read_model_config(dir + "/run/best/config.json");
  EXPECT_EQ(c.head, SuccessorHead::Pairwise);
  EXPECT_DOUBLE_EQ(c.window_word_height, 0.04);
  ModelLinkOptions lo;
  ModelLinkReport r;
  const auto linked = link_with_model(data, dir + "/run/best", dir + "/two", lo, &r);
  EXPECT_EQ(count_words(linked), count_words(data));
  EXPECT_EQ(r.windowed_tiles, 2u);
  // A no-successor bias beyond any probability ratio leaves every word alone.
  lo.decoding = {{"no_successor_bias", 1e6}};
  for (const auto& t : link_with_model(data, dir + "/run/best", dir + "/two", lo, &r))
    for (const auto& g : t.groups) EXPECT_EQ(g.size(), 1u);
  for (const auto& [key, bad] : std::vector<std::pair<std::string, double>>{
           {"no_successor_bias", -1}, {"no_successor_bias", 0}, {"reading_prior_above", 2.0}, {"reading_prior_next_line", -0.5}}) {
    lo.decoding = {{key, bad}};
    EXPECT_THROW(link_with_model(data, dir + "/run/best", dir + "/two", lo, &r), light::Error) << key;
  }
  // The factors of [1, 100]: one below and one above refused, one inside links.
  for (const char* factor : {"lettering_prior", "alignment_prior", "baseline_prior"}) {
    for (double bad : {0.9, 101.0}) {
      lo.decoding = {{factor, bad}};
      EXPECT_THROW(link_with_model(data, dir + "/run/best", dir + "/two", lo, &r), light::Error);
    }
    lo.decoding = {{factor, 2.0}};
    EXPECT_EQ(link_with_model(data, dir + "/run/best", dir + "/two", lo, &r).size(), data.size());
  }
  // Polygons read at a share of their height: out of [0.25, 4] refused; the output keeps them as given.
  for (double bad : {0.1, 5.0}) {
    lo.decoding = {{"polygon_height", bad}};
    EXPECT_THROW(link_with_model(data, dir + "/run/best", dir + "/two", lo, &r), light::Error);
  }
  lo.decoding = {{"polygon_height", 0.5}};
  const maptext::Dataset thin = link_with_model(data, dir + "/run/best", dir + "/two", lo, &r);
  ASSERT_EQ(thin.size(), data.size());
  std::vector<std::pair<double, double>> given, kept;
  for (const auto& g : data[0].groups)
    for (const auto& w : g) given.emplace_back(w.vertices[0].x, w.vertices[0].y);
  for (const auto& g : thin[0].groups)
    for (const auto& w : g) kept.emplace_back(w.vertices[0].x, w.vertices[0].y);
  std::sort(given.begin(), given.end());
  std::sort(kept.begin(), kept.end());
  EXPECT_EQ(kept, given);
  lo.decoding.clear();
  // Fine-tuning from it takes its sizes, head and windows from its config.json.
  train::TrainOptions f = o;
  f.out_dir = dir + "/fine";
  f.init = dir + "/run/best";
  f.head = "bilinear";
  f.window_word_height = 0;
  f.max_epochs = 1;
  train::train(f);
  const ModelConfig fc = read_model_config(dir + "/fine/best/config.json");
  EXPECT_EQ(fc.head, SuccessorHead::Pairwise);
  EXPECT_DOUBLE_EQ(fc.window_word_height, 0.04);
  EXPECT_FALSE(fc.pair_lettering);
  // --head pairwise-lettering widens a pairwise model's head; the model then links every word.
  train::TrainOptions l = f;
  l.out_dir = dir + "/letters";
  l.head = "pairwise-lettering";
  train::train(l);
  const ModelConfig lc = read_model_config(dir + "/letters/best/config.json");
  EXPECT_TRUE(lc.pair_lettering);
  EXPECT_EQ(lc.head, SuccessorHead::Pairwise);
  EXPECT_EQ(count_words(link_with_model(data, dir + "/letters/best", dir + "/two", lo, &r)), count_words(data));
  // --head-hidden widens the head's hidden units and never narrows them.
  train::TrainOptions narrow = l;
  narrow.out_dir = dir + "/narrow";
  narrow.init = dir + "/letters/best";
  narrow.head_hidden = lc.pair_hidden / 2;
  try {
    train::train(narrow);
    FAIL();
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("--head-hidden " + std::to_string(lc.pair_hidden / 2) + ": --init " + dir + "/letters/best's head is " +
                                         std::to_string(lc.pair_hidden) + " wide"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/narrow"));
  // A model without a pairwise head has none to widen.
  train::TrainOptions b = o;
  b.head = "bilinear";
  b.window_word_height = 0;
  b.max_epochs = 1;
  b.out_dir = dir + "/bilinear";
  train::train(b);
  b.out_dir = dir + "/bilinear-letters";
  b.init = dir + "/bilinear/best";
  b.head = "pairwise-lettering";
  try {
    train::train(b);
    FAIL();
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("--head pairwise-lettering: --init " + dir + "/bilinear/best has no pairwise head to widen"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/bilinear-letters")) << "a refused run leaves no folder";
  std::filesystem::remove_all(dir);
}

TEST(Train, ANonFiniteLossStopsTheRunAndKeepsItsLastCheckpoint) {
  const std::string dir = test::temp_dir();
  synth::SynthOptions so;
  so.width = so.height = 400;
  so.seed = 3;
  synth::synthesize(synth::Gazetteer(""), so, dir + "/two", 2, 1, false);
  train::TrainOptions o;
  o.train_json = o.val_json = dir + "/two/annotations.json";
  o.train_images = o.val_images = dir + "/two";
  o.out_dir = dir + "/run";
  o.tokenizer_dir = test::write_byte_level_tokenizer(dir + "/tok");
  o.config = "tiny";
  o.max_epochs = 3;
  o.batch_size = 1;  // 2 steps an epoch
  o.threads = 1;
  o.on_step = [](long step, double& loss) {
    if (step == 5) loss = NAN;  // the first step of epoch 3
  };
  try {
    train::train(o);
    FAIL() << "a NaN loss was trained on";
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("train: the loss is nan at epoch 3, step 1; the run stops"), std::string::npos) << e.what();
  }
  const auto state = nlohmann::json::parse(read_file(dir + "/run/last/state.json"));
  EXPECT_EQ(state["epoch"], 2);
  // The run resumes from its last good epoch.
  o.on_step = nullptr;
  o.resume = true;
  EXPECT_EQ(train::train(o).epochs, 3);
  std::filesystem::remove_all(dir);
}

TEST(Train, ResumingEqualsAnUninterruptedRun) {
  const std::string dir = test::temp_dir();
  synth::SynthOptions so;
  so.width = so.height = 400;
  synth::synthesize(synth::Gazetteer(""), so, dir + "/d", 3, 1, false);
  train::TrainOptions o;
  o.train_json = o.val_json = dir + "/d/annotations.json";
  o.train_images = o.val_images = dir + "/d";
  o.tokenizer_dir = test::write_byte_level_tokenizer(dir + "/tok");
  o.config = "tiny";  // with dropout: the random state must be restored too
  o.lr = 1e-3;
  o.threads = 1;
  o.max_epochs = 4;
  o.out_dir = dir + "/straight";
  train::train(o);
  o.out_dir = dir + "/interrupted";
  o.on_step = [](long step, double&) {  // 2 steps per epoch: killed after 5, in the middle of epoch 3
    if (step == 6) throw light::Error("killed");
  };
  EXPECT_THROW(train::train(o), light::Error);
  train::TrainOptions r;  // `light train --resume RUN/`: everything else from RUN/options.json
  r.threads = 1;
  r.max_epochs = -1;
  train::read_options(dir + "/interrupted", r);
  EXPECT_EQ(r.max_epochs, 4);
  EXPECT_EQ(r.config, "tiny");
  train::train(r);
  EXPECT_TRUE(read_file(dir + "/straight/last/model.safetensors") == read_file(dir + "/interrupted/last/model.safetensors"))
      << "the resumed run's weights differ from the uninterrupted run's";
  // (optimizer.pt itself is keyed by tensor addresses in LibTorch; equal weights after two resumed
  // epochs show its Adam moments came back.)
  EXPECT_EQ(read_file(dir + "/straight/last/state.json"), read_file(dir + "/interrupted/last/state.json"));
  auto strip = [](std::string log) {  // the same lines, apart from the timings
    std::string out, line;
    std::istringstream in(log);
    while (std::getline(in, line)) out += line.substr(0, line.find("\"seconds\"")) + "\n";
    return out;
  };
  EXPECT_EQ(strip(read_file(dir + "/straight/log.jsonl")), strip(read_file(dir + "/interrupted/log.jsonl")));
  // Stopped after epoch 2 on purpose (--stop-after-epoch), then resumed: the schedule spanned all 4.
  o.on_step = nullptr;
  o.out_dir = dir + "/stopped";
  o.stop_after_epoch = 2;
  train::train(o);
  const std::string two = strip(read_file(dir + "/stopped/log.jsonl")), four = strip(read_file(dir + "/straight/log.jsonl"));
  EXPECT_EQ(std::count(two.begin(), two.end(), '\n'), 2);
  EXPECT_EQ(two, four.substr(0, two.size()));
  train::TrainOptions s;
  s.threads = 1;
  s.max_epochs = -1;
  train::read_options(dir + "/stopped", s);
  train::train(s);
  EXPECT_TRUE(read_file(dir + "/straight/last/model.safetensors") == read_file(dir + "/stopped/last/model.safetensors"));
  EXPECT_THROW(train::read_options(dir + "/nothing", r), light::Error);
  r.out_dir = dir + "/nothing";
  std::filesystem::create_directories(r.out_dir);
  EXPECT_THROW(train::train(r), light::Error);  // resume with no last/
  std::filesystem::remove_all(dir);
}

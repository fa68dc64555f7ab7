// Model inputs against the parity fixtures (tests/data/parity: its README.md): safetensors IO, relative
// position buckets, PIL-exact image preprocessing.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "light/image/resize.h"
#include "light/io/safetensors.h"
#include "light/model/relative_position.h"
#include "light/error.h"
#include "test_util.h"

using namespace light;

namespace {
std::string fixture(const std::string& rel) {
  const std::string p = std::string(LIGHT_FIXTURES_DIR) + "/" + rel;
  if (!std::filesystem::exists(p)) ADD_FAILURE() << "missing fixture " << p << " (set -DLIGHT_FIXTURES_DIR)";
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

// ---------------------------------------------------------------------------------------------
// Tile -> model inputs
// ---------------------------------------------------------------------------------------------
#include <nlohmann/json.hpp>

#include "light/data/inputs.h"
#include "light/util/fs.h"

TEST(ModelInputs, LabelsSkipZeros) {
  EXPECT_EQ(data::group_id(0), 1);
  EXPECT_EQ(data::group_id(8), 9);
  EXPECT_EQ(data::group_id(9), 11);
  EXPECT_EQ(data::group_id(18), 21);
  EXPECT_EQ(data::word_label(0, 2), 10002);
  EXPECT_EQ(data::word_label(9, 3), 110003);
  EXPECT_EQ(data::word_label(18, 10), 2100010);
  EXPECT_EQ(data::split_label(2100010), (std::pair<int64_t, int64_t>{21, 10}));
  EXPECT_EQ(data::split_label(110003), (std::pair<int64_t, int64_t>{11, 3}));
  // Every id of a 20,000-group map is the next integer without a 0, counted one by one.
  int64_t n = 0;
  for (size_t g = 0; g < 20000; ++g) {
    do ++n;
    while (std::to_string(n).find('0') != std::string::npos);
    ASSERT_EQ(data::group_id(g), n) << g;
  }
}

// config.json lists each fixture tile's raw groups and, per word in model order, the stand-in
// tokenizer's ids: with those ids, the builder must reproduce inputs.safetensors exactly.
TEST(ModelInputs, ReproduceTheFixtureInputsExactly) {
  const auto config = nlohmann::json::parse(read_file(fixture("model/config.json")));
  const io::SafeTensorsFile expected(fixture("model/inputs.safetensors"));
  int tiles = 0;
  for (const auto& t : config["tiles"]) {
    const std::string name = t["name"];
    const std::string json = nlohmann::json::array({{{"image", t["image"]}, {"groups", t["annotation_groups"]}}}).dump();
    const auto tile = maptext::parse_maptext(json, "config.json", {maptext::Kind::GroundTruth})[0];
    const auto words = data::select_words(tile, t["width"], t["height"], {});
    const auto& expect_words = t["words_in_model_order"];
    ASSERT_EQ(words.size(), expect_words.size()) << name;
    std::map<std::string, std::vector<int64_t>> ids;
    for (size_t k = 0; k < words.size(); ++k) {
      EXPECT_EQ(words[k].text, expect_words[k]["text"].get<std::string>()) << name << " word " << k;
      EXPECT_EQ(words[k].label, expect_words[k]["label"].get<int64_t>()) << name << " word " << k;
      for (int c = 0; c < 4; ++c) EXPECT_EQ(words[k].bbox[c], expect_words[k]["scaled_bbox"][c].get<int64_t>());
      ids[expect_words[k]["text"]] = expect_words[k]["token_ids"].get<std::vector<int64_t>>();
    }
    const data::Tokenize tokenize = [&](const std::string& w) { return ids.at(w); };
    const data::TileInputs in = data::layout_tokens(words, tokenize, t["L"]);
    EXPECT_TRUE(in.beyond_window.empty());
    EXPECT_EQ(in.real_tokens, t["num_real_tokens"].get<int>());
    auto same_i64 = [&](const std::string& key, const std::vector<int64_t>& v) {
      const auto& e = expected.at(name + "." + key);
      ASSERT_EQ(e.numel(), static_cast<int64_t>(v.size())) << key;
      EXPECT_EQ(std::memcmp(e.data, v.data(), e.nbytes), 0) << name << "." << key;
    };
    same_i64("input_ids", in.input_ids);
    same_i64("bbox", in.bbox);
    same_i64("attention_mask", in.attention_mask);
    same_i64("labels", in.labels);
    same_i64("first_token_indices", in.first_token_indices);
    const auto& poly = expected.at(name + ".polygons");
    ASSERT_EQ(poly.numel(), static_cast<int64_t>(in.polygons.size()));
    EXPECT_EQ(std::memcmp(poly.data, in.polygons.data(), poly.nbytes), 0) << name << ".polygons";
    const auto pv = image::pixel_values(image::pil_resize_bilinear(image::read_rgb(fixture("model/" + t["image"].get<std::string>())), 224, 224));
    const auto& epv = expected.at(name + ".pixel_values");
    ASSERT_EQ(epv.numel(), static_cast<int64_t>(pv.size()));
    EXPECT_EQ(std::memcmp(epv.data, pv.data(), epv.nbytes), 0) << name << ".pixel_values";
    ++tiles;
  }
  EXPECT_EQ(tiles, 3);
}

TEST(ModelInputs, WordsBeyondTheWindowAreReportedAndWindowsCoverAll) {
  std::vector<data::ModelWord> words(10);
  for (size_t k = 0; k < words.size(); ++k) {
    words[k].text = "w" + std::to_string(k);
    words[k].label = data::word_label(0, static_cast<int64_t>(k) + 1);
    words[k].polygon.assign(32, 0.1f);
  }
  const data::Tokenize three = [](const std::string&) { return std::vector<int64_t>{5, 6, 7}; };
  // 12 positions: <s> + 10 word tokens + </s>: words 0-2 whole, word 3 cut after its first token.
  const auto in = data::layout_tokens(words, three, 12);
  EXPECT_EQ(in.words.size(), 4u);
  EXPECT_EQ(in.beyond_window, (std::vector<size_t>{4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(in.input_ids[11], data::kEos);
  EXPECT_EQ(in.first_token_indices[3], 10);
  // Windows of 12 tokens (10 for words) over 10 words of 3 tokens: every word is covered.
  const auto windows = data::plan_windows(std::vector<size_t>(10, 3), 12);
  ASSERT_GE(windows.size(), 3u);
  EXPECT_EQ(windows.front().begin, 0u);
  EXPECT_EQ(windows.back().end, 10u);
  for (size_t k = 1; k < windows.size(); ++k) {
    EXPECT_LT(windows[k].begin, windows[k - 1].end) << "windows overlap";
    EXPECT_GT(windows[k].begin, windows[k - 1].begin);
  }
  for (const auto& w : windows) {
    size_t tokens = 0;
    for (size_t i = w.begin; i < w.end; ++i) tokens += 3;
    EXPECT_LE(tokens, 10u);
  }
  EXPECT_EQ(data::plan_windows(std::vector<size_t>(5, 3), 1000).size(), 1u);
}

// ---------------------------------------------------------------------------------------------
// light prepare
// ---------------------------------------------------------------------------------------------
#include "light/data/prepare.h"
#include "light/data/synth/synth.h"


TEST(Prepare, WritesEveryTilesInputsAndReportsLongTiles) {
  const std::string dir = test::temp_dir();
  synth::SynthOptions so;
  so.width = so.height = 600;
  const synth::Gazetteer names("");
  const auto data = synth::synthesize(names, so, dir + "/syn", 2, 1, false);
  const auto tok = text::BpeTokenizer::from_folder(test::write_byte_level_tokenizer(dir + "/tok"));
  data::PrepareOptions opt;
  opt.max_length = 1000;
  auto report = data::prepare(data, dir + "/syn", tok, dir + "/in.safetensors", opt);
  EXPECT_EQ(report.tiles_written, 2u);
  const io::SafeTensorsFile f(dir + "/in.safetensors");
  for (int t = 0; t < 2; ++t) {
    const std::string p = std::to_string(t) + ".";
    ASSERT_EQ(f.at(p + "input_ids").shape, (std::vector<int64_t>{1000}));
    ASSERT_EQ(f.at(p + "polygons").shape, (std::vector<int64_t>{1000, 32}));
    ASSERT_EQ(f.at(p + "pixel_values").shape, (std::vector<int64_t>{3, 224, 224}));
    // Every kept word: its first token carries its label; its byte tokens spell " " + its text.
    const auto* ids = f.at(p + "input_ids").as<int64_t>();
    const auto* labels = f.at(p + "labels").as<int64_t>();
    const auto* first = f.at(p + "first_token_indices").as<int64_t>();
    const auto& sources = f.at(p + "word_sources");
    std::vector<const maptext::Word*> words;
    for (const auto& g : data[t].groups)
      for (const auto& w : g) words.push_back(&w);
    EXPECT_EQ(ids[0], 0);
    for (int64_t k = 0; k < sources.numel(); ++k) {
      ASSERT_GE(first[k], 1);
      EXPECT_GT(labels[first[k]], 0);
      EXPECT_EQ(ids[first[k]], 3 + ' ');  // the prefix space, as a byte token
      const std::string& text = *words[sources.as<int64_t>()[k]]->text;
      EXPECT_EQ(ids[first[k] + 1], 3 + static_cast<unsigned char>(text[0]));
    }
  }
  // A window too short for the tile: reported, never silent.
  opt.max_length = 40;
  report = data::prepare(data, dir + "/syn", tok, dir + "/short.safetensors", opt);
  ASSERT_FALSE(report.notes.empty());
  EXPECT_NE(report.notes[0].find("do not fit in 40 tokens"), std::string::npos) << report.notes[0];
  // A missing image names the tile.
  maptext::Dataset missing{{"nowhere.png", data[0].groups}};
  EXPECT_THROW(data::prepare(missing, dir + "/syn", tok, dir + "/x.safetensors", opt), light::Error);
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.safetensors"));
  std::filesystem::remove_all(dir);
}

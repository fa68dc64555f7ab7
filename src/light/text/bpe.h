// Byte-level BPE (GPT-2 / RoBERTa / LayoutLMv3), loading the files users have: a Hugging Face
// tokenizer folder with vocab.json + merges.txt (GPT-2's encoder.json + vocab.bpe are the same
// formats) or tokenizer.json. Pre-tokenisation is GPT-2's rule
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// over Unicode letter/number/space classes (utf8proc), then bytes map to printable characters and
// merge by rank.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace light::text {

// RoBERTa / LayoutLMv3's special tokens <s>, <pad>, </s>; the defaults are their usual ids.
struct SpecialIds {
  int64_t bos = 0, pad = 1, eos = 2;
};

class BpeTokenizer {
 public:
  // A folder holding tokenizer.json, or vocab.json + merges.txt, or encoder.json + vocab.bpe.
  static BpeTokenizer from_folder(const std::string& dir);
  static BpeTokenizer from_vocab_merges(const std::string& vocab_json, const std::string& merges_txt);
  static BpeTokenizer from_tokenizer_json(const std::string& path);
  // The same from the files' text (`vocab_json`, `merges_txt`, `path` name them in errors).
  static BpeTokenizer from_vocab_merges_text(std::string_view vocab_text, std::string_view merges_text,
                                             const std::string& vocab_json, const std::string& merges_txt);
  static BpeTokenizer from_tokenizer_json_text(std::string_view text, const std::string& path);
  // The byte-level vocabulary write_byte_level writes, in memory.
  static BpeTokenizer byte_level();

  // Pre-tokenises and BPE-encodes `text` as is (no special tokens, no added space).
  std::vector<int64_t> encode(const std::string& text) const;
  // One word as LayoutLMv3 encodes words (add_prefix_space): encode(" " + word).
  std::vector<int64_t> encode_word(const std::string& word) const { return encode(" " + word); }
  // GPT-2 pre-tokenisation of UTF-8 text.
  static std::vector<std::string> pre_tokenize(const std::string& text);
  std::string decode(const std::vector<int64_t>& ids) const;

  // Writes a byte-level vocabulary (<s> <pad> </s>, the 256 bytes, <mask>; no merges) as vocab.json +
  // merges.txt into `dir` (created); returns `dir`. `light train --tokenizer bytes` uses it.
  static std::string write_byte_level(const std::string& dir);
  // GPT-2's printable stand-ins for the 256 byte values (UTF-8): bytes_to_unicode.
  static std::array<std::string, 256> byte_symbols();

  // Id of a token (e.g. "<s>", "<mask>"); -1 if absent.
  int64_t token_id(const std::string& token) const;
  // The ids of <s>, <pad> and </s> in this vocabulary; each one it lacks keeps its default.
  SpecialIds special_ids() const;
  size_t vocab_size() const { return vocab_.size(); }
  // The largest token id (+1 is the embedding table size a model needs).
  int64_t max_id() const;
  // How many of its tokens have an id of at least `limit`.
  size_t ids_from(int64_t limit) const;
  // Forgets the per-piece cache (benchmarks measure cold tokenisation with it).
  void clear_cache() const;

 private:
  std::unordered_map<std::string, int64_t> vocab_;
  std::unordered_map<int64_t, std::string> id_to_token_;
  std::unordered_map<std::string, int> ranks_;  // "a b" -> merge rank
  std::array<std::string, 256> byte_to_char_;   // UTF-8 of each byte's printable stand-in
  std::unordered_map<std::string, uint8_t> char_to_byte_;
  mutable std::shared_ptr<std::mutex> cache_mutex_ = std::make_shared<std::mutex>();
  mutable std::shared_ptr<std::unordered_map<std::string, std::vector<int64_t>>> cache_ =
      std::make_shared<std::unordered_map<std::string, std::vector<int64_t>>>();

  BpeTokenizer();
  std::vector<int64_t> bpe(const std::string& piece) const;
};

}  // namespace light::text

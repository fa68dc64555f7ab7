#include "light/text/bpe.h"

#include <utf8proc.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/json.h"
#include "light/util/unicode.h"
#include "light/util/utf8.h"

namespace light::text {

namespace {

bool is_number(char32_t c) {
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(c))) {
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO: return true;
    default: return false;
  }
}
// Unicode White_Space.
bool is_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}
bool is_other(char32_t c) { return !is_space(c) && !is_letter(c) && !is_number(c); }

}  // namespace

std::array<std::string, 256> BpeTokenizer::byte_symbols() {
  // Printable bytes stand for themselves; the others map to U+0100 onwards, in byte order.
  std::array<std::string, 256> out;
  std::array<bool, 256> direct{};
  for (int b = '!'; b <= '~'; ++b) direct[b] = true;
  for (int b = 0xA1; b <= 0xAC; ++b) direct[b] = true;
  for (int b = 0xAE; b <= 0xFF; ++b) direct[b] = true;
  int n = 0;
  for (int b = 0; b < 256; ++b)
    out[b] = utf8_encode(std::u32string(1, direct[b] ? static_cast<char32_t>(b) : static_cast<char32_t>(256 + n++)));
  return out;
}

BpeTokenizer::BpeTokenizer() : byte_to_char_(byte_symbols()) {
  for (int b = 0; b < 256; ++b) char_to_byte_[byte_to_char_[b]] = static_cast<uint8_t>(b);
}

std::vector<std::string> BpeTokenizer::pre_tokenize(const std::string& text) {
  const std::u32string s = utf8_decode(text);
  std::vector<std::string> out;
  const size_t n = s.size();
  size_t i = 0;
  auto run = [&](size_t j, bool (*cls)(char32_t)) {
    while (j < n && cls(s[j])) ++j;
    return j;
  };
  while (i < n) {
    size_t end = i;
    // 's 't 're 've 'm 'll 'd
    if (s[i] == U'\'' && i + 1 < n) {
      const char32_t a = s[i + 1], b = i + 2 < n ? s[i + 2] : 0;
      if (a == U's' || a == U't' || a == U'm' || a == U'd') end = i + 2;
      else if ((a == U'r' && b == U'e') || (a == U'v' && b == U'e') || (a == U'l' && b == U'l')) end = i + 3;
    }
    if (end == i) {
      const size_t start = (s[i] == U' ' && i + 1 < n) ? i + 1 : i;  // optional leading space
      for (bool (*cls)(char32_t) : {is_letter, is_number, is_other}) {
        if (start < n && cls(s[start])) {
          end = run(start, cls);
          break;
        }
        if (start != i && cls(s[i])) {  // without the optional space (only for non-space classes)
          end = run(i, cls);
          break;
        }
      }
    }
    if (end == i) {
      // \s+(?!\S) then \s+: a whitespace run, leaving its last character to prefix a following word.
      const size_t j = run(i, is_space);
      end = (j < n && j - i >= 2) ? j - 1 : j;
      if (end == i) end = i + 1;  // not reached for valid classes; guards progress
    }
    std::u32string piece = s.substr(i, end - i);
    out.push_back(utf8_encode(piece));
    i = end;
  }
  return out;
}

std::vector<int64_t> BpeTokenizer::bpe(const std::string& piece) const {
  {
    std::lock_guard<std::mutex> lock(*cache_mutex_);
    auto it = cache_->find(piece);
    if (it != cache_->end()) return it->second;
  }
  std::vector<std::string> word;
  for (unsigned char c : piece) word.push_back(byte_to_char_[c]);
  while (word.size() > 1) {
    int best = INT_MAX;
    size_t at = 0;
    for (size_t k = 0; k + 1 < word.size(); ++k) {
      auto r = ranks_.find(word[k] + " " + word[k + 1]);
      if (r != ranks_.end() && r->second < best) best = r->second, at = k;
    }
    if (best == INT_MAX) break;
    const std::string first = word[at], second = word[at + 1];
    std::vector<std::string> merged;
    for (size_t k = 0; k < word.size();) {
      if (k + 1 < word.size() && word[k] == first && word[k + 1] == second) {
        merged.push_back(first + second);
        k += 2;
      } else {
        merged.push_back(word[k++]);
      }
    }
    word.swap(merged);
  }
  std::vector<int64_t> ids;
  for (const auto& t : word) {
    auto v = vocab_.find(t);
    if (v != vocab_.end()) {
      ids.push_back(v->second);
    } else {  // not in the vocabulary (a damaged file): fall back to <unk> if there is one
      const int64_t unk = token_id("<unk>");
      if (unk >= 0) ids.push_back(unk);
    }
  }
  std::lock_guard<std::mutex> lock(*cache_mutex_);
  if (cache_->size() < 200000) (*cache_)[piece] = ids;
  return ids;
}

std::vector<int64_t> BpeTokenizer::encode(const std::string& text) const {
  std::vector<int64_t> ids;
  for (const auto& piece : pre_tokenize(text)) {
    const auto p = bpe(piece);
    ids.insert(ids.end(), p.begin(), p.end());
  }
  return ids;
}

std::string BpeTokenizer::decode(const std::vector<int64_t>& ids) const {
  std::string out;
  for (int64_t id : ids) {
    auto t = id_to_token_.find(id);
    if (t == id_to_token_.end()) continue;
    for (char32_t c : utf8_decode(t->second)) {
      auto b = char_to_byte_.find(utf8_encode(std::u32string(1, c)));
      if (b != char_to_byte_.end()) out.push_back(static_cast<char>(b->second));
    }
  }
  return out;
}

int64_t BpeTokenizer::max_id() const {
  int64_t m = -1;
  for (const auto& kv : vocab_) m = std::max(m, kv.second);
  return m;
}

size_t BpeTokenizer::ids_from(int64_t limit) const {
  size_t n = 0;
  for (const auto& kv : vocab_) n += kv.second >= limit;
  return n;
}

void BpeTokenizer::clear_cache() const {
  std::lock_guard<std::mutex> lock(*cache_mutex_);
  cache_->clear();
}

int64_t BpeTokenizer::token_id(const std::string& token) const {
  auto it = vocab_.find(token);
  return it == vocab_.end() ? -1 : it->second;
}

SpecialIds BpeTokenizer::special_ids() const {
  SpecialIds ids;
  if (token_id("<s>") >= 0) ids.bos = token_id("<s>");
  if (token_id("<pad>") >= 0) ids.pad = token_id("<pad>");
  if (token_id("</s>") >= 0) ids.eos = token_id("</s>");
  return ids;
}

namespace {
// Token ids index embedding tables: each must be in [0, 2^24).
constexpr int64_t kMaxTokenId = (int64_t{1} << 24) - 1;

void load_vocab(const nlohmann::json& v, const std::string& where, std::unordered_map<std::string, int64_t>& vocab,
                std::unordered_map<int64_t, std::string>& ids) {
  if (!v.is_object()) throw Error(where + ": the vocabulary must be a JSON object {token: id}");
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!it->is_number_integer()) throw Error(where + ": token \"" + it.key() + "\": id must be an integer, got " + it->dump().substr(0, 60));
    const int64_t id = it->is_number_unsigned() && it->get<uint64_t>() > static_cast<uint64_t>(kMaxTokenId) ? -1 : it->get<int64_t>();
    if (id < 0 || id > kMaxTokenId)
      throw Error(where + ": token \"" + it.key() + "\": id must be 0 to " + std::to_string(kMaxTokenId) + ", got " + it->dump());
    vocab[it.key()] = id;
    ids[id] = it.key();
  }
  if (vocab.empty()) throw Error(where + ": empty vocabulary");
}
}  // namespace

BpeTokenizer BpeTokenizer::from_vocab_merges(const std::string& vocab_json, const std::string& merges_txt) {
  const std::string vocab_text = read_file(vocab_json);
  return from_vocab_merges_text(vocab_text, read_file(merges_txt), vocab_json, merges_txt);
}

BpeTokenizer BpeTokenizer::from_vocab_merges_text(std::string_view vocab_text, std::string_view merges_text,
                                                  const std::string& vocab_json, const std::string& merges_txt) {
  BpeTokenizer t;
  load_vocab(parse_json(vocab_text, vocab_json), vocab_json, t.vocab_, t.id_to_token_);
  size_t lineno = 0;
  int rank = 0;
  bool header = false;
  size_t pos = 0;
  while (pos < merges_text.size()) {
    size_t end = merges_text.find('\n', pos);
    if (end == std::string_view::npos) end = merges_text.size();
    std::string line(merges_text.substr(pos, end - pos));
    pos = end + 1;
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (lineno == 1 && line.rfind("#version", 0) == 0) header = true;
    if (line.empty() || (lineno == 1 && header)) continue;
    const auto sp = line.find(' ');
    if (sp == std::string::npos || sp == 0 || sp + 1 >= line.size() || line.find(' ', sp + 1) != std::string::npos)
      throw Error(merges_txt + ": line " + std::to_string(lineno) + ": expected two symbols separated by one space, got \"" +
                  line.substr(0, 60) + "\"");
    t.ranks_.emplace(line, rank++);
  }
  // A byte-level vocabulary has no merges; its file still says "#version" (write_byte_level).
  if (rank == 0 && !header) throw Error(merges_txt + ": no merges");
  return t;
}

namespace {
std::string byte_level_vocab() {
  nlohmann::json vocab = {{"<s>", 0}, {"<pad>", 1}, {"</s>", 2}};
  const auto symbols = BpeTokenizer::byte_symbols();
  for (int b = 0; b < 256; ++b) vocab[symbols[b]] = 3 + b;
  vocab["<mask>"] = 259;  // masked language modelling (light pretrain)
  return vocab.dump() + "\n";
}
constexpr const char* kByteLevelMerges = "#version: 0.2\n";
}  // namespace

BpeTokenizer BpeTokenizer::byte_level() {
  return from_vocab_merges_text(byte_level_vocab(), kByteLevelMerges, "byte-level vocab.json", "byte-level merges.txt");
}

std::string BpeTokenizer::write_byte_level(const std::string& dir) {
  std::filesystem::create_directories(dir);
  write_file_atomic(dir + "/vocab.json", byte_level_vocab());
  write_file_atomic(dir + "/merges.txt", kByteLevelMerges);
  return dir;
}

BpeTokenizer BpeTokenizer::from_tokenizer_json(const std::string& path) { return from_tokenizer_json_text(read_file(path), path); }

BpeTokenizer BpeTokenizer::from_tokenizer_json_text(std::string_view text, const std::string& path) {
  BpeTokenizer t;
  const nlohmann::json j = parse_json(text, path);
  if (!j.is_object() || !j.contains("model") || !j["model"].is_object()) throw Error(path + ": missing \"model\"");
  const auto& m = j["model"];
  if (m.contains("type") && m["type"] != "BPE") throw Error(path + ": \"model.type\" is " + m["type"].dump().substr(0, 60) + ", expected \"BPE\"");
  if (!m.contains("vocab") || !m.contains("merges")) throw Error(path + ": \"model\" needs \"vocab\" and \"merges\"");
  load_vocab(m["vocab"], path + ": model.vocab", t.vocab_, t.id_to_token_);
  if (!m["merges"].is_array()) throw Error(path + ": model.merges: expected a list");
  int rank = 0;
  for (const auto& merge : m["merges"]) {
    std::string key;
    if (merge.is_string()) key = merge.get<std::string>();
    else if (merge.is_array() && merge.size() == 2 && merge[0].is_string() && merge[1].is_string())
      key = merge[0].get<std::string>() + " " + merge[1].get<std::string>();
    else throw Error(path + ": model.merges[" + std::to_string(rank) + "]: expected \"a b\" or [\"a\", \"b\"]");
    t.ranks_.emplace(key, rank++);
  }
  if (j.contains("added_tokens")) {
    if (!j["added_tokens"].is_array()) throw Error(path + ": added_tokens: expected a list");
    size_t k = 0;
    for (const auto& a : j["added_tokens"]) {
      const std::string at = path + ": added_tokens[" + std::to_string(k++) + "]";
      if (!a.is_object() || !a.contains("content") || !a.contains("id") || !a["content"].is_string())
        throw Error(at + ": expected {\"content\": \"...\", \"id\": N}");
      load_vocab(nlohmann::json{{a["content"].get<std::string>(), a["id"]}}, at, t.vocab_, t.id_to_token_);
    }
  }
  return t;
}

BpeTokenizer BpeTokenizer::from_folder(const std::string& dir) {
  namespace fs = std::filesystem;
  const fs::path d(dir);
  if (fs::exists(d / "tokenizer.json")) return from_tokenizer_json((d / "tokenizer.json").string());
  if (fs::exists(d / "vocab.json") && fs::exists(d / "merges.txt"))
    return from_vocab_merges((d / "vocab.json").string(), (d / "merges.txt").string());
  if (fs::exists(d / "encoder.json") && fs::exists(d / "vocab.bpe"))
    return from_vocab_merges((d / "encoder.json").string(), (d / "vocab.bpe").string());
  throw Error(dir + ": no tokenizer found (expected tokenizer.json, or vocab.json + merges.txt)");
}

}  // namespace light::text

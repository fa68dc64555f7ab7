#include "light/text/ctc_dictionary.h"

#include <algorithm>

#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/utf8.h"

namespace light::text {

Dictionary::Dictionary(const std::string& keys_path, int classes) {
  const std::string text = read_file(keys_path);
  texts_.push_back("");  // the CTC blank
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!is_valid_utf8(line))
      throw Error(keys_path + ": line " + std::to_string(texts_.size()) + " (\"" + shown_bytes(line) +
                  "\"): not UTF-8; a recogniser's characters are one a line in UTF-8 (save the file so)");
    texts_.push_back(line);
    start = end + 1;
  }
  texts_.push_back(" ");
  if (classes != static_cast<int>(texts_.size()))
    throw Error(keys_path + ": " + std::to_string(texts_.size() - 2) + " characters, but the recogniser has " + std::to_string(classes) +
                " classes (expected characters + blank + space)");
  index();
}

void Dictionary::index() {
  ids_.clear();
  for (size_t k = 1; k + 1 < texts_.size(); ++k) ids_.emplace(utf8_decode(texts_[k]), static_cast<int>(k));  // the first of twins
  ids_[U" "] = space();
}

Dictionary Dictionary::with_characters(const std::vector<std::string>& more) const {
  Dictionary out;
  out.texts_.assign(texts_.begin(), texts_.end() - 1);
  out.texts_.insert(out.texts_.end(), more.begin(), more.end());
  out.texts_.push_back(" ");
  out.index();
  return out;
}

std::string Dictionary::keys_text() const {
  std::string out;
  for (size_t k = 1; k + 1 < texts_.size(); ++k) out += texts_[k] + "\n";
  return out;
}

namespace {
bool latin(char32_t c) {
  if (c >= 0x20 && c <= 0x7E) return true;                                   // Basic Latin
  if (c >= 0xA0 && c <= 0xFF) return true;                                   // Latin-1 Supplement
  if (c >= 0x100 && c <= 0x24F) return true;                                 // Latin Extended-A and -B
  if (c >= 0x1E00 && c <= 0x1EFF) return true;                               // Latin Extended Additional
  if (c == 0x2018 || c == 0x2019 || c == 0x201C || c == 0x201D) return true;  // quotes
  if (c == 0x2013 || c == 0x2014 || c == 0x2022 || c == 0x2026) return true;  // dashes, bullet, ellipsis
  return false;
}
}  // namespace

std::vector<bool> Dictionary::allowed(const std::string& alphabet) const {
  std::vector<bool> ok(texts_.size(), true);
  if (alphabet == "all") return ok;
  if (alphabet != "latin") throw Error("--alphabet: expected latin or all, got \"" + alphabet + "\"");
  for (size_t k = 1; k < texts_.size(); ++k) {
    const std::u32string u = utf8_decode(texts_[k]);
    ok[k] = !u.empty() && std::all_of(u.begin(), u.end(), latin);
  }
  return ok;
}

std::optional<std::vector<int>> Dictionary::encode(const std::string& text) const {
  std::vector<int> ids;
  for (const char32_t c : utf8_decode(text)) {
    const auto it = ids_.find(std::u32string(1, c));
    if (it == ids_.end()) return std::nullopt;
    ids.push_back(it->second);
  }
  return ids;
}

}  // namespace light::text

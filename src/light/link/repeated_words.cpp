#include "light/link/repeated_words.h"

#include <utf8proc.h>

#include <array>
#include <string_view>

#include "light/util/unicode.h"
#include "light/util/utf8.h"

namespace light::link {

namespace {

// Articles, prepositions and conjunctions that names of several languages repeat.
constexpr std::array<std::string_view, 30> kSmallWords = {"a",   "al",  "and", "at",  "au",  "aux", "da",  "de", "del", "della",
                                                          "den", "der", "des", "di",  "do",  "dos", "du",  "e",  "el",  "en",
                                                          "et",  "la",  "las", "le",  "les", "los", "of",  "on", "the", "y"};

// Cuts phrase [from, to) where needed, appending the parts to `out`.
void split_into(const std::vector<int>& phrase, size_t from, size_t to, const std::vector<std::string>& keys,
                const std::function<double(int, int)>& link, std::vector<std::vector<int>>& out) {
  for (size_t i = from; i < to; ++i) {
    const std::string& key = keys[static_cast<size_t>(phrase[i])];
    if (key.empty()) continue;
    for (size_t j = i + 2; j < to; ++j) {
      if (keys[static_cast<size_t>(phrase[j])] != key) continue;
      size_t cut = i;  // the link phrase[cut] -> phrase[cut + 1], weakest between the two
      for (size_t k = i + 1; k < j; ++k)
        if (link(phrase[k], phrase[k + 1]) < link(phrase[cut], phrase[cut + 1])) cut = k;
      split_into(phrase, from, cut + 1, keys, link, out);
      split_into(phrase, cut + 1, to, keys, link, out);
      return;
    }
  }
  out.emplace_back(phrase.begin() + static_cast<long>(from), phrase.begin() + static_cast<long>(to));
}

}  // namespace

std::string repeat_key(const std::string& text) {
  std::u32string kept;
  for (const char32_t c : utf8_decode(text)) {
    const auto cp = static_cast<utf8proc_int32_t>(c);
    if (is_letter(c)) kept.push_back(static_cast<char32_t>(utf8proc_tolower(cp)));
    else if (utf8proc_category(cp) == UTF8PROC_CATEGORY_ND) kept.push_back(c);
  }
  if (kept.size() < 2) return "";
  std::string key = utf8_encode(kept);
  for (const std::string_view small : kSmallWords)
    if (key == small) return "";
  return key;
}

std::vector<std::vector<int>> split_repeated_words(const std::vector<std::vector<int>>& phrases, const std::vector<std::string>& keys,
                                                   const std::function<double(int, int)>& link) {
  std::vector<std::vector<int>> out;
  out.reserve(phrases.size());
  for (const auto& phrase : phrases) split_into(phrase, 0, phrase.size(), keys, link, out);
  return out;
}

}  // namespace light::link

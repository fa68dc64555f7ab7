#include "light/search/normalize.h"

#include <utf8proc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "light/error.h"

namespace light::search {

const std::vector<Abbreviation>& abbreviations() {
  // Sorted by short form (looked up by binary search). The common abbreviations of place names on
  // North American and British maps; "st" is read as "saint" (a city map's "Street" is not).
  static const std::vector<Abbreviation> table = {
      {"ave", "avenue"},   {"bk", "brook"},     {"br", "branch"},   {"ck", "creek"},     {"co", "county"},
      {"cr", "creek"},     {"crk", "creek"},    {"e", "east"},      {"ft", "fort"},      {"hts", "heights"},
      {"is", "island"},    {"isl", "island"},   {"jct", "junction"}, {"l", "lake"},      {"lk", "lake"},
      {"mt", "mount"},     {"mtn", "mountain"}, {"mtns", "mountains"}, {"mts", "mountains"}, {"n", "north"},
      {"pk", "peak"},      {"pt", "point"},     {"r", "river"},     {"riv", "river"},    {"rr", "railroad"},
      {"rwy", "railway"},  {"ry", "railway"},   {"s", "south"},     {"spgs", "springs"}, {"spr", "spring"},
      {"sprs", "springs"}, {"st", "saint"},     {"sta", "station"}, {"ste", "sainte"},   {"ter", "territory"},
      {"twp", "township"}, {"w", "west"},
  };
  return table;
}

namespace {

const char* expansion(const std::string& word) {
  const auto& t = abbreviations();
  const auto it = std::lower_bound(t.begin(), t.end(), word, [](const Abbreviation& a, const std::string& w) { return w > a.short_form; });
  return it != t.end() && word == it->short_form ? it->word : nullptr;
}

void push_word(std::vector<std::string>& out, const std::string& w) {
  if (w.empty()) return;
  const char* e = expansion(w);
  out.emplace_back(e ? e : w);
}

// A chunk of letters, digits and periods (apostrophes already dropped).
void push_chunk(std::vector<std::string>& out, const std::string& chunk) {
  if (chunk.find('.') == std::string::npos) return push_word(out, chunk);
  std::string letters;
  for (char c : chunk)
    if (c != '.') letters.push_back(c);
  if (const char* e = expansion(letters)) return void(out.emplace_back(e));
  size_t start = 0;
  while (start <= chunk.size()) {
    const size_t dot = std::min(chunk.find('.', start), chunk.size());
    push_word(out, chunk.substr(start, dot - start));
    start = dot + 1;
  }
}

}  // namespace

std::vector<std::string> normalized_words(const std::string& utf8) {
  utf8proc_uint8_t* mapped = nullptr;
  const auto options = static_cast<utf8proc_option_t>(UTF8PROC_COMPAT | UTF8PROC_DECOMPOSE | UTF8PROC_CASEFOLD | UTF8PROC_STRIPMARK |
                                                      UTF8PROC_IGNORE);
  const utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(utf8.data()),
                                          static_cast<utf8proc_ssize_t>(utf8.size()), &mapped, options);
  if (n < 0) throw Error(std::string("search: text is not valid UTF-8 (") + utf8proc_errmsg(n) + ")");
  const std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> hold(mapped, &std::free);
  std::vector<std::string> out;
  std::string chunk;
  utf8proc_ssize_t at = 0;
  while (at < n) {
    utf8proc_int32_t c = 0;
    const utf8proc_ssize_t len = utf8proc_iterate(mapped + at, n - at, &c);
    if (len <= 0) break;
    const utf8proc_category_t cat = utf8proc_category(c);
    const bool letter = cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO;
    const bool digit = cat >= UTF8PROC_CATEGORY_ND && cat <= UTF8PROC_CATEGORY_NO;
    if (letter || digit) {
      chunk.append(reinterpret_cast<const char*>(mapped + at), static_cast<size_t>(len));
    } else if (c == '.') {
      chunk.push_back('.');
    } else if (c == '\'' || c == 0x2019 || c == 0x2018 || c == 0x02BC) {
      // an apostrophe joins the word's two halves
    } else {
      push_chunk(out, chunk);
      chunk.clear();
      if (c == '&') out.emplace_back("and");
    }
    at += len;
  }
  push_chunk(out, chunk);
  return out;
}

std::string normalize(const std::string& utf8) {
  std::string out;
  for (const std::string& w : normalized_words(utf8)) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace light::search

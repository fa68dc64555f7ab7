#include "light/util/unicode.h"

#include <utf8proc.h>

#include "light/util/utf8.h"

namespace light {

size_t code_point_count(const std::string& utf8) { return utf8_decode(utf8).size(); }

bool is_letter(char32_t c) {
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(c))) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
      return true;
    default:
      return false;
  }
}

bool is_capital(char32_t c) { return utf8proc_category(static_cast<utf8proc_int32_t>(c)) == UTF8PROC_CATEGORY_LU; }

bool is_small_letter(char32_t c) { return utf8proc_category(static_cast<utf8proc_int32_t>(c)) == UTF8PROC_CATEGORY_LL; }

size_t letter_count(const std::string& utf8) {
  size_t n = 0;
  for (char32_t c : utf8_decode(utf8)) n += is_letter(c) ? 1 : 0;
  return n;
}

bool is_upper(const std::string& utf8) {
  bool cased = false;
  for (char32_t c : utf8_decode(utf8)) {
    const auto cat = utf8proc_category(static_cast<utf8proc_int32_t>(c));
    if (cat == UTF8PROC_CATEGORY_LL || cat == UTF8PROC_CATEGORY_LT) return false;
    if (cat == UTF8PROC_CATEGORY_LU) cased = true;
  }
  return cased;
}

std::string to_upper(const std::string& utf8) {
  std::u32string u = utf8_decode(utf8);
  for (char32_t& c : u) c = static_cast<char32_t>(utf8proc_toupper(static_cast<utf8proc_int32_t>(c)));
  return utf8_encode(u);
}

}  // namespace light

#include "light/text/letter_case.h"

#include "light/util/unicode.h"
#include "light/util/utf8.h"

namespace light::text {

LetterCase letter_case(const std::string& text) {
  if (letter_count(text) == 0) return LetterCase::None;
  if (is_upper(text)) return letter_count(text) > 1 ? LetterCase::Upper : LetterCase::Title;
  // The first letter's case decides between Title and Lower.
  for (const char32_t c : utf8_decode(text)) {
    const std::string one = utf8_encode(std::u32string(1, c));
    if (letter_count(one) == 0) continue;
    return is_upper(one) ? LetterCase::Title : LetterCase::Lower;
  }
  return LetterCase::None;
}

}  // namespace light::text

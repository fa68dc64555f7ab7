// Python's str character classes (isalpha, isupper) over UTF-8, via utf8proc's Unicode tables.
#pragma once
#include <cstddef>
#include <string>

namespace light {

// Number of Unicode code points (Python's len(str)).
size_t code_point_count(const std::string& utf8);

// Number of letters (Python's sum(ch.isalpha() for ch in s): general categories Lu Ll Lt Lm Lo).
size_t letter_count(const std::string& utf8);

// One code point: a letter (as letter_count counts), a capital (general category Lu), a small letter
// (Ll; a letter of a script without case, such as Han, is neither).
bool is_letter(char32_t c);
bool is_capital(char32_t c);
bool is_small_letter(char32_t c);

// Python's str.isupper(): at least one cased character and no lowercase or titlecase one.
bool is_upper(const std::string& utf8);

// Each code point in capitals (utf8proc's simple case mapping: "l'Hôtel" -> "L'HÔTEL"; "ß" stays).
std::string to_upper(const std::string& utf8);

}  // namespace light

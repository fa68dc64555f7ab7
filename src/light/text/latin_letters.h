// The letters a map in a Latin script prints beyond Basic Latin: Latin-1's and Latin Extended-A's
// letters and the long s, each with the plain letter whose shape it starts from (ö: o, æ: a, ß: s,
// ſ: f). A recogniser given new classes for them starts each from its plain letter's row
// (train::RecognizerTrainOptions::add_characters).
#pragma once
#include <string>
#include <vector>

namespace light::text {

// Every such letter, in code point order (À ... ž, ſ).
const std::vector<char32_t>& latin_letters();

// The plain letter (a-z, A-Z) a letter is drawn on; 0 for one that is not in latin_letters().
char32_t plain_letter(char32_t letter);

}  // namespace light::text

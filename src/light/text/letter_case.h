// A word's case as lettering shows it: capitals, an initial capital, small letters, or none (figures).
// The decoder's lettering prior (link/lettering.h) and the pairwise head's lettering features
// (model/light.h) read it.
#pragma once
#include <string>

namespace light::text {

enum class LetterCase { None = 0, Upper, Title, Lower };  // None: no letters (figures)

// "MISSOURI" Upper, "Lodge" and "A" Title, "de" Lower, "1906" None.
LetterCase letter_case(const std::string& text);

}  // namespace light::text

// The form in which `light search` compares place names: what a reader would call the same name
// written two ways ("Lodge Pole Cr." and "LODGE POLE CREEK", "Mt. Elbert" and "Mount Elbert",
// "Bogotá" and "BOGOTA") normalises to one string, so that an edit distance on it counts only the
// differences that are really there (a spotter's misread letters).
#pragma once
#include <string>
#include <vector>

namespace light::search {

// A short form and the word it stands for on maps ("cr" -> "creek"), keys as normalize() leaves them.
struct Abbreviation {
  const char* short_form;
  const char* word;
};

// The abbreviations normalize() expands (docs/search.md lists them). Taken as whole words only, with
// or without their periods ("Cr.", "Cr", "CR."), both in phrases and in queries.
const std::vector<Abbreviation>& abbreviations();

// The text's words: compatibility decomposition, case folding and accents stripped (utf8proc: "Ä" and
// "ä" -> "a", "ß" -> "ss", "ﬁ" -> "fi"); "&" read as the word "and"; apostrophes dropped ("O'Neill" ->
// "oneill"); any other character that is not a letter or a digit breaks words. A chunk with periods
// whose letters form an abbreviation is that abbreviation ("R.R." -> "railroad"); otherwise periods
// break words too ("St.Louis" -> "saint", "louis"). Each abbreviation is replaced by its word.
std::vector<std::string> normalized_words(const std::string& utf8);

// normalized_words joined by single spaces ("Lodge Pole Cr." -> "lodge pole creek"). Invalid UTF-8
// is a light::Error.
std::string normalize(const std::string& utf8);

}  // namespace light::search

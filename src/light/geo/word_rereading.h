// Reading with the gazetteer (docs/georeference-from-names.md, "Words read again"): once a map is
// georeferenced from its names, a word the spotter read unsurely is weighed against the names of the
// places the georeference puts near it. Each name's word (in the reading's case) is scored by how
// likely the recogniser finds it on the word's own pixels (a CTC likelihood: the pixels decide, not a
// place's size), and the word takes the best one unless it is far less likely than what was read. Every
// such word keeps what was read beside it (`light link` writes it as "read_as"): a correction is never
// silent.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "light/geo/map_names.h"

namespace light::geo {

struct RereadOptions {
  // Words whose score (the spotter's: its characters' mean probability) is at most this are read again:
  // every spotted word by default, for the spotter misreads names it is sure of, and the likelihood,
  // not the score, tells them apart.
  double max_score = 1.0;
  double near_heights = 12;     // a place is near a word's phrase within this many of its letter heights of the phrase's box
  double near_diagonal = 0.02;  // and this share of the map's diagonal more (the georeference's own error)
  // Natural log: how much less likely than the reading a name's word may be and still replace it. A
  // place's name beside a word is far likelier a priori than any string a reading spells, so a name
  // somewhat less likely on the pixels wins (the margin's choice: docs/georeference-from-names.md).
  double min_gain = -6;
  double max_edits = 0.5;  // a name's word at most this share of its letters away from the reading
  // A reading that is already a near place's name but spelled otherwise ("Nimes", the name "Nîmes";
  // "PODOL'SK", "PODOL’SK") takes the name's spelling only when the pixels make it likelier: a map
  // printed without the accents keeps its reading.
  double min_spelling_gain = 0;
};

// A word read again: phrase and word index into MapNames::phrases.
struct WordReread {
  size_t phrase = 0, word = 0;
  std::string read, text;  // what the spotter read; the name's word that replaces it
  uint32_t place = 0;      // the gazetteer place whose name it is
  double gain = 0;         // ln P(text) - ln P(read) on the word's pixels
};

// How likely the recogniser finds each text as the reading of the word under `polygon` (natural log;
// -infinity for a text it cannot write).
using WordLikelihoods =
    std::function<std::vector<double>(const std::vector<maptext::Point>& polygon, const std::vector<std::string>& texts)>;

// The words of a georeferenced map (`m.result.ok`; none otherwise) read again against the places near
// them. `scores[phrase][word]`: each word's reading score, negative when it has none (a word given, not
// spotted: never read again).
std::vector<WordReread> reread_words(const MapNames& m, const Gazetteer& gazetteer, const std::vector<std::vector<double>>& scores,
                                     const WordLikelihoods& likelihoods, const RereadOptions& options = {});

// `name`'s letters in the case `reading` shows: capitals when the reading's letters are mostly capitals
// ("VALDOSTE", "Valdosta" -> "VALDOSTA"; "CHiRU", "Chūru" -> "CHŪRU"), else the name as written.
std::string in_case_of(const std::string& name, const std::string& reading);

}  // namespace light::geo

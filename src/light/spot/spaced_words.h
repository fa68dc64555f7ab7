// Letter-spaced names read in pieces. The detector often finds a widely spaced name ("T E R R I T O
// R Y") as several lines ("TER", "RIT", "O", "RY") too far apart to be joined before reading
// (text_boxes.h, TextBoxOptions::piece_join). Once read, their letters' pitch is known: pieces on one
// axis whose letters are as far apart across the break as within them are one word.
#pragma once
#include <functional>
#include <vector>

#include "light/spot/reading.h"
#include "light/spot/text_boxes.h"

namespace light::spot {

// A word read on a line: the line (as read: its start is the reading's start) and the word's part of it.
struct LineWord {
  TextBox line;
  ReadWord word;
  size_t read_on = 0;  // which of the detector's lines it was read on (words of one line never join: a space was read)
  bool on_ink = false;  // its box is its ink's (a letter alone found in the ink, or snapped to its mark): not fitted again
};

struct SpacedWordOptions {
  // Spaced lettering: letters at least `spaced_pitch` times the line's height apart, centre to centre
  // (a line's box is higher than its lettering: capitals set close lie some 0.6-0.8 heights apart).
  double spaced_pitch = 1.0;
  // Two pieces are one word when the letters either side of the break lie at most `gap` times the
  // pieces' pitch apart (a space between two spaced words is wider; "S O N  C O." stays two words).
  double gap = 1.3;
  double height = 1.5;  // the pieces' heights within this ratio (the detector's boxes of one name vary)
  double angle = 10;    // two words' directions within this many degrees (a single letter takes the word's axis)
  double axis = 0.25;   // the next piece's start off the first's axis by at most this many heights
  // A spaced word read along its axis this many pitches beyond each end, for letters the detector
  // did not find (grow_spaced_words); 0: not looked for.
  double beyond = 1.5;
  double beyond_score = 0.5;  // a letter so found is kept from this probability
};

// The pieces of letter-spaced words joined: words of letters (and full stops) read on different
// straight lines, the longer ones spaced, pitches alike (within 1.4 times), next to each other in
// reading order on one axis. A joined word is its own line, from the first piece's start to the last's end; its score is
// its letters' mean. Words of other kinds come out as they went in.
std::vector<LineWord> join_spaced_words(std::vector<LineWord> words, const SpacedWordOptions& options = {});

// A straight line's characters as the recogniser reads them: each character with its centre along
// the line (a fraction of its length) and its probability; a space read is a character " ".
struct PlacedChar {
  std::string text;
  double at = 0;
  float prob = 0;
};
using CharReader = std::function<std::vector<std::vector<PlacedChar>>(const std::vector<TextBox>& lines)>;

// Letter-spaced words grown by the letters beyond their ends that the detector did not find (a
// spaced name's isolated letters look less like lettering to it than a run of them: "NTY" of "C O U N
// T Y"). A spaced word (as join_spaced_words) is read again `beyond` pitches beyond each end; where
// that reading has as many letters where the word's own lay (read with more about them, they may read
// otherwise: the new reading is taken), the letters before and after join it one by one while each
// lies 2 - `gap` to `gap` pitches from the last, is a letter (a full stop may end it) read from
// `beyond_score`, and has no other closer than that beyond it (a word set close: "MORGAN" after "B O
// U L D E R"). Again from the grown ends until none joins. A word the grown one now covers, its
// letters among the grown one's, is a piece of it and goes.
std::vector<LineWord> grow_spaced_words(std::vector<LineWord> words, const SpacedWordOptions& options, const CharReader& read);

}  // namespace light::spot

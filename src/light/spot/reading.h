// Reading a text line from the recogniser's steps: CTC's greedy decoding kept with where each
// character lies along the line, so that a line can be split into its words.
#pragma once
#include <string>
#include <vector>

#include "light/model/spotter_models.h"
#include "light/text/ctc_dictionary.h"

namespace light::spot {

using text::Dictionary;


struct ReadChar {
  std::string text;
  double start = 0, end = 0;  // steps it spans (the run of its class)
  float prob = 0;             // the run's highest probability
};

// CTC greedy decoding: runs of one class collapse to one character; blanks separate.
std::vector<ReadChar> decode_ctc(const model::StepClasses& steps, const Dictionary& dict);

// The long s (ſ) read written as the round s (SpotOptions::long_s "s").
void write_long_s_as_s(std::vector<ReadChar>& chars);

// A word's characters that a recogniser confuses with their look-alikes settled by the word they are
// in (SpotOptions::lookalikes "settle"): in a number, a letter shaped as a figure is that figure
// ("6O" 60, "1o" 10, "l5" 15: every other character a figure, at least as many figures as such letters);
// in a word of capitals (two or more, more than its small letters, every small letter one shaped as
// its capital: c o s v w x z), those small letters are capitals and figures between two capitals are
// the letters they look like ("VoL" VOL, "P05T" POST: 0 O, 5 S, 1 I). Anything else is left as read
// ("15b", "M25", "Co.", "McCoy").
std::string settle_lookalikes(const std::string& word);

struct ReadWord {
  std::string text;
  double from = 0, to = 1;  // fractions of the line's length the word spans
  double first = 0, last = 1;  // where its first and last characters' centres lie (fractions of the line)
  double score = 0;         // its characters' mean probability
};

// A line's characters split into words: at a space read, and between two characters where the space
// class is likely although the blank won (its probability above `space_probability` on a step
// between them: the recogniser often hears a space it does not write), or where they lie unusually far
// apart (centres more than `gap_ratio` x the line's median pitch and `gap_steps` steps more than it:
// half the height of the 48 px strip, whose steps are 8 px, so that a wide letter before narrow ones,
// as in "Mill", does not split the word). Neither a heard space nor a gap splits a letter or figure
// from a small letter after it: a word begins with one only where a space was read ("Lake of") or
// after an abbreviation's point ("Cap. de"); the space class also rises within words ("Bad" "ger",
// "Ere" "chim", "15" "th"), and a letter not read leaves a gap ("H" "use" for "House"). Nor does a
// heard space split two capitals no further apart than the line's median pitch ("VAL" "ENCIA"): a
// space between words of capitals widens the gap or is read.
// A word spans its characters, half a pitch beyond its first and last characters' centres; where it
// meets another word of the line, further, up to `reach` pitches more but never past halfway between
// the two words' facing characters, as a person draws a word's outline with some paper about it (cut
// at its letters, short words come out shorter than drawn ones, and the linker learned the drawn
// ones: docs/spotter.md, step 7). In steps,
// over `used_steps` (the steps the crop's own width covers), clamped to the line; the first word
// starts and the last ends with the line.
struct SplitOptions {
  double space_probability = 0.1;
  double gap_ratio = 1.6;
  double gap_steps = 3;
  double reach = 0.5;
};
// A word that begins with a map symbol read as a character has it taken off, and its span starts
// between the symbol and the next character (leading_symbol).
std::vector<ReadWord> split_words(const std::vector<ReadChar>& chars, const std::vector<float>& space, double used_steps,
                                  const SplitOptions& options = {});

// Whether what the recogniser read is a map symbol rather than lettering: no letter or figure ("·",
// "—", "/": a dot, a dash, line work; "&" is a word), a lone circle ("o", "O", "0", "°": a
// settlement's symbol), or one character six times or more ("1111111": hatching, shading).
bool is_symbol(const std::string& text);

// Whether a word's first character is a settlement's symbol read into the name beside it: a small
// circle or dot before a capital ("oPérigueux", "·Rimini", "0Troyes"), or a capital O before a
// capital and a small letter ("OCasas"; "OHIO" and "Oder" keep theirs).
bool leading_symbol(const std::string& text);

}  // namespace light::spot

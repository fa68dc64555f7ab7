// Letter-spaced words grown by the letters beyond their ends that the detector did not find
// (spot::grow_spaced_words), read by a recogniser stand-in that reads what a line's box covers.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "light/spot/spaced_words.h"
#include "light/spot/text_boxes.h"
#include "spaced_words_checks.h"

using light::test::read_alone;

namespace {

using light::spot::LineWord;
using light::spot::PlacedChar;
using light::spot::TextBox;

// A map's letters along y = 120: each a character at its centre's x.
struct Letter {
  std::string text;
  double x;
  float prob = 0.9f;
};

// Reads what a level line's box covers: the letters whose centres lie in it, placed along it.
light::spot::CharReader reader(const std::vector<Letter>& map, int* reads = nullptr) {
  return [map, reads](const std::vector<TextBox>& lines) {
    std::vector<std::vector<PlacedChar>> out;
    for (const TextBox& line : lines) {
      if (reads) ++*reads;
      const double x0 = line.corners[0].x, x1 = line.corners[1].x;
      std::vector<PlacedChar>& chars = out.emplace_back();
      for (const Letter& l : map)
        if (l.x > x0 && l.x < x1) chars.push_back(PlacedChar{l.text, (l.x - x0) / (x1 - x0), l.prob});
    }
    return out;
  };
}

light::spot::SpacedWordOptions beyond(double pitches) {
  light::spot::SpacedWordOptions o;
  o.beyond = pitches;
  return o;
}

// "C O U N T Y": letters 60 px (1.5 heights) apart from x 100.
const std::vector<Letter> kCounty = {{"C", 100}, {"O", 160}, {"U", 220}, {"N", 280}, {"T", 340}, {"Y", 400}};

}  // namespace

TEST(SpacedGrowth, ASpacedWordFoundInPartGrowsLetterByLetterToTheWholeName) {
  // The detector found "NTY" and, apart, the "C": the name is read whole and the "C" is its piece.
  const std::vector<LineWord> words = {read_alone(250, 430, "NTY", 280, 400, 0), read_alone(80, 120, "C", 100, 100, 1)};
  int reads = 0;
  const auto out = light::spot::grow_spaced_words(words, beyond(1.5), reader(kCounty, &reads));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].word.text, "COUNTY");
  EXPECT_NEAR(out[0].line.corners[0].x, 70, 1e-6);  // half a pitch before the C's centre
  EXPECT_NEAR(out[0].line.corners[1].x, 430, 1e-6);  // and after the Y's
  EXPECT_NEAR(out[0].line.height(), 40, 1e-6);
  EXPECT_NEAR(out[0].word.first * 360 + 70, 100, 1e-6);
  EXPECT_NEAR(out[0].word.last * 360 + 70, 400, 1e-6);
  EXPECT_EQ(reads, 4);  // a letter a round (U, O, C), then a round that adds none
  // Not looked for (beyond 0), or letters read too unsurely: as found.
  EXPECT_EQ(light::spot::grow_spaced_words(words, beyond(0), reader(kCounty)).size(), 2u);
  std::vector<Letter> faint = kCounty;
  faint[2].prob = 0.3f;  // the U
  const auto unsure = light::spot::grow_spaced_words(words, beyond(1.5), reader(faint));
  ASSERT_EQ(unsure.size(), 2u);
  EXPECT_EQ(unsure[0].word.text, "NTY");
}

TEST(SpacedGrowth, AFullStopOrAWordSpaceEndsAGrownWordAndASetCloseWordAfterItIsNotTakenIn) {
  // "C O." after "N T Y" would be a second word (1.8 pitches on); here "CO" is found and its point is
  // not, and "MORGAN", set close (12 px a letter), follows "R" of "B O U L D E R" 0.8 pitches on.
  const std::vector<Letter> map = {{"C", 100}, {"O", 160}, {".", 215}, {"B", 500}, {"O", 560}, {"U", 620},
                                   {"L", 680}, {"D", 740}, {"E", 800}, {"R", 860}, {"M", 908}, {"O", 920},
                                   {"R", 932}, {"G", 944}, {"A", 956}, {"N", 968}};
  const std::vector<LineWord> words = {read_alone(70, 190, "CO", 100, 160, 0), read_alone(590, 890, "ULDER", 620, 860, 1)};
  const auto out = light::spot::grow_spaced_words(words, beyond(1.5), reader(map));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].word.text, "CO.");
  EXPECT_EQ(out[1].word.text, "BOULDER");
  // A word space: "R O U T T  C O." with 82 px (1.37 pitches) from the last T to the C; a space read
  // before a letter ends the word too.
  const std::vector<Letter> routt = {{"R", 100}, {"O", 160}, {"U", 220}, {"T", 280}, {"T", 340}, {"C", 422}, {"O", 482}};
  const auto two = light::spot::grow_spaced_words({read_alone(190, 370, "UTT", 220, 340, 0)}, beyond(1.5), reader(routt));
  EXPECT_EQ(two[0].word.text, "ROUTT");
  std::vector<Letter> heard = kCounty;
  heard.insert(heard.begin() + 3, Letter{" ", 245});  // between the U and the N
  const auto apart = light::spot::grow_spaced_words({read_alone(250, 430, "NTY", 280, 400, 0)}, beyond(1.5), reader(heard));
  EXPECT_EQ(apart[0].word.text, "NTY");
}

TEST(SpacedGrowth, WordsSetCloseOrReadOtherwiseWhenReadAgainStayAsFound) {
  // Capitals set close (pitch 24 px, 0.6 heights): not a spaced word, never read again.
  int reads = 0;
  const std::vector<Letter> close = {{"A", 100}, {"D", 124}, {"A", 148}, {"M", 172}, {"S", 196}};
  const auto same = light::spot::grow_spaced_words({read_alone(136, 208, "AMS", 148, 196, 0)}, beyond(1.5), reader(close, &reads));
  EXPECT_EQ(same[0].word.text, "AMS");
  EXPECT_EQ(reads, 0);
  // Read again with more about it, the word's own letters are not where they were: no reading of it.
  std::vector<Letter> other = kCounty;
  other.push_back({"I", 310});
  const auto out = light::spot::grow_spaced_words({read_alone(250, 430, "NTY", 280, 400, 0)}, beyond(1.5), reader(other));
  EXPECT_EQ(out[0].word.text, "NTY");
}

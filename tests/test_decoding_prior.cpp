#include <gtest/gtest.h>

#include <cmath>

#include "light/error.h"
#include "light/link/decode.h"
#include "light/link/decoding_prior.h"
#include "test_util.h"
#include "test_rows.h"

using namespace light;
using link::DecodingPrior;

using test::frame;
using test::rows;

// Hand-worked: a word of height 20 along y = 100; a word centred 40 px lower lies 2 heights below, one
// 40 px higher 2 above, one further along the same line 0; a word read top to bottom (its reading
// direction (0, 1)) has "below" at -x.
TEST(DecodingPrior, RiseIsMeasuredAcrossTheWordsOwnReadingDirectionInItsHeights) {
  const auto a = frame(0, 100, 100, 20);
  EXPECT_DOUBLE_EQ(link::rise_below(a, frame(0, 100, 140, 10)), 2.0);
  EXPECT_DOUBLE_EQ(link::rise_below(a, frame(0, 100, 60, 10)), -2.0);
  EXPECT_DOUBLE_EQ(link::rise_below(a, frame(150, 250, 100, 20)), 0.0);
  const geometry::ReadingFrame down{{100, 0}, {100, 100}, 20};
  EXPECT_DOUBLE_EQ(link::rise_below(down, geometry::ReadingFrame{{60, 0}, {60, 100}, 20}), 2.0);
  EXPECT_DOUBLE_EQ(link::rise_below(down, geometry::ReadingFrame{{140, 0}, {140, 100}, 20}), -2.0);
  EXPECT_DOUBLE_EQ(link::rise_below(geometry::ReadingFrame{{5, 5}, {5, 5}, 20}, a), 0.0);  // no length: no direction
}

TEST(DecodingPrior, NoSuccessorFactorGrowsWithTheWindowsWordsByTheExponent) {
  DecodingPrior p{2.5, 0.4, 1.0};
  EXPECT_DOUBLE_EQ(link::no_successor_factor(p, 50), 2.5);
  EXPECT_NEAR(link::no_successor_factor(p, 5), 2.5 * std::pow(0.1, 0.4), 1e-12);  // 0.995
  EXPECT_NEAR(link::no_successor_factor(p, 200), 2.5 * std::pow(4.0, 0.4), 1e-12);  // 4.35
  p.no_successor_exponent = 0;
  EXPECT_DOUBLE_EQ(link::no_successor_factor(p, 5), 2.5);
}

// Three words: 0 and 1 on one line (1 after 0), 2 on the line above them. Word 0's row puts 0.45 on
// the word above, 0.40 on its neighbour: the paper's decoding links it upwards; the prior (x 0.1 on a
// candidate above) links it to its neighbour. Own entries take the no-successor factor, others not.
TEST(DecodingPrior, ACandidateAboveTheWordLosesToItsNeighbourOnTheLine) {
  const std::vector<geometry::ReadingFrame> frames = {frame(0, 100, 100, 20), frame(120, 220, 100, 20), frame(0, 100, 60, 20)};
  const std::vector<std::vector<float>> P = {{0.15f, 0.40f, 0.45f}, {0.10f, 0.80f, 0.10f}, {0.20f, 0.10f, 0.70f}};
  const std::vector<std::vector<float>> Q = {{0.80f, 0.10f, 0.10f}, {0.50f, 0.40f, 0.10f}, {0.45f, 0.05f, 0.50f}};
  EXPECT_EQ(link::decode_successors(rows(P), rows(Q)).successors, (std::vector<int>{2, 1, 2}));

  data::SparseRows p = rows(P), q = rows(Q);
  link::apply_decoding_prior(p, q, frames, 0.0, 0.0, 0.0, DecodingPrior{1.0, 0.0, 0.1});
  EXPECT_FLOAT_EQ(p.at(0, 2), 0.045f);  // above word 0
  EXPECT_FLOAT_EQ(p.at(0, 1), 0.40f);   // along its line
  EXPECT_FLOAT_EQ(p.at(2, 0), 0.20f);   // word 0 lies below word 2: left alone
  EXPECT_FLOAT_EQ(q.at(2, 0), 0.045f);  // "0 precedes 2": 2 would follow 0 upwards
  EXPECT_FLOAT_EQ(q.at(0, 2), 0.10f);   // "2 precedes 0": reading down, left alone
  EXPECT_EQ(link::decode_successors(p, q).successors, (std::vector<int>{1, 1, 2}));

  // The identity prior changes nothing; a factor of 2 on own entries doubles exactly the diagonal.
  data::SparseRows p1 = rows(P), q1 = rows(Q);
  link::apply_decoding_prior(p1, q1, {}, 0.0, 0.0, 0.0, DecodingPrior{});
  EXPECT_FLOAT_EQ(p1.at(0, 2), 0.45f);
  link::apply_decoding_prior(p1, q1, {}, 0.0, 0.0, 0.0, DecodingPrior{2.0, 0.0, 1.0});
  EXPECT_FLOAT_EQ(p1.at(0, 0), 0.30f);
  EXPECT_FLOAT_EQ(q1.at(1, 1), 0.80f);
  EXPECT_FLOAT_EQ(p1.at(0, 1), 0.40f);
  // Frames that do not match the rows are an error, not a silent skip.
  EXPECT_THROW(link::apply_decoding_prior(p1, q1, {frames[0]}, 0.0, 0.0, 0.0, DecodingPrior{1.0, 0.0, 0.1}), light::Error);
}

// Three words: 0 ends a first line, 1 starts the line below it (1.5 heights down), 2 lies 4 heights
// down (two lines further). Word 0's row: 0.5 on "no successor" (times the factor 1), 0.3 on word 1,
// 0.2 on word 2. A next-line factor of 2 multiplies only word 1's entry (0.6 > 0.5: linked), and in
// the predecessor rows only an entry for a word on the line above; the far word is left alone.
TEST(DecodingPrior, ACandidateOnTheLineBelowIsMultipliedByTheNextLineFactor) {
  const std::vector<geometry::ReadingFrame> frames = {frame(0, 100, 100, 20), frame(0, 80, 130, 20), frame(0, 100, 180, 20)};
  const std::vector<std::vector<float>> P = {{0.5f, 0.3f, 0.2f}, {0.2f, 0.7f, 0.1f}, {0.1f, 0.1f, 0.8f}};
  const std::vector<std::vector<float>> Q = {{0.9f, 0.05f, 0.05f}, {0.45f, 0.5f, 0.05f}, {0.1f, 0.1f, 0.8f}};
  EXPECT_EQ(link::decode_successors(rows(P), rows(Q)).successors, (std::vector<int>{0, 1, 2}));
  data::SparseRows p = rows(P), q = rows(Q);
  DecodingPrior prior;
  prior.next_line = 2.0;
  link::apply_decoding_prior(p, q, frames, 0.0, 0.0, 0.0, prior);
  EXPECT_FLOAT_EQ(p.at(0, 1), 0.6f);   // 1.5 heights below: the next line
  EXPECT_FLOAT_EQ(p.at(0, 2), 0.2f);   // 4 heights below: not the next line
  EXPECT_FLOAT_EQ(p.at(0, 0), 0.5f);   // its own entry: the no-successor factor's (1)
  EXPECT_FLOAT_EQ(p.at(1, 0), 0.2f);   // word 0 lies above word 1: left alone (the above factor is 1)
  EXPECT_FLOAT_EQ(q.at(1, 0), 0.9f);   // "0 precedes 1": 1 would follow 0 on the next line
  EXPECT_FLOAT_EQ(q.at(0, 1), 0.05f);  // "1 precedes 0": reading upwards, left alone
  EXPECT_EQ(link::decode_successors(p, q).successors, (std::vector<int>{1, 1, 2}));
}

// House numbers in a row, "123" then "125", and a street name: the model's 0.6 for "125" after "123"
// beats "123" ending (0.3); times the figure factor 0.1 it does not, in both directions, and the
// street name's entries are left as they are.
TEST(DecodingPrior, AFigureAfterAFigureIsMultipliedByTheFigureFactor) {
  EXPECT_TRUE(link::bare_figure("125"));
  EXPECT_TRUE(link::bare_figure("7"));
  for (const std::string not_one : {"", "12a", "T.2N.", "1850s", "No.", "Main", "15th", "123456789"})
    EXPECT_FALSE(link::bare_figure(not_one)) << not_one;
  const std::vector<std::vector<float>> P = {{0.3f, 0.6f, 0.1f}, {0.1f, 0.8f, 0.1f}, {0.1f, 0.1f, 0.8f}};
  const std::vector<std::vector<float>> Q = {{0.8f, 0.1f, 0.1f}, {0.7f, 0.2f, 0.1f}, {0.1f, 0.1f, 0.8f}};
  EXPECT_EQ(link::decode_successors(rows(P), rows(Q)).successors, (std::vector<int>{1, 1, 2}));
  data::SparseRows p = rows(P), q = rows(Q);
  const std::vector<char> figure = {1, 1, 0};
  link::apply_figure_prior(p, q, figure, 0.1);
  EXPECT_FLOAT_EQ(p.at(0, 1), 0.06f);
  EXPECT_FLOAT_EQ(q.at(1, 0), 0.07f);
  EXPECT_FLOAT_EQ(p.at(0, 0), 0.3f);  // its own entry
  EXPECT_FLOAT_EQ(p.at(0, 2), 0.1f);  // a figure before a word
  EXPECT_FLOAT_EQ(p.at(2, 0), 0.1f);  // a word before a figure
  EXPECT_EQ(link::decode_successors(p, q).successors, (std::vector<int>{0, 1, 2}));
  EXPECT_THROW(link::apply_figure_prior(p, q, {1, 1}, 0.1), light::Error);
}

// Hand-worked: centres at x = 50, 150, 250, 1050 on one line (words 100 wide) of a 2000 x 2000 tile, a
// window side of 250. Around 150: the window 25..275 holds 50, 150, 250. Around 50: the window centred
// on it would start at -75; moved inside the tile it spans 0..250 and holds 50, 150, 250 (its edge
// included). Around 250: 125..375, two. Around 1050: only itself. A tile no longer than a side along
// an axis: the window spans it. No side: every word.
TEST(DecodingPrior, WordsAroundCountTheCentresInAWindowMovedInsideTheTile) {
  const std::vector<geometry::ReadingFrame> f = {frame(0, 100, 100, 20), frame(100, 200, 100, 20), frame(200, 300, 100, 20),
                                                 frame(1000, 1100, 100, 20)};
  EXPECT_EQ(link::words_around(f, 250, 2000, 2000), (std::vector<size_t>{3, 3, 2, 1}));
  EXPECT_EQ(link::words_around(f, 0, 2000, 2000), (std::vector<size_t>{4, 4, 4, 4}));
  EXPECT_EQ(link::words_around(f, 250, 200, 200), (std::vector<size_t>{4, 4, 4, 4}));  // tile smaller than a window
  // A word 200 px lower is outside the 250-px window in y (the window 0..250 around y = 100).
  EXPECT_EQ(link::words_around({frame(0, 100, 100, 20), frame(0, 100, 300, 20)}, 250, 2000, 2000), (std::vector<size_t>{1, 1}));
}

// The exponent at work: the lone word (1 around it) gets 2.5 x (1/50)^0.4 = 0.5 on its own entry, a
// word with two others around it 2.5 x (3/50)^0.4.
TEST(DecodingPrior, TheNoSuccessorFactorFollowsTheWordsAroundEachWord) {
  const std::vector<geometry::ReadingFrame> f = {frame(0, 100, 100, 20), frame(100, 200, 100, 20), frame(200, 300, 100, 20),
                                                 frame(1000, 1100, 100, 20)};
  data::SparseRows p = rows({{0.4f, 0.6f, 0, 0}, {0, 0.5f, 0.5f, 0}, {0, 0, 1.0f, 0}, {0, 0, 0, 1.0f}});
  data::SparseRows q = p;
  link::apply_decoding_prior(p, q, f, 250, 2000, 2000, DecodingPrior{2.5, 0.4, 1.0});
  EXPECT_NEAR(p.at(3, 3), 2.5 * std::pow(1.0 / 50, 0.4), 1e-6);
  EXPECT_NEAR(p.at(1, 1), 0.5 * 2.5 * std::pow(3.0 / 50, 0.4), 1e-6);
  EXPECT_NEAR(q.at(0, 0), 0.4 * 2.5 * std::pow(3.0 / 50, 0.4), 1e-6);
  EXPECT_FLOAT_EQ(p.at(0, 1), 0.6f);
}

// ---- The lettering prior ---------------------------------------------------------------------------

TEST(Lettering, CaseIsCapitalsAnInitialCapitalSmallLettersOrNone) {
  EXPECT_EQ(link::letter_case("MISSOURI"), link::LetterCase::Upper);
  EXPECT_EQ(link::letter_case("ÉCOLE"), link::LetterCase::Upper);
  EXPECT_EQ(link::letter_case("Lodge"), link::LetterCase::Title);
  EXPECT_EQ(link::letter_case("A"), link::LetterCase::Title);  // one capital: an initial
  EXPECT_EQ(link::letter_case("Élan"), link::LetterCase::Title);
  EXPECT_EQ(link::letter_case("(disused)"), link::LetterCase::Lower);
  EXPECT_EQ(link::letter_case("de"), link::LetterCase::Lower);
  EXPECT_EQ(link::letter_case("1906"), link::LetterCase::None);
  EXPECT_EQ(link::letter_case(""), link::LetterCase::None);
}

using test::upright_word;

// A 100 x 60 tile, white, with a word in dark blue ink (a third of its box inked) and one in black;
// read at full size and from the same image at half size.
TEST(Lettering, InkIsTheDarkestFifthOfTheWordsBoxAtAnyScale) {
  for (int scale : {1, 2}) {
    SCOPED_TRACE("1/" + std::to_string(scale));
    image::RgbImage im{100 / scale, 60 / scale, {}};
    im.rgb.assign(static_cast<size_t>(im.width) * im.height * 3, 255);
    const auto paint = [&](int x0, int y0, int x1, int y1, uint8_t r, uint8_t g, uint8_t b) {
      for (int y = y0 / scale; y < y1 / scale; ++y)
        for (int x = x0 / scale; x < x1 / scale; ++x) {
          const size_t o = (static_cast<size_t>(y) * im.width + x) * 3;
          im.rgb[o] = r, im.rgb[o + 1] = g, im.rgb[o + 2] = b;
        }
    };
    paint(0, 0, 40, 6, 0, 0, 102);     // the top third of word 0's box (0-40 x 0-18): dark blue
    paint(60, 30, 100, 50, 0, 0, 0);   // word 1: black
    const maptext::Word a = upright_word(0, 0, 40, 18, "Elk"), b = upright_word(60, 30, 100, 50, "RIVER");
    const std::vector<geometry::ReadingFrame> frames = {geometry::reading_frame(a.vertices), geometry::reading_frame(b.vertices)};
    const auto l = link::word_lettering({&a, &b}, frames, im, 100, 60);
    ASSERT_EQ(l.size(), 2u);
    EXPECT_TRUE(l[0].has_ink && l[1].has_ink);
    EXPECT_NEAR(l[0].r, 0.0, 1e-6);
    EXPECT_NEAR(l[0].b, 0.4, 1e-6);
    EXPECT_NEAR(l[1].b, 0.0, 1e-6);
    EXPECT_NEAR(std::exp(l[0].log_height), 18.0, 1e-4);
    EXPECT_EQ(l[0].letter_case, link::LetterCase::Title);
    EXPECT_EQ(l[1].letter_case, link::LetterCase::Upper);
    EXPECT_FALSE(link::lettered_alike(l[0], l[1]));  // ink 0.4 apart, heights 18 and 20, cases differ
  }
}

TEST(Lettering, AlikeNeedsCloseInkCloseHeightsAndOneCaseSmallLettersGoingWithAnInitialCapital) {
  link::Lettering a{0.1f, 0.1f, 0.1f, std::log(20.0f), link::LetterCase::Upper, true};
  link::Lettering b = a;
  EXPECT_TRUE(link::lettered_alike(a, b));
  b.b = 0.1f + 0.16f;  // ink 0.16 apart
  EXPECT_FALSE(link::lettered_alike(a, b));
  b = a, b.log_height = std::log(25.0f);  // 25 / 20: log 0.22
  EXPECT_FALSE(link::lettered_alike(a, b));
  b = a, b.log_height = std::log(23.0f);  // log 0.14
  EXPECT_TRUE(link::lettered_alike(a, b));
  b = a, b.letter_case = link::LetterCase::Title;
  EXPECT_FALSE(link::lettered_alike(a, b));
  b.letter_case = link::LetterCase::Lower;
  EXPECT_FALSE(link::lettered_alike(a, b));
  link::Lettering site = a, of = a;  // "Site / of": an initial capital and small letters go together
  site.letter_case = link::LetterCase::Title, of.letter_case = link::LetterCase::Lower;
  EXPECT_TRUE(link::lettered_alike(site, of));
  b.letter_case = link::LetterCase::None;  // figures go with any case
  EXPECT_TRUE(link::lettered_alike(a, b));
  b = a, b.has_ink = false, b.r = 1;  // no ink seen: the ink does not count
  EXPECT_TRUE(link::lettered_alike(a, b));
}

// Word 0 along y = 100 (height 20); word 1 on the next line lettered as word 0, word 2 on the next line
// lettered otherwise, word 3 spread 5 heights along word 0's line and lettered alike, word 4 its
// neighbour on the line (near: no lettering factor). With the prior 2: entries to 1 and 3 doubled,
// the entry to 2 halved, the neighbour and the own entry left alone; in the predecessor rows the
// same links seen from the second word.
TEST(Lettering, ThePriorRaisesNextLineAndSpreadCandidatesLetteredAlikeAndLowersTheOthers) {
  const std::vector<geometry::ReadingFrame> frames = {frame(0, 100, 100, 20), frame(0, 100, 130, 20), frame(0, 100, 135, 20),
                                                      frame(200, 300, 100, 20), frame(110, 150, 100, 20)};
  const link::Lettering ink{0.1f, 0.1f, 0.1f, std::log(20.0f), link::LetterCase::Title, true};
  link::Lettering other = ink;
  other.b = 0.8f;
  const std::vector<link::Lettering> letters = {ink, ink, other, ink, ink};
  const std::vector<std::vector<float>> dense(5, std::vector<float>(5, 0.2f));
  data::SparseRows p = rows(dense), q = rows(dense);
  DecodingPrior prior;
  prior.lettering = 2.0;
  link::apply_decoding_prior(p, q, frames, 0.0, 0.0, 0.0, prior, &letters);
  EXPECT_FLOAT_EQ(p.at(0, 1), 0.4f);  // next line, alike
  EXPECT_FLOAT_EQ(p.at(0, 2), 0.1f);  // next line, not alike
  EXPECT_FLOAT_EQ(p.at(0, 3), 0.4f);  // spread, alike
  EXPECT_FLOAT_EQ(p.at(0, 4), 0.2f);  // near: no factor
  EXPECT_FLOAT_EQ(p.at(0, 0), 0.2f);  // own entry: the no-successor factor (1 here)
  EXPECT_FLOAT_EQ(q.at(1, 0), 0.4f);  // "0 precedes 1": 1 follows 0 on the next line, alike
  EXPECT_FLOAT_EQ(q.at(2, 0), 0.1f);
  EXPECT_FLOAT_EQ(p.at(1, 0), 0.2f);  // 0 lies above 1: not a next-line candidate of 1
  // Without the words' lettering the prior cannot work: a clear error.
  data::SparseRows p2 = rows(dense), q2 = rows(dense);
  EXPECT_THROW(link::apply_decoding_prior(p2, q2, frames, 0.0, 0.0, 0.0, prior), Error);
}

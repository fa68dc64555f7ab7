#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "light/link/decode.h"
#include "light/link/repeated_words.h"
#include "light/maptext.h"
#include "test_rows.h"

using namespace light;
using link::repeat_key;
using link::split_repeated_words;

TEST(RepeatedWords, WordsCompareByTheirLettersAndFiguresCaseFolded) {
  EXPECT_EQ(repeat_key("St."), "st");
  EXPECT_EQ(repeat_key("ST"), "st");
  EXPECT_EQ(repeat_key("15th"), "15th");
  EXPECT_EQ(repeat_key("SÃO"), "são");
  EXPECT_EQ(repeat_key("Coleman's"), "colemans");
  // Never counted: one letter, small words names repeat.
  EXPECT_EQ(repeat_key("L."), "");
  EXPECT_EQ(repeat_key("of"), "");
  EXPECT_EQ(repeat_key("DE"), "");
  EXPECT_EQ(repeat_key("the"), "");
}

namespace {
// Link strengths from a table; links not in it are 0.5.
struct Links {
  std::map<std::pair<int, int>, double> at;
  double operator()(int a, int b) const {
    const auto it = at.find({a, b});
    return it == at.end() ? 0.5 : it->second;
  }
};
}  // namespace

// "15th(0) Ave.(1) 15th(2)": 15th -> Ave. 0.5, Ave. -> 15th 0.2: cut between Ave. and 15th. "Hall(3) St.(4)
// Main(5) St.(6)": the links St. -> Main 0.3, Hall -> St. 0.9, Main -> St. 0.8; the weakest between
// the two "St." is St. -> Main. "Walla(7) Walla(8)" side by side stays whole.
TEST(RepeatedWords, APhraseHoldingAWordTwiceApartIsCutAtItsWeakestLinkBetweenThem) {
  const std::vector<std::string> keys{"15th", "ave", "15th", "hall", "st", "main", "st", "walla", "walla"};
  Links l;
  l.at = {{{1, 2}, 0.2}, {{3, 4}, 0.9}, {{4, 5}, 0.3}, {{5, 6}, 0.8}};
  const auto out = split_repeated_words({{0, 1, 2}, {3, 4, 5, 6}, {7, 8}}, keys, l);
  EXPECT_EQ(out, (std::vector<std::vector<int>>{{0, 1}, {2}, {3, 4}, {5, 6}, {7, 8}}));
}

// "Hay(0) Cr.(1) Hay(2) Cr.(3) Hay(4)", every link 0.5 but Cr.(1) -> Hay(2) 0.4: cut there; the part
// "Hay(2) Cr.(3) Hay(4)" still holds "Hay" twice, and is cut at the earlier of its two equal links.
TEST(RepeatedWords, EachPartIsCutAgainUntilNoneHoldsAWordTwice) {
  const std::vector<std::string> keys{"hay", "cr", "hay", "cr", "hay"};
  Links l;
  l.at = {{{1, 2}, 0.4}};
  const auto out = split_repeated_words({{0, 1, 2, 3, 4}}, keys, l);
  EXPECT_EQ(out, (std::vector<std::vector<int>>{{0, 1}, {2}, {3, 4}}));
}

// Through the decoder: four words in a row, each most probably followed by the next. Kept whole with
// split_repeats off; cut at the weakest link with it on, and the cut phrase's last word carries its
// own "no successor" probability.
TEST(RepeatedWords, LinkTileCutsTheDecodedPhraseOnlyWhenAsked) {
  maptext::Tile tile;
  tile.image = "t.png";
  for (const char* text : {"Larimer", "St.", "Sanders", "St."}) {
    maptext::Word w;
    w.text = std::string(text);
    w.vertices = {{0, 0}, {10, 0}, {10, 5}, {0, 5}};
    tile.groups.push_back({w});
  }
  const std::vector<std::vector<float>> p{{0.1f, 0.8f, 0.05f, 0.05f}, {0.2f, 0.1f, 0.6f, 0.1f}, {0.05f, 0.05f, 0.1f, 0.8f}, {0.1f, 0.1f, 0.1f, 0.7f}};
  const std::vector<std::vector<float>> q{{0.7f, 0.1f, 0.1f, 0.1f}, {0.8f, 0.1f, 0.05f, 0.05f}, {0.05f, 0.6f, 0.2f, 0.15f}, {0.05f, 0.05f, 0.8f, 0.1f}};
  const std::vector<size_t> sources{0, 1, 2, 3};
  const maptext::Tile whole = link::link_tile(tile, sources, test::rows(p), test::rows(q));
  ASSERT_EQ(whole.groups.size(), 1u);
  const data::SparseRows raw = test::rows(p);
  const maptext::Tile cut = link::link_tile(tile, sources, test::rows(p), test::rows(q), nullptr, &raw, true);
  ASSERT_EQ(cut.groups.size(), 2u);
  EXPECT_EQ(cut.groups[0][0].text, "Larimer");
  EXPECT_EQ(cut.groups[0][1].text, "St.");
  EXPECT_EQ(cut.groups[1][0].text, "Sanders");
  EXPECT_NE(cut.groups[0][1].extra.find("\"successor_probability\":0.1"), std::string::npos) << cut.groups[0][1].extra;
}

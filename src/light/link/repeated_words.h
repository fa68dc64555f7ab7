// Names set again and again along what they name ("15th Ave." every few blocks of a street, "Hay Cr."
// along a creek) are chained by a linker that follows the street: "15th Ave. 15th", "Hall St. Main St.",
// "Huerfano County Campbell County". A place name rarely holds one word twice with other words
// between (side by side it may: "Walla Walla"), so such a phrase is cut at its weakest link between the
// two, and each part again, until none holds a word twice so.
//
// Words compare by their letters and figures, case folded ("St." and "ST" are one word). A word of
// fewer than two of them never counts, nor do the small words names repeat ("of", "the", "de", "la",
// ...: "Chemin de la Croix de la Mission").
//
// Such phrases come from the linker, not from the maps' names (the held-out sets' true phrases hold
// none): docs/notes/2026-11-default-model.md, "A word twice in one phrase: cut".
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace light::link {

// The word as compared: its letters and figures, lower case; "" when it never counts.
std::string repeat_key(const std::string& text);

// `phrases` (word indices in reading order) with every phrase that holds one key twice, not side by
// side, cut at its weakest link between the two (`link(a, b)`: how strongly a's successor is b; the
// earlier link where equal); each cut phrase's parts take its place, in order. keys[w]: word w's
// repeat_key.
std::vector<std::vector<int>> split_repeated_words(const std::vector<std::vector<int>>& phrases, const std::vector<std::string>& keys,
                                                   const std::function<double(int, int)>& link);

}  // namespace light::link

// What the tests of letter-spaced words share (test_text_boxes.cpp, test_spaced_growth.cpp).
#pragma once
#include <cstddef>
#include <string>

#include "light/spot/spaced_words.h"
#include "light/spot/text_boxes.h"

namespace light::test {

// A word read alone on a level line 40 px high along y = 120 from x0 to x1, its letters' centres at
// `first` and `last` (x).
inline spot::LineWord read_alone(double x0, double x1, const std::string& text, double first, double last, size_t line) {
  spot::LineWord w;
  w.line.corners = spot::reading_corners((x0 + x1) / 2, 120, x1 - x0, 40, 0);
  w.word.text = text;
  w.word.score = 0.9;
  w.word.first = (first - x0) / (x1 - x0);
  w.word.last = (last - x0) / (x1 - x0);
  w.read_on = line;
  return w;
}

}  // namespace light::test

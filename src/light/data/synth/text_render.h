// Map lettering with Pango and Cairo: shape a word in a font, set it along a baseline path (glyph by
// glyph on curves), and give its polygon: 8 points along the bottom of the ink, left to right, then
// 8 along the top, right to left, following the path.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "light/data/synth/path.h"

typedef struct _cairo cairo_t;

namespace light::synth {

struct FontStyle {
  std::string family = "TeX Gyre Termes";
  bool italic = false;
  bool bold = false;
  double size_px = 24.0;         // em size in pixels
  double letter_spacing_px = 0;  // extra space between letters ("spaced capitals")
  double r = 0.1, g = 0.08, b = 0.06, alpha = 1.0;
};

// A shaped word: its advance and ink extents in px, relative to the pen start on the baseline
// (x to the right along the baseline, y down; ink_top is negative).
struct WordShape {
  double advance = 0, ink_x0 = 0, ink_x1 = 0, ink_top = 0, ink_bottom = 0;
  FontStyle style;
  std::shared_ptr<void> layout;  // PangoLayout
};

class TextRenderer {
 public:
  TextRenderer();
  ~TextRenderer();
  TextRenderer(const TextRenderer&) = delete;
  TextRenderer& operator=(const TextRenderer&) = delete;

  WordShape shape(const std::string& text, const FontStyle& style);

  // The height (px) of the smallest letters of `text` set in `style`: the face's x-height where the
  // word has a small letter, else the height of its capitals and figures. What decides whether a
  // person can read the word at all.
  double letter_height(const std::string& text, const FontStyle& style);

  // Draws the word with its pen start at arc length s0 of `path`.
  void draw(cairo_t* cr, const WordShape& w, const Path& path, double s0);

  // The word's 16-point polygon when set at s0 along `path`, its ink grown by `margin` px.
  static std::vector<Point> polygon(const WordShape& w, const Path& path, double s0, double margin);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// How far a word's polygon reaches beyond its ink (px): a little more on curves, where each glyph
// turns with the path between the polygon's 8 sample points.
double word_margin(double size_px, bool curved);

// Renders one word alone on a white canvas (for tests): returns the 8-bit grey image (row-major,
// width x height; 0 = black ink) and fills `poly` with the word's polygon (word_margin of its size).
std::vector<unsigned char> render_word_alone(const std::string& text, const FontStyle& style, const Path& path,
                                             double s0, int width, int height, std::vector<Point>& poly);

}  // namespace light::synth

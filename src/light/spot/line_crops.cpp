#include "light/spot/line_crops.h"

#include <algorithm>
#include <cmath>

#include "light/spot/baseline.h"
#include "light/util/unicode.h"
#include "light/util/utf8.h"

namespace light::spot {

namespace {

// The box grown about its centre by `along` along its reading direction and `across` across it.
TextBox grown(const TextBox& box, double along, double across) {
  TextBox out = box;
  const auto& c = box.corners;
  const auto [cx, cy] = box.centroid();
  const double len = std::max(box.length(), 1e-9), ux = (c[1].x - c[0].x) / len, uy = (c[1].y - c[0].y) / len;
  for (auto& p : out.corners) {
    const double a = (p.x - cx) * ux + (p.y - cy) * uy, b = -(p.x - cx) * uy + (p.y - cy) * ux;
    p = maptext::Point{cx + along * a * ux - across * b * uy, cy + along * a * uy + across * b * ux};
  }
  return out;
}

// The line straightened to the strip's height as the recogniser learns words (data::straighten_word);
// with `context` > 1, grown so many times along and `across` times across, the box the strip's middle.
Crop rectify(const image::RgbImage& img, const TextBox& box, size_t line, int height, double context = 1, double across = 1) {
  Crop crop{line, box, {}};
  if (context > 1) {
    crop.from = (1 - 1 / context) / 2;
    crop.to = 1 - crop.from;
  }
  crop.strip = data::straighten_word(img, word_polygon(context > 1 ? grown(box, context, across) : box, 0, 1), height, height * 50);
  return crop;
}

// One or two letters or figures: what a letter alone found in the ink may be read as.
bool is_glyph(const std::string& text) {
  const std::u32string t = utf8_decode(text);
  return !t.empty() && t.size() <= 2 && std::all_of(t.begin(), t.end(), [](char32_t c) { return (c >= U'0' && c <= U'9') || is_letter(c); });
}

// Read within 20 degrees of level, left to right.
bool level(const TextBox& box) { return std::abs(box.direction()) < 20 * M_PI / 180; }

// About as high as long: a letter alone (or two), read also with the paper about it (SpotOptions::letter_context).
bool lone_letter(const TextBox& box, const SpotOptions& o) { return !box.bent() && box.length() < o.letter_aspect * box.height(); }

// A lone letter's box read along its side nearer level: its rectangle's longer side says little of
// which way a letter stands, and a letter alone on a map mostly stands upright.
TextBox levelled(const TextBox& box) {
  const auto& c = box.corners;
  const double dx = c[1].x - c[0].x, dy = c[1].y - c[0].y;
  if (std::abs(dy) <= std::abs(dx)) return box;
  TextBox out = box;
  out.corners = reading_corners(box.middle().x, box.middle().y, box.height(), box.length(), std::atan2(dy, dx) + M_PI / 2);
  return out;
}

// A letter alone found in the ink (`box`: its ink's bounds and margin) is read with the paper about
// it, level and turned either way by `glyph_turn` degrees (a block's letter set along its street):
// each crop's box, the polygon the word takes when that reading wins, is the one it reads turned
// (shrunk so that its bounds are the ink's).
void add_glyph_crops(std::vector<Crop>& crops, const image::RgbImage& img, const TextBox& box, size_t k, const SpotOptions& o) {
  crops.push_back(rectify(img, grown(box, o.glyph_read, o.glyph_read), k, o.strip_height, o.letter_context, o.letter_across));
  crops.back().box = box;
  if (o.glyph_turn <= 0) return;
  const double t = o.glyph_turn * M_PI / 180, f = 1 / (std::cos(t) + std::sin(t));
  const auto [cx, cy] = box.middle();
  for (const double a : {t, -t}) {
    TextBox turned = box;
    turned.corners = reading_corners(cx, cy, box.length() * f * o.glyph_read, box.height() * f * o.glyph_read, a);
    crops.push_back(rectify(img, turned, k, o.strip_height, o.letter_context, o.letter_across));
    crops.back().box.corners = reading_corners(cx, cy, box.length() * f, box.height() * f, a);
  }
}

}  // namespace

std::vector<Crop> line_crops(const image::RgbImage& img, const std::vector<TextBox>& boxes, size_t found, const SpotOptions& o) {
  std::vector<Crop> crops;
  const int h = o.strip_height;
  for (size_t k = 0; k < boxes.size(); ++k) {
    const TextBox& box = boxes[k];
    if (k >= found) {
      add_glyph_crops(crops, img, box, k, o);
      continue;
    }
    crops.push_back(rectify(img, box, k, h));
    const double angle = std::abs(box.direction()) * 180 / M_PI;
    if (o.runs(Stage::upside_down) && std::min(angle, 180 - angle) > o.flip_angle) crops.push_back(rectify(img, box.upside_down(), k, h));
    if (o.runs(Stage::lone_letters) && o.letter_context > 1 && lone_letter(box, o)) {
      const TextBox level = levelled(box);
      if (angle > 45 && angle < 135) crops.push_back(rectify(img, level, k, h));
      crops.push_back(rectify(img, level, k, h, o.letter_context, o.letter_across));
    }
  }
  return crops;
}

std::vector<LineWord> best_readings(const image::RgbImage& img, const std::vector<Crop>& crops, const std::vector<CropReading>& read,
                                    const std::vector<TextBox>& boxes, size_t found, const std::vector<InkMark>& marks,
                                    const SpotOptions& o) {
  const bool turn_to_baseline = o.runs(Stage::baseline);
  std::vector<LineWord> words;
  for (size_t first = 0, k = 0; first < crops.size(); first = k) {
    size_t best = first;
    for (k = first + 1; k < crops.size() && crops[k].line == crops[first].line; ++k)
      if (read[k].confidence > read[best].confidence) best = k;
    const std::vector<ReadWord>& got = read[best].words;
    const bool one_glyph = got.size() == 1 && is_glyph(got[0].text);
    if (crops[best].line >= found) {  // a letter alone found in the ink: kept when read confidently
      if (!one_glyph || read[best].confidence < o.glyph_score) continue;
      ReadWord r = got[0];  // its fractions were of the box read, `glyph_read` times the ink's
      const auto on_ink = [&](double f) { return std::clamp((f - 0.5) * o.glyph_read + 0.5, 0.0, 1.0); };
      r.from = 0, r.to = 1, r.first = on_ink(r.first), r.last = on_ink(r.last);
      TextBox box = crops[best].box;
      if (turn_to_baseline)
        if (const auto angle = baseline_direction(img, box, r.text, o.baseline)) box = box.turned_to(*angle);
      words.push_back(LineWord{box, r, crops[best].line, true});
      continue;
    }
    // A letter alone the detector found, read upright as one character: its polygon is its mark's.
    const TextBox& found_box = boxes[crops[best].line];
    if (one_glyph && !marks.empty() && utf8_decode(got[0].text).size() == 1 && lone_letter(found_box, o) && level(crops[best].box)) {
      if (const std::optional<TextBox> mark = on_its_mark(found_box, marks, o.glyphs)) {
        ReadWord r = got[0];
        r.from = 0, r.to = 1, r.first = r.last = 0.5;
        words.push_back(LineWord{*mark, r, crops[best].line, true});
        continue;
      }
    }
    LineWord w{crops[best].box, {}, crops[best].line};
    // A word alone on a short box: the box's direction says little, its letters' does.
    if (turn_to_baseline && got.size() == 1 && !found_box.bent() && found_box.length() < o.baseline.max_length * found_box.height())
      if (const auto angle = baseline_direction(img, w.line, got[0].text, o.baseline)) w.line = w.line.turned_to(*angle);
    if (crops[best].from > 0) w.line = grown(w.line, o.letter_grow, o.letter_grow);
    for (const ReadWord& r : got) {
      w.word = r;
      if (crops[best].from > 0) {  // the fractions of the box, now of the box grown
        auto in_grown = [&](double f) { return (f - 0.5) / o.letter_grow + 0.5; };
        if (r.from > 0) w.word.from = in_grown(r.from);
        if (r.to < 1) w.word.to = in_grown(r.to);
        w.word.first = in_grown(r.first);
        w.word.last = in_grown(r.last);
      }
      words.push_back(w);
    }
  }
  return words;
}

}  // namespace light::spot

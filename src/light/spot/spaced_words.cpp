#include "light/spot/spaced_words.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "light/util/unicode.h"
#include "light/util/utf8.h"

namespace light::spot {

namespace {

using maptext::Point;

Point lerp(const Point& a, const Point& b, double t) { return Point{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t}; }

// A word's place on its line, as the joining needs it.
struct Placed {
  Point first, last;  // its first and last letters' centres (on the line's middle)
  double ux = 1, uy = 0, height = 0;
  double pitch = 0;   // centre to centre (0 for a single letter)
  size_t letters = 0;  // characters (letters, full stops, apostrophes)
  bool round = false;  // a round glyph read alone as a figure or a symbol ("0", "°"): an O, if it joins
};

// A round glyph read alone as a figure or a symbol: the recogniser reads a spaced name's lone "O" as
// the figure 0 as often as not (a letter alone, no word about it to say which), and a settlement's
// circle reads the same. (Read as the letter, "O" or "o", it joins as any letter, as read.)
bool round_glyph(const std::u32string& t) { return t.size() == 1 && (t[0] == U'0' || t[0] == U'\u00b0'); }

// Words of letters (a full stop or an apostrophe among them) on a straight line; nothing else joins.
std::optional<Placed> place(const LineWord& w) {
  if (w.line.bent()) return std::nullopt;
  const std::u32string t = utf8_decode(w.word.text);
  const bool round = round_glyph(t);
  if (!round && (t.empty() || !std::all_of(t.begin(), t.end(), [](char32_t c) { return is_letter(c) || c == U'.' || c == U'\''; }) ||
                 !std::any_of(t.begin(), t.end(), [](char32_t c) { return is_letter(c); })))
    return std::nullopt;
  const auto& c = w.line.corners;  // start-top, end-top, end-bottom, start-bottom
  const Point s = lerp(c[0], c[3], 0.5), e = lerp(c[1], c[2], 0.5);
  const double length = std::hypot(e.x - s.x, e.y - s.y);
  if (length <= 0) return std::nullopt;
  Placed p;
  p.ux = (e.x - s.x) / length, p.uy = (e.y - s.y) / length;
  p.height = w.line.height();
  p.letters = t.size();
  p.round = round;
  p.first = lerp(s, e, w.word.first);
  p.last = lerp(s, e, w.word.last);
  if (p.letters >= 2) p.pitch = length * (w.word.last - w.word.first) / static_cast<double>(p.letters - 1);
  return p;
}

// Whether `b` continues the spaced word `a` in reading order (one of the two may be a single letter).
bool continues(const Placed& a, const Placed& b, const SpacedWordOptions& o) {
  if (a.letters < 2 && b.letters < 2) return false;  // two letters alone: join_spaced_letters' business
  const double h = (a.height + b.height) / 2;
  if (std::max(a.height, b.height) > o.height * std::min(a.height, b.height)) return false;
  // A single letter has no direction of its own (a letter found alone in the ink is boxed level):
  // the word's is the axis; two words' directions agree.
  const Placed& axis = a.letters >= 2 ? a : b;
  if (a.letters >= 2 && b.letters >= 2 && a.ux * b.ux + a.uy * b.uy < std::cos(o.angle * M_PI / 180)) return false;
  double pitch;
  if (a.letters >= 2 && b.letters >= 2) {
    if (std::max(a.pitch, b.pitch) > 1.4 * std::min(a.pitch, b.pitch)) return false;
    pitch = (a.pitch + b.pitch) / 2;
  } else {
    pitch = a.letters >= 2 ? a.pitch : b.pitch;
  }
  if (pitch < o.spaced_pitch * h) return false;
  const double vx = b.first.x - a.last.x, vy = b.first.y - a.last.y;
  const double along = vx * axis.ux + vy * axis.uy, across = std::abs(vy * axis.ux - vx * axis.uy);
  return across <= o.axis * h && along >= 0.5 * pitch && along <= o.gap * pitch;
}

// One word from `a` followed by `b`: a line from a's start to b's end.
LineWord joined(const LineWord& a, const LineWord& b) {
  const auto& ca = a.line.corners;
  const auto& cb = b.line.corners;
  LineWord out;
  out.read_on = a.read_on;
  out.line.score = std::min(a.line.score, b.line.score);
  out.line.corners = {lerp(ca[0], ca[1], a.word.from), lerp(cb[0], cb[1], b.word.to), lerp(cb[3], cb[2], b.word.to),
                      lerp(ca[3], ca[2], a.word.from)};
  const double na = static_cast<double>(utf8_decode(a.word.text).size()), nb = static_cast<double>(utf8_decode(b.word.text).size());
  out.word.text = a.word.text + b.word.text;
  out.word.score = (a.word.score * na + b.word.score * nb) / (na + nb);
  out.word.from = 0;
  out.word.to = 1;
  // The letters' centres on the new line: projected onto it.
  const Point s = lerp(out.line.corners[0], out.line.corners[3], 0.5), e = lerp(out.line.corners[1], out.line.corners[2], 0.5);
  const double len2 = (e.x - s.x) * (e.x - s.x) + (e.y - s.y) * (e.y - s.y);
  auto at = [&](const Point& p) { return len2 > 0 ? std::clamp(((p.x - s.x) * (e.x - s.x) + (p.y - s.y) * (e.y - s.y)) / len2, 0.0, 1.0) : 0.0; };
  const Point sa = lerp(ca[0], ca[3], 0.5), ea = lerp(ca[1], ca[2], 0.5), sb = lerp(cb[0], cb[3], 0.5), eb = lerp(cb[1], cb[2], 0.5);
  out.word.first = at(lerp(sa, ea, a.word.first));
  out.word.last = at(lerp(sb, eb, b.word.last));
  return out;
}

// A straight line from `from` to `to` (its middle's ends) along (ux, uy), `height` high.
TextBox straight_line(const Point& from, const Point& to, double ux, double uy, double height) {
  TextBox box;
  box.corners = corners_along((from.x + to.x) / 2, (from.y + to.y) / 2, std::hypot(to.x - from.x, to.y - from.y), height, ux, uy);
  return box;
}

bool spaced(const std::optional<Placed>& p, const SpacedWordOptions& o) {
  return p && !p->round && p->letters >= 2 && p->pitch >= o.spaced_pitch * p->height;
}

// Where a spaced word grows: the letters read beyond its ends (positions along its axis from its
// first letter's centre), or nothing when its own letters are not read again as they were.
struct Growth {
  std::string before, own, after;
  double first = 0, last = 0;  // the grown word's first and last letters' centres (from the old first's)
  double prob_sum = 0;
  size_t added = 0;
};

std::optional<Growth> growth(const LineWord& w, const Placed& p, const std::vector<PlacedChar>& chars, double extent, double length,
                             const SpacedWordOptions& o) {
  const double span = std::hypot(p.last.x - p.first.x, p.last.y - p.first.y);
  Growth g;
  std::vector<double> at_own;
  std::vector<std::pair<double, const PlacedChar*>> before, after;  // distances from the first letter's centre, out
  for (const PlacedChar& c : chars) {
    if (c.text.empty()) continue;
    const double at = c.at * length - extent;  // from the first letter's centre as found
    if (at < -0.5 * p.pitch) before.emplace_back(-at, &c);
    else if (at > span + 0.5 * p.pitch) after.emplace_back(at, &c);
    else if (c.text != " ") g.own += c.text, at_own.push_back(at);
  }
  // Its own letters read again with more about them: as many as before (the reading may differ: the
  // context helps it), else the reading is not of this word. Where they were read, their pitch.
  if (at_own.size() < 2 || at_own.size() != utf8_decode(w.word.text).size()) return std::nullopt;
  g.first = at_own.front(), g.last = at_own.back();
  const double P = (g.last - g.first) / static_cast<double>(at_own.size() - 1);
  if (P <= 0) return std::nullopt;
  std::sort(before.begin(), before.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::sort(after.begin(), after.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  auto letter = [](const std::string& t) {
    const std::u32string u = utf8_decode(t);
    return u.size() == 1 && is_letter(u[0]);
  };
  auto in_step = [&](double gap) { return gap >= (2 - o.gap) * P && gap <= o.gap * P; };
  // A letter with another closer than a pitch beyond it is a set-close word's ("MORGAN" after "B O U L
  // D E R"), not the spaced one's.
  auto crowded = [&](const std::vector<std::pair<double, const PlacedChar*>>& side, size_t k) {
    for (size_t n = k + 1; n < side.size(); ++n)
      if (side[n].second->text != " ") return side[n].first - side[k].first < (2 - o.gap) * P;
    return false;
  };
  // Anything but a letter ends the word (a full stop after it): a space read, and what lies beyond
  // it, is the next word's.
  for (size_t k = 0; k < before.size(); ++k) {
    const auto& [d, c] = before[k];
    if (!in_step(d + g.first) || !letter(c->text) || c->prob < o.beyond_score || crowded(before, k)) break;
    g.before = c->text + g.before, g.prob_sum += c->prob, ++g.added, g.first = -d;
  }
  const bool stopped = !w.word.text.empty() && w.word.text.back() == '.';
  for (size_t k = 0; k < after.size(); ++k) {
    const auto& [d, c] = after[k];
    if (stopped || !in_step(d - g.last) || c->prob < o.beyond_score) break;
    const bool point = c->text == ".";
    if (!point && (!letter(c->text) || crowded(after, k))) break;
    g.after += c->text, g.prob_sum += c->prob, ++g.added, g.last = d;
    if (point) break;
  }
  if (g.added == 0) return std::nullopt;
  return g;
}

}  // namespace

std::vector<LineWord> grow_spaced_words(std::vector<LineWord> words, const SpacedWordOptions& o, const CharReader& read) {
  if (o.beyond <= 0) return words;
  std::vector<bool> grown(words.size(), false), growing(words.size(), true);
  for (int round = 0; round < 32; ++round) {  // a letter or two a round; a name is seldom 32 letters long
    std::vector<size_t> which;
    std::vector<Placed> places;
    std::vector<TextBox> probes;
    std::vector<double> extents, lengths;
    for (size_t i = 0; i < words.size(); ++i) {
      if (!growing[i]) continue;
      const std::optional<Placed> p = place(words[i]);
      if (!spaced(p, o)) continue;
      const double extent = (o.beyond + 0.5) * p->pitch;
      const Point from{p->first.x - extent * p->ux, p->first.y - extent * p->uy}, to{p->last.x + extent * p->ux, p->last.y + extent * p->uy};
      which.push_back(i);
      places.push_back(*p);
      probes.push_back(straight_line(from, to, p->ux, p->uy, p->height));
      extents.push_back(extent);
      lengths.push_back(std::hypot(to.x - from.x, to.y - from.y));
    }
    if (which.empty()) break;
    const std::vector<std::vector<PlacedChar>> readings = read(probes);
    for (size_t k = 0; k < which.size(); ++k) {
      const size_t i = which[k];
      LineWord& w = words[i];
      const Placed& p = places[k];
      const std::optional<Growth> g = growth(w, p, readings[k], extents[k], lengths[k], o);
      if (!g) {
        growing[i] = false;
        continue;
      }
      // The grown word: its own line, half a pitch beyond its first and last letters' centres.
      const double n = static_cast<double>(utf8_decode(w.word.text).size()), added = static_cast<double>(g->added);
      const double half = 0.5 * (g->last - g->first) / (n + added - 1), a = g->first - half, b = g->last + half;
      const Point from{p.first.x + a * p.ux, p.first.y + a * p.uy}, to{p.first.x + b * p.ux, p.first.y + b * p.uy};
      LineWord out;
      out.read_on = w.read_on;
      out.line = straight_line(from, to, p.ux, p.uy, p.height);
      out.line.score = w.line.score;
      out.word.text = g->before + g->own + g->after;
      out.word.score = (w.word.score * n + g->prob_sum) / (n + added);
      out.word.first = half / (b - a);
      out.word.last = 1 - out.word.first;
      w = std::move(out);
      grown[i] = true;
    }
  }
  // The pieces a grown word now covers: words within its box whose letters are among its own.
  std::vector<bool> piece(words.size(), false);
  for (size_t i = 0; i < words.size(); ++i) {
    if (!grown[i]) continue;
    const auto& c = words[i].line.corners;
    const Point s = lerp(c[0], c[3], 0.5), e = lerp(c[1], c[2], 0.5);
    const double len = std::hypot(e.x - s.x, e.y - s.y), h = words[i].line.height();
    if (len <= 0) continue;
    const double ux = (e.x - s.x) / len, uy = (e.y - s.y) / len;
    const std::u32string text = utf8_decode(words[i].word.text);
    for (size_t j = 0; j < words.size(); ++j) {
      if (j == i || grown[j] || piece[j]) continue;
      const std::u32string t = utf8_decode(words[j].word.text);
      if (t.empty() || t.size() >= text.size() || text.find(t) == std::u32string::npos) continue;
      const auto& cj = words[j].line.corners;
      const Point mid = lerp(lerp(cj[0], cj[3], 0.5), lerp(cj[1], cj[2], 0.5), (words[j].word.from + words[j].word.to) / 2);
      const double along = (mid.x - s.x) * ux + (mid.y - s.y) * uy, across = std::abs((mid.y - s.y) * ux - (mid.x - s.x) * uy);
      if (along >= 0 && along <= len && across <= 0.5 * h) piece[j] = true;
    }
  }
  std::vector<LineWord> out;
  for (size_t i = 0; i < words.size(); ++i)
    if (!piece[i]) out.push_back(std::move(words[i]));
  return out;
}

std::vector<LineWord> join_spaced_words(std::vector<LineWord> words, const SpacedWordOptions& o) {
  std::vector<std::optional<Placed>> placed;
  placed.reserve(words.size());
  for (const LineWord& w : words) placed.push_back(place(w));
  // Each spaced word (a rare kind: the search is over it and every word) takes its nearest
  // continuation, after it or before it, and is looked at again as joined, until none is left.
  for (size_t i = 0; i < words.size();) {
    if (!placed[i] || placed[i]->letters < 2 || placed[i]->pitch < o.spaced_pitch * placed[i]->height) {
      ++i;
      continue;
    }
    double nearest = INFINITY;
    size_t a = 0, b = 0;
    for (size_t j = 0; j < words.size(); ++j) {
      if (j == i || !placed[j] || words[j].read_on == words[i].read_on) continue;
      for (const auto& [x, y] : {std::pair{i, j}, std::pair{j, i}}) {
        if (!continues(*placed[x], *placed[y], o)) continue;
        const double d = std::hypot(placed[y]->first.x - placed[x]->last.x, placed[y]->first.y - placed[x]->last.y);
        if (d < nearest) nearest = d, a = x, b = y;
      }
    }
    if (nearest == INFINITY) {
      ++i;
      continue;
    }
    // A round glyph joined to a spaced name is its letter O: a capital among capitals, else an "o".
    for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}})
      if (placed[x]->round) words[x].word.text = is_upper(words[y].word.text) ? "O" : "o";
    words[a] = joined(words[a], words[b]);
    placed[a] = place(words[a]);
    words.erase(words.begin() + static_cast<long>(b));
    placed.erase(placed.begin() + static_cast<long>(b));
    // On from the joined word (where it now lies) if it lies before: one of the two was word i, and
    // the words after i are yet to be looked at.
    i = std::min(i, b < a ? a - 1 : a);
  }
  return words;
}

}  // namespace light::spot

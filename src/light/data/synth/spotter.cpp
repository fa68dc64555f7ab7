#include "light/data/synth/spotter.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "light/error.h"
#include "light/geometry/polygon.h"
#include "light/util/utf8.h"

namespace light::synth {

using geometry::Point;
using Polyline = std::vector<Point>;

SpotterRates parse_spotter_rates(const std::string& spec) {
  SpotterRates r;
  if (spec == "default" || spec.empty()) return r;
  const std::map<std::string, double*> fields{{"miss", &r.miss}, {"split", &r.split}, {"merge", &r.merge},
                                              {"false_detections", &r.false_detections}, {"char_errors", &r.char_errors},
                                              {"jitter", &r.jitter}};
  std::istringstream in(spec);
  std::string item;
  std::set<std::string> seen;
  while (std::getline(in, item, ',')) {
    const auto eq = item.find('=');
    const auto it = fields.find(item.substr(0, eq));
    if (eq == std::string::npos || it == fields.end())
      throw Error("--spotter: expected name=value over miss, split, merge, false_detections, char_errors, jitter; got \"" + item + "\"");
    if (!seen.insert(it->first).second) throw Error("--spotter: \"" + it->first + "\" given twice");
    try {
      size_t used = 0;
      const double v = std::stod(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1 || !(v >= 0 && v <= 1)) throw std::invalid_argument(item);
      *it->second = v;
    } catch (const std::exception&) {
      throw Error("--spotter: \"" + item + "\": expected a rate from 0 to 1");
    }
  }
  return r;
}

namespace {

struct Rng {
  std::mt19937_64 g;
  double uni(double a, double b) { return std::uniform_real_distribution<double>(a, b)(g); }
  double normal(double sd) { return std::normal_distribution<double>(0.0, sd)(g); }
  bool chance(double p) { return uni(0, 1) < p; }
  size_t index(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(g); }
};

// The two long sides of a word polygon, both from the word's start to its end: a 2k-point polygon
// (MapText's usual shape: k points along the bottom left to right, then k along the top right to
// left) gives its halves; any other gives its box's bottom and top.
std::pair<Polyline, Polyline> sides(const std::vector<Point>& v) {
  if (v.size() >= 4 && v.size() % 2 == 0) {
    const size_t k = v.size() / 2;
    Polyline a(v.begin(), v.begin() + static_cast<long>(k)), b(v.rbegin(), v.rbegin() + static_cast<long>(k));
    return {a, b};
  }
  const geometry::BBox box = geometry::bbox(v);
  return {{{box.x0, box.y1}, {box.x1, box.y1}}, {{box.x0, box.y0}, {box.x1, box.y0}}};
}

// A polygon of `points` vertices over fractions [t0, t1] of the two sides: half along the first, half
// back along the second (16: 8 and 8).
std::vector<Point> polygon(const Polyline& a, const Polyline& b, double t0, double t1, int points) {
  const int half = points / 2;
  std::vector<Point> out;
  for (int k = 0; k < half; ++k) out.push_back(geometry::point_along(a, t0 + (t1 - t0) * k / (half - 1.0)));
  for (int k = half - 1; k >= 0; --k) out.push_back(geometry::point_along(b, t0 + (t1 - t0) * k / (half - 1.0)));
  return out;
}

double height(const Polyline& a, const Polyline& b) {
  double h = 0;
  for (double t : {0.1, 0.5, 0.9}) {
    const Point p = geometry::point_along(a, t), q = geometry::point_along(b, t);
    h += std::hypot(p.x - q.x, p.y - q.y) / 3;
  }
  return std::max(1.0, h);
}

// A spotter's polygon is smooth but off by a little at each end of each side: the four corners move
// by N(0, sd) and the points between them follow in proportion (no zig-zag, no self-intersection).
std::vector<Point> jittered(std::vector<Point> poly, double sd, Rng& r) {
  const size_t half = poly.size() / 2;  // half along the first side, then half back along the second
  Point d[4];
  for (Point& p : d) p = {r.normal(sd), r.normal(sd)};
  for (size_t k = 0; k < poly.size(); ++k) {
    const bool first = k < half;
    const double t = first ? static_cast<double>(k) / (half - 1) : static_cast<double>(poly.size() - 1 - k) / (half - 1);
    const Point& s0 = d[first ? 0 : 2];
    const Point& s1 = d[first ? 1 : 3];
    poly[k].x = std::round((poly[k].x + (1 - t) * s0.x + t * s1.x) * 100) / 100;
    poly[k].y = std::round((poly[k].y + (1 - t) * s0.y + t * s1.y) * 100) / 100;
  }
  return poly;
}

// Misreadings a spotter makes: look-alike characters, dropped accents, the other case.
char32_t misread(char32_t c, Rng& r) {
  static const std::map<char32_t, std::u32string> kAlike{
      {U'O', U"0QD"}, {U'0', U"O"}, {U'o', U"0ce"}, {U'l', U"1I|"}, {U'I', U"l1"}, {U'1', U"lI"}, {U'i', U"l1j"},
      {U'e', U"ca"},  {U'c', U"eo"}, {U'a', U"oe"},  {U'n', U"rh"},  {U'm', U"n"},   {U'h', U"b"},  {U'b', U"h"},
      {U'u', U"v"},   {U'v', U"u"},  {U'S', U"5"},   {U'5', U"S"},   {U'B', U"8"},   {U'8', U"B"},  {U'G', U"C"},
      {U'C', U"G"},   {U'E', U"F"},  {U'F', U"E"},   {U'r', U"n"},   {U't', U"f"},   {U'f', U"t"},  {U'.', U","}};
  static const std::map<char32_t, char32_t> kAccents{
      {U'à', U'a'}, {U'á', U'a'}, {U'â', U'a'}, {U'ã', U'a'}, {U'ä', U'a'}, {U'å', U'a'}, {U'ç', U'c'}, {U'è', U'e'},
      {U'é', U'e'}, {U'ê', U'e'}, {U'ë', U'e'}, {U'ì', U'i'}, {U'í', U'i'}, {U'î', U'i'}, {U'ï', U'i'}, {U'ñ', U'n'},
      {U'ò', U'o'}, {U'ó', U'o'}, {U'ô', U'o'}, {U'õ', U'o'}, {U'ö', U'o'}, {U'ø', U'o'}, {U'ù', U'u'}, {U'ú', U'u'},
      {U'û', U'u'}, {U'ü', U'u'}, {U'ý', U'y'}, {U'ÿ', U'y'}, {U'À', U'A'}, {U'Á', U'A'}, {U'Â', U'A'}, {U'Ã', U'A'},
      {U'Ä', U'A'}, {U'Å', U'A'}, {U'Ç', U'C'}, {U'È', U'E'}, {U'É', U'E'}, {U'Ê', U'E'}, {U'Ë', U'E'}, {U'Ì', U'I'},
      {U'Í', U'I'}, {U'Î', U'I'}, {U'Ï', U'I'}, {U'Ñ', U'N'}, {U'Ò', U'O'}, {U'Ó', U'O'}, {U'Ô', U'O'}, {U'Õ', U'O'},
      {U'Ö', U'O'}, {U'Ø', U'O'}, {U'Ù', U'U'}, {U'Ú', U'U'}, {U'Û', U'U'}, {U'Ü', U'U'}, {U'Ý', U'Y'}};
  if (const auto a = kAccents.find(c); a != kAccents.end()) return a->second;
  const bool ascii_letter = (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z');
  const auto alike = kAlike.find(c);
  if (alike != kAlike.end() && (!ascii_letter || r.chance(0.7))) return alike->second[r.index(alike->second.size())];
  if (ascii_letter) return static_cast<char32_t>(c ^ 0x20);  // the other case
  if (c >= U'0' && c <= U'9') return U'0' + static_cast<char32_t>(r.index(10));
  return c;
}

std::string misread_text(const std::string& text, double rate, Rng& r) {
  std::u32string s = utf8_decode(text);
  for (char32_t& c : s)
    if (r.chance(rate)) c = misread(c, r);
  return utf8_encode(s);
}

maptext::Word predicted(std::vector<Point> poly, std::string text) {
  maptext::Word w;
  w.vertices = std::move(poly);
  w.text = std::move(text);
  return w;
}

}  // namespace

maptext::Tile spot(const maptext::Tile& truth, const SpotterRates& rates, uint64_t seed, uint64_t index) {
  const int n = rates.points;
  if (n < 4 || n > 400 || n % 2 != 0)
    throw Error("--spotter-points: expected an even vertex count from 4 to 400, got " + std::to_string(n));
  Rng r{std::mt19937_64(seed * 0x9E3779B97F4A7C15ull + index * 7919 + 17)};
  std::vector<maptext::Word> found;
  geometry::BBox area{INFINITY, INFINITY, -INFINITY, -INFINITY};
  for (const maptext::Group& g : truth.groups) {
    for (size_t k = 0; k < g.size(); ++k) {
      const maptext::Word& w = g[k];
      const geometry::BBox b = geometry::bbox(w.vertices);
      area = {std::min(area.x0, b.x0), std::min(area.y0, b.y0), std::max(area.x1, b.x1), std::max(area.y1, b.y1)};
      const bool illegible = w.illegible.value_or(false);
      if (r.chance(illegible ? std::max(0.5, rates.miss) : rates.miss)) continue;
      const std::string text = w.text.value_or("");
      auto [a, bside] = sides(w.vertices);
      const double sd = rates.jitter * height(a, bside);
      const std::u32string chars = utf8_decode(text);
      // This word and the next as one, when the next follows on the same line (not stacked below).
      if (!illegible && r.chance(rates.merge) && k + 1 < g.size()) {
        auto [a2, b2] = sides(g[k + 1].vertices);
        if (std::hypot(a2.front().x - a.back().x, a2.front().y - a.back().y) < 1.5 * height(a, bside)) {
          a.insert(a.end(), a2.begin(), a2.end());
          bside.insert(bside.end(), b2.begin(), b2.end());
          found.push_back(predicted(jittered(polygon(a, bside, 0, 1, n), sd, r),
                                    misread_text(text + g[k + 1].text.value_or(""), rates.char_errors, r)));
          ++k;
          continue;
        }
      }
      if (!illegible && chars.size() >= 4 && r.chance(rates.split)) {  // two words, cut between characters
        const size_t cut = 1 + r.index(chars.size() - 1);
        const double t = static_cast<double>(cut) / static_cast<double>(chars.size());
        found.push_back(predicted(jittered(polygon(a, bside, 0, t, n), sd, r),
                                  misread_text(utf8_encode(chars.substr(0, cut)), rates.char_errors, r)));
        found.push_back(predicted(jittered(polygon(a, bside, t, 1, n), sd, r),
                                  misread_text(utf8_encode(chars.substr(cut)), rates.char_errors, r)));
        continue;
      }
      found.push_back(predicted(jittered(polygon(a, bside, 0, 1, n), sd, r), illegible ? text : misread_text(text, rates.char_errors, r)));
    }
  }
  // False detections on linework: short marks read as a letter or two.
  const size_t words = truth.word_count();
  static const std::vector<std::string> kMarks{"l", "I", "1", "-", "ll", "11", "o", "x", "+", "II", "i", "rn"};
  for (size_t k = 0; k < words && std::isfinite(area.x0); ++k) {
    if (!r.chance(rates.false_detections)) continue;
    const double w = r.uni(8, 50), h = r.uni(8, 24), cx = r.uni(area.x0, area.x1), cy = r.uni(area.y0, area.y1);
    const double angle = r.uni(-0.5, 0.5), c = std::cos(angle), s = std::sin(angle);
    const auto p = [&](double u, double v) { return Point{cx + u * c - v * s, cy + u * s + v * c}; };
    const Polyline bottom{p(-w / 2, h / 2), p(w / 2, h / 2)}, top{p(-w / 2, -h / 2), p(w / 2, -h / 2)};
    found.push_back(predicted(jittered(polygon(bottom, top, 0, 1, n), 0.0, r), kMarks[r.index(kMarks.size())]));
  }
  // A spotter reports words in no reading order, and links none.
  std::shuffle(found.begin(), found.end(), r.g);
  maptext::Tile out;
  out.image = truth.image;
  for (auto& w : found) out.groups.push_back({std::move(w)});
  return out;
}

}  // namespace light::synth

#include "light/data/synth/builder.h"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace light::synth {

namespace {
// Fonts by feature kind (cartographic convention: water in italics, areas in spaced capitals, ...)
const std::vector<std::string> kSerif{"TeX Gyre Termes", "TeX Gyre Schola", "TeX Gyre Bonum", "TeX Gyre Pagella",
                                      "Old Standard TT", "EB Garamond", "Junicode Two Beta", "DejaVu Serif"};
const std::vector<std::string> kSans{"TeX Gyre Heros", "TeX Gyre Heros Cn", "DejaVu Sans", "DejaVu Sans Condensed",
                                     "TeX Gyre Adventor"};

FontStyle font_for(NameKind kind, Rng& r, double scale) {
  FontStyle f;
  const bool water = kind == NameKind::River || kind == NameKind::Creek || kind == NameKind::Lake;
  f.family = (kind == NameKind::Railroad || kind == NameKind::Street || (kind == NameKind::Settlement && r.chance(0.3)))
                 ? r.pick(kSans)
                 : r.pick(kSerif);
  f.italic = water || (kind == NameKind::Mountain && r.chance(0.6)) || r.chance(0.08);
  f.bold = kind == NameKind::Settlement && r.chance(0.15);
  switch (kind) {
    case NameKind::Settlement: f.size_px = r.uni(18, 40); break;
    case NameKind::River: case NameKind::Creek: f.size_px = r.uni(16, 32); break;
    case NameKind::Lake: case NameKind::Mountain: f.size_px = r.uni(18, 34); break;
    case NameKind::Railroad: f.size_px = r.uni(14, 24); break;
    case NameKind::County: case NameKind::State: f.size_px = r.uni(34, 64); break;
    case NameKind::Street: f.size_px = r.uni(13, 20); break;
    case NameKind::Number: case NameKind::Letter: f.size_px = r.uni(12, 24); break;
  }
  const double ink = r.uni(0.03, 0.18);
  f.r = ink + (water ? 0.0 : r.uni(0, 0.06));
  f.g = ink;
  f.b = ink * 0.8 + (water ? r.uni(0.05, 0.25) : 0.0);
  f.size_px *= scale;
  return f;
}

}  // namespace

FontStyle Builder::font(NameKind kind) {
  FontStyle f = font_for(kind, r, opt.font_scale);
  if (opt.map_style == MapStyle::Topographic) {
    const bool water = kind == NameKind::River || kind == NameKind::Creek || kind == NameKind::Lake;
    f.family = water ? topo_water : topo_sans;
    f.italic = water;
    f.bold = false;
  }
  return f;
}

bool Builder::commit(std::vector<Placed>& words, bool allow_edge) {
  const double pad = 3.0;
  int inside = 0;
  for (const auto& w : words) {
    const BBox b = geometry::bbox(w.poly);
    if (!occ.free(padded(b, pad))) return false;
    const bool in = b.x0 >= 0 && b.y0 >= 0 && b.x1 <= W && b.y1 <= H;
    const bool out = b.x1 < 0 || b.y1 < 0 || b.x0 > W || b.y0 > H;
    if (!in && !allow_edge) return false;
    inside += out ? 0 : 1;
  }
  if (inside == 0) return false;
  maptext::Group group;
  std::vector<double> heights;
  for (auto& w : words) {
    const BBox b = geometry::bbox(w.poly);
    occ.add(padded(b, pad));
    if (b.x1 < 0 || b.y1 < 0 || b.x0 > W || b.y0 > H) continue;  // off the tile: not on this map
    const bool illegible = r.chance(0.03);
    if (illegible) w.shape.style.alpha = r.uni(0.15, 0.3);  // faded almost away
    text.draw(cr, w.shape, w.path, w.s0);
    maptext::Word mw;
    for (const Point& p : w.poly) mw.vertices.push_back({std::round(p.x * 100) / 100, std::round(p.y * 100) / 100});
    mw.text = w.text;
    mw.illegible = illegible;
    mw.truncated = !(b.x0 >= 0 && b.y0 >= 0 && b.x1 <= W && b.y1 <= H);
    heights.push_back(text.letter_height(w.text, w.shape.style));
    group.push_back(std::move(mw));
  }
  tile.groups.push_back(std::move(group));
  letter_px.push_back(std::move(heights));
  return true;
}

std::vector<WordShape> Builder::shape_all(const std::vector<std::string>& words, const FontStyle& f) {
  std::vector<WordShape> s;
  for (const auto& w : words) s.push_back(text.shape(w, f));
  return s;
}

double Builder::total(const std::vector<WordShape>& shapes, const std::vector<double>& gaps) {
  double t = 0;
  for (size_t i = 0; i < shapes.size(); ++i) t += shapes[i].advance + (i < gaps.size() ? gaps[i] : 0.0);
  return t;
}

Point Builder::random_start(double len, double angle, bool allow_edge) {
  const double m = allow_edge ? -0.5 * len : 20.0;
  Point p{r.uni(m, W - m), r.uni(m, H - m)};
  if (!allow_edge) {  // keep the whole phrase inside
    const double ex = len * std::cos(angle), ey = len * std::sin(angle);
    p.x = r.uni(std::max(20.0, 20.0 - ex), std::max(21.0, W - 20.0 - std::max(0.0, ex)));
    p.y = r.uni(std::max(40.0, 40.0 - ey), std::max(41.0, H - 20.0 - std::max(0.0, ey)));
  }
  return p;
}

bool Builder::straight(const Name& name, double angle, bool spread) {
  FontStyle f = font(name.kind);
  std::vector<std::string> words = name.words;
  // A topographic sheet's qualifier, set apart after the name: "Fort Hall (ruins)", "Alder Mill".
  static const std::vector<std::string> kQualifiers{"(ruins)", "(site)", "Mill", "Sta.", "P.O.", "(abandoned)", "Spring"};
  const bool qualified = opt.map_style == MapStyle::Topographic && !spread &&
                         (name.kind == NameKind::Settlement || name.kind == NameKind::Mountain) && r.chance(0.25);
  if (qualified) words.push_back(r.pick(kQualifiers));
  if (spread) {
    for (auto& w : words) w = to_upper_ascii(w);
    f.letter_spacing_px = f.size_px * r.uni(0.5, 1.5);
  }
  const auto shapes = shape_all(words, f);
  const double space = spread ? f.size_px * r.uni(1.5, 4.0) : f.size_px * r.uni(0.25, 0.45);
  std::vector<double> gaps(words.size(), space);
  if (qualified && words.size() >= 2) gaps[words.size() - 2] = f.size_px * r.uni(1.0, 2.5);
  const double len = total(shapes, gaps);
  const bool edge = r.chance(0.12);
  for (int attempt = 0; attempt < 6; ++attempt) {
    const Point p = random_start(len, angle, edge);
    const Path path = Path::line(p, angle, len + 10);
    auto placed = along(words, shapes, path, 0.0, gaps, word_margin(f.size_px, false));
    if (commit(placed, edge)) {
      if (name.kind == NameKind::Settlement && !spread) town_symbol(path, f.size_px);
      return true;
    }
  }
  return false;
}

bool Builder::number_row() {
  std::vector<const Feature*> roads;
  for (const Feature& feat : features)
    if (feat.kind == Feature::Road) roads.push_back(&feat);
  if (roads.empty()) return false;
  const Feature& road = *r.pick(roads);
  FontStyle f = font(NameKind::Number);
  f.size_px *= r.uni(0.6, 1.0);  // house numbers are small beside the streets' names
  const int count = r.integer(3, 8);
  const int step = r.chance(0.6) ? 2 : (r.chance(0.6) ? 1 : 4);  // one side of a street, lots in a row, every other lot
  const int first = r.integer(1, 400) | (step == 2 && r.chance(0.5) ? 1 : 0);
  const int rising = r.chance(0.5) ? 1 : -1;
  const bool upright = r.chance(0.5);
  const double pitch = f.size_px * r.uni(2.5, 6.0);  // centre to centre along the road
  const double side = (r.chance(0.5) ? 1.0 : -1.0) * (r.uni(8, 14) + 0.8 * f.size_px);
  const double length = road.path.length(), span = pitch * (count - 1);
  if (length < span + 80) return false;
  const double s0 = r.uni(40, length - span - 40);
  const Path edge = road.path.offset(side);
  int placed = 0;
  for (int k = 0; k < count; ++k) {
    const int number = first + rising * step * k;
    if (number < 1) break;
    const std::vector<std::string> words{std::to_string(number)};
    const auto shapes = shape_all(words, f);
    const double s = s0 + pitch * k;
    double a = upright ? 0.0 : edge.angle(s);
    if (a > kPi / 2) a -= kPi;  // read left to right, or upwards
    if (a < -kPi / 2) a += kPi;
    const Point c = edge.at(s);
    // The number's middle on the row: its baseline half an x-height below, its start half its advance back.
    const double half = 0.5 * shapes[0].advance, drop = 0.35 * f.size_px;
    const Point start{c.x - half * std::cos(a) - drop * std::sin(a), c.y - half * std::sin(a) + drop * std::cos(a)};
    auto one = along(words, shapes, Path::line(start, a, shapes[0].advance + 10), 0.0, {0.0}, word_margin(f.size_px, false));
    placed += commit(one, false);
  }
  return placed > 0;
}

void Builder::town_symbol(const Path& path, double size) {
  const Point p = path.at(-0.6 * size);
  const double a = path.angle(0);
  const double x = p.x + std::sin(a) * 0.35 * size, y = p.y - std::cos(a) * 0.35 * size;
  cairo_set_source_rgb(cr, 0.1, 0.08, 0.06);
  cairo_arc(cr, x, y, 0.18 * size, 0, 2 * kPi);
  if (r.chance(0.5)) cairo_fill(cr);
  else cairo_set_line_width(cr, 1.5), cairo_stroke(cr);
}

bool Builder::curved(const Name& name) {
  const FontStyle f = font(name.kind);
  const auto shapes = shape_all(name.words, f);
  std::vector<double> gaps(name.words.size(), f.size_px * r.uni(0.3, 0.5));
  const double len = total(shapes, gaps);
  for (int attempt = 0; attempt < 6; ++attempt) {
    const double a0 = r.uni(-0.8, 0.8), bend = r.uni(-1.0, 1.0) * std::min(0.9, len / (4.5 * f.size_px) * 0.25);
    const Point p = random_start(len, a0, false);
    std::vector<Point> c{p};
    for (int k = 1; k <= 4; ++k) {
      const double a = a0 + bend * (k - 2.0) / 2.0 + (r.chance(0.3) ? r.uni(-0.15, 0.15) : 0.0);
      c.push_back({c.back().x + (len + 20) / 4 * std::cos(a), c.back().y + (len + 20) / 4 * std::sin(a)});
    }
    const Path path = Path::smooth(c, 2.0);
    if (path.max_curvature() > 1.0 / (4.0 * f.size_px)) continue;
    auto placed = along(name.words, shapes, path, 0.0, gaps, word_margin(f.size_px, true));
    if (commit(placed, false)) return true;
  }
  return false;
}

bool Builder::stacked(const Name& name) {
  if (name.words.size() < 2) return straight(name, 0.0, false);
  const FontStyle f = font(name.kind);
  const auto shapes = shape_all(name.words, f);
  const int lines = std::min<int>(static_cast<int>(name.words.size()), r.integer(2, 3));
  std::vector<std::vector<int>> rows(lines);
  for (size_t i = 0; i < name.words.size(); ++i)
    rows[std::min<size_t>(lines - 1, i * lines / name.words.size())].push_back(static_cast<int>(i));
  const double space = f.size_px * 0.35, lead = f.size_px * r.uni(1.15, 1.45), angle = r.chance(0.7) ? 0.0 : r.uni(-0.4, 0.4);
  for (int attempt = 0; attempt < 6; ++attempt) {
    const Point c{r.uni(150, W - 150), r.uni(100, H - 150)};
    std::vector<Placed> all;
    for (int l = 0; l < lines; ++l) {
      std::vector<std::string> ws;
      std::vector<WordShape> ss;
      for (int i : rows[l]) ws.push_back(name.words[i]), ss.push_back(shapes[i]);
      std::vector<double> gaps(ws.size(), space);
      const double len = total(ss, gaps) - space;
      const double ox = -0.5 * len, oy = l * lead;
      const Point start{c.x + ox * std::cos(angle) - oy * std::sin(angle), c.y + ox * std::sin(angle) + oy * std::cos(angle)};
      const Path path = Path::line(start, angle, len + 10);
      auto placed = along(ws, ss, path, 0.0, gaps, word_margin(f.size_px, false));
      all.insert(all.end(), placed.begin(), placed.end());
    }
    if (commit(all, false)) return true;
  }
  return false;
}

Path Builder::label_path(const Feature& feat, double s0, double s1, double size) {
  Path piece = feat.path.slice(s0, s1, 2.0);
  if (std::cos(piece.angle(0.5 * piece.length())) < 0) {  // never upside down: read left to right
    auto pts = piece.points();
    std::reverse(pts.begin(), pts.end());
    piece = Path(pts);
  }
  return piece.offset(-((feat.kind == Feature::Road ? 7.0 : 4.0) + 0.25 * size));
}

bool Builder::along_feature(const Name& name, const Feature& feat) {
  if (opt.real_stacks && name.words.size() >= 2 && r.chance(0.5) && words_along_a_bend(name, feat)) return true;
  FontStyle f = font(name.kind);
  const auto shapes = shape_all(name.words, f);
  std::vector<double> gaps;
  for (size_t i = 0; i < name.words.size(); ++i)
    gaps.push_back(r.chance(0.35) ? r.uni(1.0, 4.0) * shapes[i].advance + f.size_px : f.size_px * r.uni(0.3, 0.5));
  const double len = total(shapes, gaps);
  if (feat.path.length() < len + 100) return false;
  for (int attempt = 0; attempt < 6; ++attempt) {
    const double s = r.uni(20, feat.path.length() - len - 40);
    const Path path = label_path(feat, s, s + len + 20, f.size_px);
    if (path.max_curvature() > 1.0 / (4.0 * f.size_px)) continue;
    auto placed = along(name.words, shapes, path, 5.0, gaps, word_margin(f.size_px, true));
    if (!commit(placed, true)) continue;
    std::vector<double> ends;  // where each word ends along the path
    for (const Placed& w : placed) ends.push_back(w.s0 + w.shape.advance);
    label_gaps(path, ends, gaps, f.size_px, 0.6);
    return true;
  }
  return false;
}

bool Builder::words_along_a_bend(const Name& name, const Feature& feat) {
  const FontStyle f = font(name.kind);
  const auto shapes = shape_all(name.words, f);
  std::vector<double> gaps;
  for (size_t i = 0; i + 1 < name.words.size(); ++i) gaps.push_back(f.size_px * r.uni(0.3, 1.5));
  const double len = total(shapes, gaps);
  for (int attempt = 0; attempt < 8; ++attempt) {
    Path path;
    if (attempt < 4 && feat.path.length() > len + 100) {
      // A stretch of the feature that bends (a meander, a road's curve), not so sharply that a word overhangs it.
      const double s = r.uni(20, feat.path.length() - len - 40);
      path = label_path(feat, s, s + len + 20, f.size_px);
      const double k = path.max_curvature() * f.size_px;
      if (k > 1.0 / 1.5 || k < 1.0 / 6) continue;
    } else {  // the feature runs straight here: the name follows a bend of its own (a ridge, a valley)
      const double a0 = r.uni(-0.4, 0.4), turn = (r.chance(0.5) ? 1.0 : -1.0) * r.uni(0.5, 1.3);
      std::vector<double> angles;
      for (int k = 1; k <= 6; ++k) angles.push_back(a0 + turn * (k - 0.5) / 6.0);
      path = Path::bent(random_start(len, a0, false), len + 20, angles);
    }
    auto placed = each_at_its_angle(name.words, shapes, path, 5.0, gaps, word_margin(f.size_px, false), false);
    if (commit(placed, attempt < 4)) return true;
  }
  return false;
}

void Builder::label_gaps(const Path& path, const std::vector<double>& ends, const std::vector<double>& gaps, double size,
                         double chance) {
  for (size_t i = 0; i + 1 < ends.size() && i < gaps.size(); ++i) {
    if (gaps[i] < 2.0 * size || !r.chance(chance)) continue;
    const Point q = path.at(ends[i] + 0.5 * gaps[i]);
    Name d = name(r.chance(0.5) ? NameKind::Number : NameKind::Settlement);
    const FontStyle df = font(NameKind::Number);
    const auto ds = shape_all(d.words, df);
    std::vector<double> dg(d.words.size(), df.size_px * 0.35);
    const double dl = total(ds, dg);
    const Path dp = Path::line({q.x - 0.5 * dl, q.y - r.uni(0.8, 2.0) * size}, 0.0, dl + 10);
    auto dw = along(d.words, ds, dp, 0.0, dg, word_margin(df.size_px, false));
    commit(dw, false);
  }
}

void Builder::cluster() {
  const Point c{r.uni(200, W - 200), r.uni(200, H - 200)};
  for (int k = r.integer(8, 18); k > 0; --k) {
    const NameKind kinds[] = {NameKind::Number, NameKind::Letter, NameKind::Settlement, NameKind::Street};
    Name n = name(kinds[r.integer(0, 3)]);
    // Two words at most; a world name cut there would end on a particle ("Rue de"), which no sheet prints.
    if (n.words.size() > 2 && opt.world_names > 0) n = names.make(n.kind, r.g);
    if (n.words.size() > 2) n.words.resize(2);
    FontStyle f = font(n.kind);
    f.size_px = r.uni(11, 18) * opt.font_scale;
    const auto shapes = shape_all(n.words, f);
    std::vector<double> gaps(n.words.size(), f.size_px * 0.35);
    const double len = total(shapes, gaps);
    const Path p = Path::line({c.x + r.uni(-220, 220), c.y + r.uni(-220, 220)}, r.chance(0.8) ? 0.0 : r.uni(-1.2, 1.2), len + 10);
    auto placed = along(n.words, shapes, p, 0.0, gaps, word_margin(f.size_px, false));
    commit(placed, false);
  }
}

int Builder::phrase_budget() const {
  const double area = static_cast<double>(W) * H / 4.0e6;
  // Labels per area by style: a regional map is sparse, a chart crowded with soundings.
  const double per_style[] = {1.0, 0.7, 1.0, 2.0, 0.35};
  return std::max(1, static_cast<int>(std::lround(60 * opt.density * area * per_style[static_cast<int>(opt.map_style)])));
}

void Builder::lettering() {
  const int phrases = phrase_budget();
  const LayoutMix m = opt.map_style == MapStyle::Atlas ? opt.layouts : style_layouts(opt.map_style);
  if (opt.map_style == MapStyle::Topographic) topo_sans = r.pick(kSans), topo_water = r.pick(kSerif);
  // Cumulative shares: exact sums of the weights, each divided once, so that weights in proportion
  // to the defaults draw the same tiles.
  // The layouts added later (lines, spaced) come last and weigh 0 in the first sets' mixes: their
  // tiles draw as before.
  const double w[9] = {m.along, m.straight, m.rotated, m.curved, m.stacked, m.spread, m.numbers, m.lines, m.spaced};
  double cum[9], sum = 0;
  for (int i = 0; i < 9; ++i) sum += w[i], cum[i] = sum;
  for (double& c : cum) c /= sum;
  if (r.chance(m.clusters)) cluster();
  for (int k = 0; k < phrases; ++k) {
    const double u = r.uni(0, 1);
    int layout = 8;
    while (layout > 0 && u < cum[layout - 1]) --layout;
    if (layout == 0 && features.empty()) layout = 1;  // no linework to follow: horizontal
    switch (layout) {
      case 0: {
        const Feature& feat = r.pick(features);
        const NameKind kind = feat.kind == Feature::River     ? (r.chance(0.5) ? NameKind::River : NameKind::Creek)
                              : feat.kind == Feature::Road    ? NameKind::Street
                              : feat.kind == Feature::Contour ? NameKind::Mountain
                                                              : NameKind::Railroad;
        along_feature(name(kind), feat);
        break;
      }
      case 1: {
        const NameKind kinds[] = {NameKind::Settlement, NameKind::Settlement, NameKind::Lake, NameKind::Mountain, NameKind::County};
        straight(name(kinds[r.integer(0, 4)]), 0.0, false);
        break;
      }
      case 2: {
        const NameKind kinds[] = {NameKind::Settlement, NameKind::Creek, NameKind::Lake, NameKind::Mountain, NameKind::River};
        const double a = r.chance(0.15) ? (r.chance(0.5) ? -kPi / 2 : kPi / 2) : r.uni(-1.2, 1.2);
        straight(name(kinds[r.integer(0, 4)]), a, false);
        break;
      }
      case 3: {
        const NameKind kinds[] = {NameKind::River, NameKind::Creek, NameKind::Lake, NameKind::Mountain};
        curved(name(kinds[r.integer(0, 3)]));
        break;
      }
      case 4: {
        const NameKind kinds[] = {NameKind::Settlement, NameKind::Lake, NameKind::Mountain, NameKind::County};
        stacked(name(kinds[r.integer(0, 3)]));
        break;
      }
      case 5:
        straight(name(r.chance(0.5) ? NameKind::State : NameKind::County), r.chance(0.7) ? 0.0 : r.uni(-0.3, 0.3), true);
        break;
      case 7: {
        const NameKind kinds[] = {NameKind::Settlement, NameKind::Lake, NameKind::Mountain, NameKind::County, NameKind::Railroad};
        lines_label(r.chance(0.45) ? descriptive_name() : name(kinds[r.integer(0, 4)]));
        break;
      }
      case 8:  // along a feature, or else across a region
        spaced_name(r.chance(0.6) && !features.empty() ? &r.pick(features) : nullptr);
        break;
      default:
        if (opt.number_rows > 0 && r.chance(opt.number_rows) && number_row()) break;
        if (opt.map_style == MapStyle::Nautical) {  // soundings: upright depths
          straight(name(NameKind::Number), 0.0, false);
          break;
        }
        straight(name(r.chance(0.6) ? NameKind::Number : NameKind::Letter), r.chance(0.8) ? 0.0 : r.uni(-1.0, 1.0), false);
    }
  }
}

void Builder::age() {
  Aging& a = aging;  // drawn in the order finish() drew them before, so that tiles stay as they were
  a.texture_seed = r.g();
  a.shade = r.uni(0.02, 0.05);
  a.aged = opt.style == Style::Aged || (opt.style == Style::Mixed && r.chance(0.5));
  if (a.aged) {
    a.blur = r.uni(0.4, 1.1);
    a.noise = r.uni(2.0, 7.0);
    a.jpeg = r.chance(0.7);
    if (a.jpeg) a.quality = r.integer(35, 75);
  }
  for (size_t g = 0; g < tile.groups.size(); ++g)
    for (size_t k = 0; k < tile.groups[g].size(); ++k)
      if (!legible(letter_px[g][k], a.blur, opt.min_letter_px)) tile.groups[g][k].illegible = true;
}

void Builder::finish(SynthImage* image) {
  cairo_surface_flush(surface);
  cv::Mat bgra(H, W, CV_8UC4, cairo_image_surface_get_data(surface), cairo_image_surface_get_stride(surface));
  cv::Mat bgr;
  cv::cvtColor(bgra, bgr, cv::COLOR_BGRA2BGR);
  cv::RNG cvr(aging.texture_seed);
  // Paper texture: low-frequency shading.
  cv::Mat low(std::max(4, H / 40), std::max(4, W / 40), CV_32F);
  cvr.fill(low, cv::RNG::NORMAL, 0.0, 1.0);
  cv::GaussianBlur(low, low, cv::Size(0, 0), 2.5);
  cv::normalize(low, low, -1.0, 1.0, cv::NORM_MINMAX);
  cv::Mat shade;
  cv::resize(low, shade, bgr.size(), 0, 0, cv::INTER_CUBIC);
  cv::Mat f;
  bgr.convertTo(f, CV_32FC3);
  std::vector<cv::Mat> ch;
  cv::split(f, ch);
  for (auto& c : ch) c = c.mul(1.0 + aging.shade * shade);
  cv::merge(ch, f);
  if (aging.aged) {
    cv::GaussianBlur(f, f, cv::Size(0, 0), aging.blur);
    cv::Mat noise(f.size(), CV_32FC3);
    cvr.fill(noise, cv::RNG::NORMAL, 0.0, aging.noise);
    f += noise;
  }
  f.convertTo(bgr, CV_8UC3);
  if (aging.jpeg) {
    std::vector<unsigned char> buf;
    cv::imencode(".jpg", bgr, buf, {cv::IMWRITE_JPEG_QUALITY, aging.quality});
    bgr = cv::imdecode(buf, cv::IMREAD_COLOR);
  }
  image->width = W;
  image->height = H;
  image->bgr.assign(bgr.data, bgr.data + bgr.total() * 3);
}

}  // namespace light::synth

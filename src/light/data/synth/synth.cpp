#include "light/data/synth/synth.h"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <random>

#include "light/data/synth/canvas.h"
#include "light/data/synth/path.h"
#include "light/data/synth/text_render.h"
#include "light/geometry/polygon.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/parallel.h"
#include "light/util/progress.h"

namespace light::synth {

using geometry::BBox;

Style parse_style(const std::string& name) {
  if (name == "clean") return Style::Clean;
  if (name == "aged") return Style::Aged;
  if (name == "mixed") return Style::Mixed;
  throw Error("--style: expected clean, aged or mixed, got \"" + name + "\"");
}

namespace {
// Each style's name and layout mix (along, straight, rotated, curved, stacked, spread, numbers, clusters).
struct StyleRow {
  MapStyle style;
  const char* name;
  LayoutMix layouts;
};
const StyleRow kStyles[] = {
    {MapStyle::Atlas, "atlas", LayoutMix{}},
    {MapStyle::Topographic, "topographic", {35, 12, 28, 8, 12, 2, 3, 0.1}},
    {MapStyle::City, "city", {55, 12, 3, 0, 5, 3, 22, 0.5}},
    {MapStyle::Nautical, "nautical", {6, 12, 8, 4, 3, 2, 65, 0.2}},
    {MapStyle::Regional, "regional", {25, 42, 8, 5, 3, 12, 5, 0.0}},
};
}  // namespace

MapStyle parse_map_style(const std::string& name) {
  if (name == "classic") return MapStyle::Atlas;
  for (const StyleRow& row : kStyles)
    if (name == row.name) return row.style;
  throw Error("map style: expected atlas, topographic, city, nautical or regional, got \"" + name + "\"");
}

bool is_map_style(const std::string& name) {
  for (const StyleRow& row : kStyles)
    if (name == row.name) return true;
  return false;
}

const char* map_style_name(MapStyle style) { return kStyles[static_cast<int>(style)].name; }

LayoutMix style_layouts(MapStyle style) { return kStyles[static_cast<int>(style)].layouts; }

LayoutMix parse_layouts(const std::string& spec) {
  if (spec == "default" || spec == "classic") return {};
  if (spec == "curvy") {
    LayoutMix m;
    m.along = 30, m.straight = 8, m.rotated = 22, m.curved = 32, m.stacked = 3, m.spread = 2, m.numbers = 3;
    return m;
  }
  LayoutMix m;
  double* const fields[] = {&m.along, &m.straight, &m.rotated, &m.curved, &m.stacked, &m.spread, &m.numbers};
  const char* const names[] = {"along", "straight", "rotated", "curved", "stacked", "spread", "numbers"};
  for (double* f : fields) *f = 0;
  std::string expected = "expected default, curvy or a list such as \"curved=3,rotated=1\" (layouts:";
  for (const char* n : names) expected += std::string(n == names[0] ? " " : ", ") + n;
  expected += ")";
  if (spec.empty()) throw Error("--layouts: " + expected);
  double sum = 0;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = spec.find(',', start);
    if (end == std::string::npos) end = spec.size();
    const std::string item = spec.substr(start, end - start);
    const size_t eq = item.find('=');
    int k = -1;
    for (int i = 0; i < 7 && eq != std::string::npos; ++i)
      if (item.compare(0, eq, names[i]) == 0 && eq == std::strlen(names[i])) k = i;
    if (k < 0) throw Error("--layouts: unknown item \"" + item + "\"; " + expected);
    double w = -1;
    try {
      size_t used = 0;
      w = std::stod(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1) w = -1;
    } catch (const std::exception&) {
      w = -1;
    }
    if (!(w >= 0 && std::isfinite(w))) throw Error("--layouts: \"" + item + "\": the weight must be a number >= 0");
    *fields[k] = w;
    sum += w;
    start = end + 1;
  }
  if (!(sum > 0)) throw Error("--layouts: \"" + spec + "\": at least one weight must be above 0");
  return m;
}

namespace {

// ------------------------------------------------------------------------------------------------
// Fonts by feature kind (cartographic convention: water in italics, areas in spaced capitals, ...)
// ------------------------------------------------------------------------------------------------
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

// ------------------------------------------------------------------------------------------------
// The tile under construction: lettering on the canvas
// ------------------------------------------------------------------------------------------------
struct Builder : Canvas {
  const Gazetteer& names;
  const SynthOptions& opt;
  TextRenderer text;
  Occupancy occ;
  maptext::Tile tile;

  std::string topo_sans, topo_water;  // a topographic sheet's two faces

  Builder(const Gazetteer& n, const SynthOptions& o, uint64_t seed)
      : Canvas(o.width, o.height, seed), names(n), opt(o), occ(o.width, o.height) {}

  // The face and size for a name of `kind`; a topographic sheet keeps to its two faces.
  FontStyle font(NameKind kind) {
    FontStyle f = font_for(kind, r, opt.font_scale);
    if (opt.map_style == MapStyle::Topographic) {
      const bool water = kind == NameKind::River || kind == NameKind::Creek || kind == NameKind::Lake;
      f.family = water ? topo_water : topo_sans;
      f.italic = water;
      f.bold = false;
    }
    return f;
  }

  // --- lettering --------------------------------------------------------------------------------
  struct Placed {
    WordShape shape;
    Path path;
    double s0;
    std::vector<Point> poly;
    std::string text;
  };

  // Checks a candidate phrase against the free space and the tile; on success draws it and records
  // it as one group in reading order. Words entirely outside the tile are left out; words cut by the
  // border are flagged truncated.
  bool commit(std::vector<Placed>& words, bool allow_edge) {
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
      group.push_back(std::move(mw));
    }
    tile.groups.push_back(std::move(group));
    return true;
  }

  std::vector<WordShape> shape_all(const std::vector<std::string>& words, const FontStyle& f) {
    std::vector<WordShape> s;
    for (const auto& w : words) s.push_back(text.shape(w, f));
    return s;
  }

  // Words one after another along `path` from arc length `start`, with the given gaps after each.
  std::vector<Placed> along(const std::vector<std::string>& words, const std::vector<WordShape>& shapes, const Path& path,
                            double start, const std::vector<double>& gaps, double margin) {
    std::vector<Placed> out;
    double s = start;
    for (size_t i = 0; i < words.size(); ++i) {
      out.push_back({shapes[i], path, s, TextRenderer::polygon(shapes[i], path, s, margin), words[i]});
      s += shapes[i].advance + (i < gaps.size() ? gaps[i] : 0.0);
    }
    return out;
  }

  static double total(const std::vector<WordShape>& shapes, const std::vector<double>& gaps) {
    double t = 0;
    for (size_t i = 0; i < shapes.size(); ++i) t += shapes[i].advance + (i < gaps.size() ? gaps[i] : 0.0);
    return t;
  }

  Point random_start(double len, double angle, bool allow_edge) {
    const double m = allow_edge ? -0.5 * len : 20.0;
    Point p{r.uni(m, W - m), r.uni(m, H - m)};
    if (!allow_edge) {  // keep the whole phrase inside
      const double ex = len * std::cos(angle), ey = len * std::sin(angle);
      p.x = r.uni(std::max(20.0, 20.0 - ex), std::max(21.0, W - 20.0 - std::max(0.0, ex)));
      p.y = r.uni(std::max(40.0, 40.0 - ey), std::max(41.0, H - 20.0 - std::max(0.0, ey)));
    }
    return p;
  }

  // Straight or rotated phrase; `spread` sets spaced capitals with wide gaps.
  bool straight(const Name& name, double angle, bool spread) {
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

  void town_symbol(const Path& path, double size) {
    const Point p = path.at(-0.6 * size);
    const double a = path.angle(0);
    const double x = p.x + std::sin(a) * 0.35 * size, y = p.y - std::cos(a) * 0.35 * size;
    cairo_set_source_rgb(cr, 0.1, 0.08, 0.06);
    cairo_arc(cr, x, y, 0.18 * size, 0, 2 * kPi);
    if (r.chance(0.5)) cairo_fill(cr);
    else cairo_set_line_width(cr, 1.5), cairo_stroke(cr);
  }

  // Along a smooth curve of its own (gentle: radius at least ~4 letter heights).
  bool curved(const Name& name) {
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

  // Over two or three stacked lines, centred; reading order is line by line.
  bool stacked(const Name& name) {
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

  // Along a river, road or rail line, reading left to right, words sometimes far apart, with other
  // labels put into the wide gaps.
  bool along_feature(const Name& name, const Feature& feat) {
    FontStyle f = font(name.kind);
    const auto shapes = shape_all(name.words, f);
    std::vector<double> gaps;
    for (size_t i = 0; i < name.words.size(); ++i)
      gaps.push_back(r.chance(0.35) ? r.uni(1.0, 4.0) * shapes[i].advance + f.size_px : f.size_px * r.uni(0.3, 0.5));
    const double len = total(shapes, gaps);
    if (feat.path.length() < len + 100) return false;
    for (int attempt = 0; attempt < 6; ++attempt) {
      const double s = r.uni(20, feat.path.length() - len - 40);
      Path piece = feat.path.slice(s, s + len + 20, 2.0);
      const double mid = piece.angle(0.5 * piece.length());
      if (std::cos(mid) < 0) {  // never upside down: read left to right
        auto pts = piece.points();
        std::reverse(pts.begin(), pts.end());
        piece = Path(pts);
      }
      const double lift = (feat.kind == Feature::Road ? 7.0 : 4.0) + 0.25 * f.size_px;
      const Path path = piece.offset(-lift);
      if (path.max_curvature() > 1.0 / (4.0 * f.size_px)) continue;
      auto placed = along(name.words, shapes, path, 5.0, gaps, word_margin(f.size_px, true));
      if (!commit(placed, true)) continue;
      // Other labels between the words of the phrase.
      for (size_t i = 0; i + 1 < placed.size(); ++i) {
        if (gaps[i] < 2.0 * f.size_px || !r.chance(0.6)) continue;
        const double sg = placed[i].s0 + placed[i].shape.advance + 0.5 * gaps[i];
        const Point q = path.at(sg);
        Name d = names.make(r.chance(0.5) ? NameKind::Number : NameKind::Settlement, r.g);
        const FontStyle df = font(NameKind::Number);
        const auto ds = shape_all(d.words, df);
        std::vector<double> dg(d.words.size(), df.size_px * 0.35);
        const double dl = total(ds, dg);
        const Path dp = Path::line({q.x - 0.5 * dl, q.y - r.uni(0.8, 2.0) * f.size_px}, 0.0, dl + 10);
        auto dw = along(d.words, ds, dp, 0.0, dg, word_margin(df.size_px, false));
        commit(dw, false);
      }
      return true;
    }
    return false;
  }

  // A dense cluster of small labels.
  void cluster() {
    const Point c{r.uni(200, W - 200), r.uni(200, H - 200)};
    for (int k = r.integer(8, 18); k > 0; --k) {
      const NameKind kinds[] = {NameKind::Number, NameKind::Letter, NameKind::Settlement, NameKind::Street};
      Name n = names.make(kinds[r.integer(0, 3)], r.g);
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

  void lettering() {
    const double area = static_cast<double>(W) * H / 4.0e6;
    // Labels per area by style: a regional map is sparse, a chart crowded with soundings.
    const double per_style[] = {1.0, 0.7, 1.0, 2.0, 0.35};
    const int phrases =
        std::max(1, static_cast<int>(std::lround(60 * opt.density * area * per_style[static_cast<int>(opt.map_style)])));
    const LayoutMix m = opt.map_style == MapStyle::Atlas ? opt.layouts : style_layouts(opt.map_style);
    if (opt.map_style == MapStyle::Topographic) topo_sans = r.pick(kSans), topo_water = r.pick(kSerif);
    // Cumulative shares: exact sums of the weights, each divided once, so that weights in proportion
    // to the defaults draw the same tiles.
    const double w[7] = {m.along, m.straight, m.rotated, m.curved, m.stacked, m.spread, m.numbers};
    double cum[7], sum = 0;
    for (int i = 0; i < 7; ++i) sum += w[i], cum[i] = sum;
    for (double& c : cum) c /= sum;
    if (r.chance(m.clusters)) cluster();
    for (int k = 0; k < phrases; ++k) {
      const double u = r.uni(0, 1);
      int layout = 6;
      while (layout > 0 && u < cum[layout - 1]) --layout;
      if (layout == 0 && features.empty()) layout = 1;  // no linework to follow: horizontal
      switch (layout) {
        case 0: {
          const Feature& feat = r.pick(features);
          const NameKind kind = feat.kind == Feature::River     ? (r.chance(0.5) ? NameKind::River : NameKind::Creek)
                                : feat.kind == Feature::Road    ? NameKind::Street
                                : feat.kind == Feature::Contour ? NameKind::Mountain
                                                                : NameKind::Railroad;
          along_feature(names.make(kind, r.g), feat);
          break;
        }
        case 1: {
          const NameKind kinds[] = {NameKind::Settlement, NameKind::Settlement, NameKind::Lake, NameKind::Mountain, NameKind::County};
          straight(names.make(kinds[r.integer(0, 4)], r.g), 0.0, false);
          break;
        }
        case 2: {
          const NameKind kinds[] = {NameKind::Settlement, NameKind::Creek, NameKind::Lake, NameKind::Mountain, NameKind::River};
          const double a = r.chance(0.15) ? (r.chance(0.5) ? -kPi / 2 : kPi / 2) : r.uni(-1.2, 1.2);
          straight(names.make(kinds[r.integer(0, 4)], r.g), a, false);
          break;
        }
        case 3: {
          const NameKind kinds[] = {NameKind::River, NameKind::Creek, NameKind::Lake, NameKind::Mountain};
          curved(names.make(kinds[r.integer(0, 3)], r.g));
          break;
        }
        case 4: {
          const NameKind kinds[] = {NameKind::Settlement, NameKind::Lake, NameKind::Mountain, NameKind::County};
          stacked(names.make(kinds[r.integer(0, 3)], r.g));
          break;
        }
        case 5:
          straight(names.make(r.chance(0.5) ? NameKind::State : NameKind::County, r.g), r.chance(0.7) ? 0.0 : r.uni(-0.3, 0.3), true);
          break;
        default:
          if (opt.map_style == MapStyle::Nautical) {  // soundings: upright depths
            straight(names.make(NameKind::Number, r.g), 0.0, false);
            break;
          }
          straight(names.make(r.chance(0.6) ? NameKind::Number : NameKind::Letter, r.g), r.chance(0.8) ? 0.0 : r.uni(-1.0, 1.0), false);
      }
    }
  }

  // --- pixels ------------------------------------------------------------------------------------
  void finish(SynthImage* image) {
    cairo_surface_flush(surface);
    cv::Mat bgra(H, W, CV_8UC4, cairo_image_surface_get_data(surface), cairo_image_surface_get_stride(surface));
    cv::Mat bgr;
    cv::cvtColor(bgra, bgr, cv::COLOR_BGRA2BGR);
    cv::RNG cvr(r.g());
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
    const double amp = r.uni(0.02, 0.05);
    for (auto& c : ch) c = c.mul(1.0 + amp * shade);
    cv::merge(ch, f);
    const bool aged = opt.style == Style::Aged || (opt.style == Style::Mixed && r.chance(0.5));
    if (aged) {
      cv::GaussianBlur(f, f, cv::Size(0, 0), r.uni(0.4, 1.1));
      cv::Mat noise(f.size(), CV_32FC3);
      cvr.fill(noise, cv::RNG::NORMAL, 0.0, r.uni(2.0, 7.0));
      f += noise;
    }
    f.convertTo(bgr, CV_8UC3);
    if (aged && r.chance(0.7)) {
      std::vector<unsigned char> buf;
      cv::imencode(".jpg", bgr, buf, {cv::IMWRITE_JPEG_QUALITY, r.integer(35, 75)});
      bgr = cv::imdecode(buf, cv::IMREAD_COLOR);
    }
    image->width = W;
    image->height = H;
    image->bgr.assign(bgr.data, bgr.data + bgr.total() * 3);
  }
};

}  // namespace

SynthOptions tile_options(const SynthOptions& options, uint64_t index) {
  SynthOptions o = options;
  if (!o.vary_side && !o.vary_density && !o.vary_height && !o.vary_style) return o;
  // The tile's own stream, apart from the one that draws its content.
  Rng r(mix(mix(o.seed, index), 0x5CA1Eull));
  const auto log_uniform = [&](double lo, double hi) { return std::exp(r.uni(std::log(lo), std::log(hi))); };
  const ScaleRanges& g = o.ranges;
  const double side = log_uniform(g.side_min, g.side_max), density = log_uniform(g.density_min, g.density_max),
               height = log_uniform(g.height_min, g.height_max);
  if (o.vary_side) o.width = o.height = static_cast<int>(std::lround(side));
  if (o.vary_density) o.density = density;
  if (o.vary_height) o.font_scale = height * std::sqrt(static_cast<double>(o.width) * o.height) / 24.0;
  if (o.vary_style) o.map_style = static_cast<MapStyle>(r.integer(0, 4));
  return o;
}

void turn_tile(maptext::Tile& tile, SynthImage* image, int width, int height, int turns) {
  turns = ((turns % 4) + 4) % 4;
  if (turns == 0) return;
  for (auto& group : tile.groups)
    for (auto& w : group)
      for (auto& p : w.vertices) {
        double W = width, H = height;
        for (int t = 0; t < turns; ++t) {  // clockwise: (x, y) -> (H - y, x) in a W x H frame, which becomes H x W
          const double x = p.x;
          p.x = H - p.y, p.y = x;
          std::swap(W, H);
        }
      }
  if (image) {
    if (image->width != width || image->height != height || image->bgr.size() != static_cast<size_t>(width) * height * 3)
      throw Error("turn_tile: the image is not the tile's size");
    const cv::Mat in(height, width, CV_8UC3, image->bgr.data());
    cv::Mat out;
    cv::rotate(in, out, turns == 1 ? cv::ROTATE_90_CLOCKWISE : turns == 2 ? cv::ROTATE_180 : cv::ROTATE_90_COUNTERCLOCKWISE);
    image->width = out.cols, image->height = out.rows;
    image->bgr.assign(out.data, out.data + out.total() * 3);
  }
}

maptext::Tile generate_tile(const Gazetteer& names, const SynthOptions& options, uint64_t index, const std::string& image_key,
                            SynthImage* image) {
  SynthOptions opt = tile_options(options, index);
  if (opt.width < 64 || opt.height < 64) throw Error("--size: tiles must be at least 64 x 64 pixels");
  // A tile whose lettering is too large for it to place any word is made again with fonts half the
  // size (every tile of a training set needs a word).
  for (int attempt = 0;; ++attempt) {
    Builder b(names, opt, mix(opt.seed, index));
    b.tile.image = image_key;
    b.background(opt.map_style);
    b.lettering();
    if (!b.tile.groups.empty() || attempt == 5) {
      if (image) b.finish(image);
      turn_tile(b.tile, image, opt.width, opt.height, opt.quarter_turns);
      return std::move(b.tile);
    }
    opt.font_scale *= 0.5;
  }
}

maptext::Tile phrase_tile(const std::vector<std::string>& words, PhraseLayout layout, int width, int height,
                          uint64_t seed, SynthImage* image) {
  SynthOptions opt;
  opt.width = width;
  opt.height = height;
  opt.style = Style::Clean;
  const Gazetteer names("");
  Builder b(names, opt, mix(seed, 0));
  b.tile.image = "phrase.png";
  cairo_set_source_rgb(b.cr, 1, 1, 1);
  cairo_paint(b.cr);
  Name name{words, NameKind::Lake};
  for (int attempt = 0; attempt < 20 && b.tile.groups.empty(); ++attempt) {
    switch (layout) {
      case PhraseLayout::Straight: b.straight(name, 0.0, false); break;
      case PhraseLayout::Rotated: b.straight(name, b.r.uni(-1.2, 1.2), false); break;
      case PhraseLayout::Curved: b.curved(name); break;
      case PhraseLayout::Stacked: b.stacked(name); break;
      case PhraseLayout::Spread: b.straight(name, 0.0, true); break;
    }
  }
  if (b.tile.groups.empty()) throw Error("phrase_tile: the phrase does not fit the tile");
  if (image) b.finish(image);
  return std::move(b.tile);
}

std::vector<unsigned char> encode_png(const SynthImage& image) {
  const cv::Mat m(image.height, image.width, CV_8UC3, const_cast<unsigned char*>(image.bgr.data()));
  std::vector<unsigned char> buf;
  if (!cv::imencode(".png", m, buf, {cv::IMWRITE_PNG_COMPRESSION, 3})) throw Error("PNG encoding failed");
  return buf;
}

maptext::Dataset synthesize(const Gazetteer& names, const SynthOptions& opt, const std::string& out_dir, int count,
                            int threads, bool progress) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(fs::path(out_dir) / "images", ec);
  if (ec) throw Error(out_dir + ": cannot create the output folder: " + ec.message());
  maptext::Dataset data(static_cast<size_t>(count));
  Progress bar("synth", static_cast<size_t>(count), "tiles");
  parallel_for(static_cast<size_t>(count), threads, [&](size_t k, int) {
    char name[64];
    std::snprintf(name, sizeof name, "images/tile_%06zu.png", k);
    SynthImage img;
    data[k] = generate_tile(names, opt, static_cast<uint64_t>(k), name, &img);
    const auto png = encode_png(img);
    write_file_atomic((fs::path(out_dir) / name).string(), std::string(png.begin(), png.end()));
    if (progress) bar.add();
  });
  if (progress) bar.finish();
  maptext::write_maptext((fs::path(out_dir) / "annotations.json").string(), data);
  return data;
}

}  // namespace light::synth

#include "light/data/synth/canvas.h"

namespace light::synth {

Canvas::Canvas(int width, int height, uint64_t seed) : r(seed), W(width), H(height) {
  surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
  cr = cairo_create(surface);
}

Canvas::~Canvas() {
  cairo_destroy(cr);
  cairo_surface_destroy(surface);
}

Point Canvas::edge_point() {
  switch (r.integer(0, 3)) {
    case 0: return {r.uni(0, W), -20.0};
    case 1: return {r.uni(0, W), H + 20.0};
    case 2: return {-20.0, r.uni(0, H)};
    default: return {W + 20.0, r.uni(0, H)};
  }
}
Path Canvas::wandering_path(double wiggle) {
  const Point a = edge_point();
  Point b = edge_point();
  for (int k = 0; k < 5 && std::hypot(b.x - a.x, b.y - a.y) < 0.6 * std::min(W, H); ++k) b = edge_point();
  std::vector<Point> c;
  const int n = 6;
  const double len = std::hypot(b.x - a.x, b.y - a.y), nx = -(b.y - a.y) / len, ny = (b.x - a.x) / len;
  double off = 0;
  for (int k = 0; k <= n; ++k) {
    const double t = static_cast<double>(k) / n;
    if (k > 0 && k < n) off = 0.6 * off + r.uni(-1, 1) * wiggle;
    else off = 0;
    c.push_back({a.x + t * (b.x - a.x) + nx * off, a.y + t * (b.y - a.y) + ny * off});
  }
  return Path::smooth(c, 3.0);
}
void Canvas::stroke_path(const Path& p) {
  const auto& pts = p.points();
  if (pts.empty()) return;
  cairo_move_to(cr, pts[0].x, pts[0].y);
  for (size_t k = 1; k < pts.size(); ++k) cairo_line_to(cr, pts[k].x, pts[k].y);
  cairo_stroke(cr);
}
void Canvas::ink_colour(double alpha, double blue) {
  const double v = r.uni(0.1, 0.3);
  cairo_set_source_rgba(cr, v, v * 0.9, v * 0.8 + blue, alpha);
}

void Canvas::double_line(const Path& p, double width, double edges, double alpha) {
  cairo_set_line_width(cr, width + edges);
  ink_colour(alpha);
  stroke_path(p);
  cairo_set_line_width(cr, width);
  cairo_set_source_rgb(cr, paper[0], paper[1], paper[2]);
  stroke_path(p);
}

void Canvas::background(MapStyle style) {
  paper[0] = r.uni(0.90, 0.97);
  paper[1] = paper[0] - r.uni(0.02, 0.07);
  paper[2] = paper[1] - r.uni(0.05, 0.14);
  cairo_set_source_rgb(cr, paper[0], paper[1], paper[2]);
  cairo_paint(cr);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  if (style == MapStyle::City) return street_grid();
  if (style == MapStyle::Nautical) return chart_linework();
  const double scale = std::sqrt(static_cast<double>(W) * H) / 2000.0;
  // Stains
  for (int k = r.integer(0, 4); k > 0; --k) {
    const double cx = r.uni(0, W), cy = r.uni(0, H), rad = r.uni(40, 280) * scale;
    cairo_pattern_t* g = cairo_pattern_create_radial(cx, cy, 0, cx, cy, rad);
    cairo_pattern_add_color_stop_rgba(g, 0, 0.55, 0.40, 0.20, r.uni(0.05, 0.16));
    cairo_pattern_add_color_stop_rgba(g, 1, 0.55, 0.40, 0.20, 0);
    cairo_set_source(cr, g);
    cairo_arc(cr, cx, cy, rad, 0, 2 * kPi);
    cairo_fill(cr);
    cairo_pattern_destroy(g);
  }
  // Contour-like curves around a few summits (a topographic sheet has more, and names along them)
  for (int k = r.integer(0, 4) + (style == MapStyle::Topographic ? 3 : 0); k > 0; --k) {
    const double cx = r.uni(0, W), cy = r.uni(0, H), r0 = r.uni(30, 90), step = r.uni(18, 40);
    const double ph[3] = {r.uni(0, 6.3), r.uni(0, 6.3), r.uni(0, 6.3)}, am[3] = {r.uni(0.05, 0.2), r.uni(0.02, 0.1), r.uni(0.02, 0.08)};
    cairo_set_line_width(cr, r.uni(0.8, 1.6));
    ink_colour(r.uni(0.35, 0.7));
    for (int ring = 0, rings = r.integer(3, 8); ring < rings; ++ring) {
      std::vector<Point> c;
      const double rad = r0 + ring * step;
      for (int a = 0; a <= 48; ++a) {
        const double t = 2 * kPi * a / 48;
        const double f = 1 + am[0] * std::sin(2 * t + ph[0]) + am[1] * std::sin(3 * t + ph[1]) + am[2] * std::sin(5 * t + ph[2]);
        c.push_back({cx + rad * f * std::cos(t), cy + rad * f * 0.8 * std::sin(t)});
      }
      Path contour = Path::smooth(c, 4.0);
      stroke_path(contour);
      if (style == MapStyle::Topographic) features.push_back({std::move(contour), Feature::Contour});
    }
  }
  // Hatching
  for (int k = r.integer(0, 3); k > 0; --k) {
    const double cx = r.uni(0, W), cy = r.uni(0, H), rad = r.uni(60, 240), ang = r.uni(0, kPi), sp = r.uni(5, 10);
    cairo_save(cr);
    cairo_arc(cr, cx, cy, rad, 0, 2 * kPi);
    cairo_clip(cr);
    cairo_set_line_width(cr, r.uni(0.6, 1.2));
    ink_colour(r.uni(0.3, 0.6));
    const double dx = std::cos(ang), dy = std::sin(ang);
    for (double o = -rad; o <= rad; o += sp) {
      cairo_move_to(cr, cx - dy * o - dx * rad, cy + dx * o - dy * rad);
      cairo_line_to(cr, cx - dy * o + dx * rad, cy + dx * o + dy * rad);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
  }
  // Section lines (thin straight grid)
  if (r.chance(0.3)) {
    const double sp = r.uni(300, 700);
    cairo_set_line_width(cr, 0.8);
    ink_colour(0.35);
    for (double x = r.uni(0, sp); x < W; x += sp) cairo_move_to(cr, x, 0), cairo_line_to(cr, x, H);
    for (double y = r.uni(0, sp); y < H; y += sp) cairo_move_to(cr, 0, y), cairo_line_to(cr, W, y);
    cairo_stroke(cr);
  }
  // Rivers
  for (int k = r.integer(1, 3); k > 0; --k) {
    Path p = wandering_path(r.uni(60, 220) * scale);
    cairo_set_line_width(cr, r.uni(1.5, 4.5));
    ink_colour(0.85, 0.12);
    stroke_path(p);
    features.push_back({std::move(p), Feature::River});
  }
  // Roads (double lines)
  for (int k = r.integer(1, 4); k > 0; --k) {
    Path p = wandering_path(r.uni(10, 80) * scale);
    double_line(p, r.uni(4, 8), 2.4, 0.9);
    features.push_back({std::move(p), Feature::Road});
  }
  // Rail lines with ties
  for (int k = r.integer(0, 2); k > 0; --k) {
    Path p = wandering_path(r.uni(5, 40) * scale);
    cairo_set_line_width(cr, 1.6);
    ink_colour(0.9);
    stroke_path(p);
    const double sp = r.uni(9, 14), half = r.uni(3, 5);
    for (double s = 0; s < p.length(); s += sp) {
      const Point q = p.at(s);
      const double a = p.angle(s), nx = -std::sin(a), ny = std::cos(a);
      cairo_move_to(cr, q.x - nx * half, q.y - ny * half);
      cairo_line_to(cr, q.x + nx * half, q.y + ny * half);
    }
    cairo_set_line_width(cr, 1.2);
    cairo_stroke(cr);
    features.push_back({std::move(p), Feature::Rail});
  }
}

// A street plan: two families of parallel streets (double lines) crossing at right angles, turned
// by up to 30 degrees, a block or two apart; now and then a river through it.
void Canvas::street_grid() {
  const double angle = r.uni(-0.5, 0.5), diag = std::hypot(W, H), cx = W / 2.0, cy = H / 2.0;
  const double block = r.uni(0.08, 0.16) * std::min(W, H) + 60;
  for (int dir = 0; dir < 2; ++dir) {
    const double a = angle + dir * kPi / 2, dx = std::cos(a), dy = std::sin(a), nx = -dy, ny = dx;
    for (double o = -diag / 2 + r.uni(0, block); o < diag / 2; o += block * r.uni(0.8, 1.25)) {
      const Point start{cx + nx * o - dx * diag / 2, cy + ny * o - dy * diag / 2};
      Path p = Path::line(start, a, diag);
      double_line(p, r.uni(5, 9), 2.0, 0.85);
      features.push_back({std::move(p), Feature::Road});
    }
  }
  if (r.chance(0.3)) {
    Path p = wandering_path(r.uni(60, 160));
    cairo_set_line_width(cr, r.uni(6, 14));
    ink_colour(0.6, 0.15);
    stroke_path(p);
    features.push_back({std::move(p), Feature::River});
  }
}

// A chart: a coastline with the land tinted, dashed depth contours off it, and a river or two.
void Canvas::chart_linework() {
  Path coast = wandering_path(r.uni(80, 260));
  const auto& pts = coast.points();
  cairo_move_to(cr, pts[0].x, pts[0].y);
  for (const Point& p : pts) cairo_line_to(cr, p.x, p.y);
  // Close the land side through the tile's far corner from the centre of the water.
  const Point mid = coast.at(coast.length() / 2);
  cairo_line_to(cr, mid.x < W / 2.0 ? -50.0 : W + 50.0, mid.y < H / 2.0 ? -50.0 : H + 50.0);
  cairo_close_path(cr);
  cairo_set_source_rgba(cr, 0.75, 0.62, 0.40, r.uni(0.15, 0.3));
  cairo_fill(cr);
  cairo_set_line_width(cr, r.uni(1.5, 3));
  ink_colour(0.9);
  stroke_path(coast);
  features.push_back({coast, Feature::River});
  const double dash[2] = {r.uni(6, 12), r.uni(4, 8)};
  cairo_set_dash(cr, dash, 2, 0);
  for (int k = r.integer(2, 4); k > 0; --k) {
    cairo_set_line_width(cr, r.uni(0.8, 1.4));
    ink_colour(0.5, 0.2);
    stroke_path(wandering_path(r.uni(60, 200)));
  }
  cairo_set_dash(cr, nullptr, 0, 0);
  for (int k = r.integer(0, 2); k > 0; --k) {
    Path p = wandering_path(r.uni(60, 200));
    cairo_set_line_width(cr, r.uni(1.5, 3.5));
    ink_colour(0.85, 0.12);
    stroke_path(p);
    features.push_back({std::move(p), Feature::River});
  }
}

}  // namespace light::synth

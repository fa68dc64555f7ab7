#include "light/data/synth/text_render.h"

#include <cairo.h>
#include <pango/pangocairo.h>

#include <cmath>
#include <map>
#include <mutex>
#include <tuple>

namespace light::synth {

namespace {
// Cairo 1.16's font caches are shared between threads and not safe to use from two at once (seen:
// crashes in cairo_scaled_font_glyph_extents). All Pango and Cairo text work takes this lock; the
// rest of a tile (background, effects, encoding) runs in parallel.
std::recursive_mutex& text_lock() {
  static std::recursive_mutex m;
  return m;
}
}  // namespace

struct TextRenderer::Impl {
  PangoFontMap* font_map = nullptr;
  PangoContext* context = nullptr;
  // letter_height per px of font size, by face, italic, bold and small letters or capitals: the
  // metrics are unhinted, so ink heights scale with the size, and a tile's faces are few.
  std::map<std::tuple<std::string, bool, bool, bool>, double> letter_heights;
};

TextRenderer::TextRenderer() : impl_(std::make_unique<Impl>()) {
  std::lock_guard<std::recursive_mutex> lock(text_lock());
  // One font map and context per renderer (per tile). The shared default font map caches every font
  // size it has seen, and word sizes are drawn from a continuous range, so over thousands of tiles its
  // lookups slowed `light synth` down (3,000 tiles: 16 tiles/s at first, 6.7 on average); a map per
  // tile gives the same fonts and glyphs. Unhinted metrics so glyphs sit at exact fractional positions.
  impl_->font_map = pango_cairo_font_map_new();
  impl_->context = pango_font_map_create_context(impl_->font_map);
  cairo_font_options_t* fo = cairo_font_options_create();
  cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
  pango_cairo_context_set_font_options(impl_->context, fo);
  cairo_font_options_destroy(fo);
}

TextRenderer::~TextRenderer() {
  std::lock_guard<std::recursive_mutex> lock(text_lock());
  g_object_unref(impl_->context);
  g_object_unref(impl_->font_map);
}

double TextRenderer::letter_height(const std::string& text, const FontStyle& style) {
  bool small = false;  // a small letter of any script: "é", "ß" and "ł" as "e"
  for (const char* p = text.c_str(); *p && !small; p = g_utf8_next_char(p)) small = g_unichar_islower(g_utf8_get_char(p));
  auto [at, added] = impl_->letter_heights.try_emplace({style.family, style.italic, style.bold, small}, 0.0);
  if (added) {
    FontStyle plain = style;
    plain.letter_spacing_px = 0;
    plain.size_px = 100;
    const WordShape s = shape(small ? "x" : "H", plain);
    at->second = (s.ink_bottom - s.ink_top) / plain.size_px;
  }
  return at->second * style.size_px;
}

WordShape TextRenderer::shape(const std::string& text, const FontStyle& style) {
  std::lock_guard<std::recursive_mutex> lock(text_lock());
  PangoLayout* layout = pango_layout_new(impl_->context);
  PangoFontDescription* desc = pango_font_description_from_string(style.family.c_str());
  pango_font_description_set_absolute_size(desc, style.size_px * PANGO_SCALE);
  pango_font_description_set_style(desc, style.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
  pango_font_description_set_weight(desc, style.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description(layout, desc);
  pango_font_description_free(desc);
  if (style.letter_spacing_px != 0) {
    PangoAttrList* attrs = pango_attr_list_new();
    pango_attr_list_insert(attrs, pango_attr_letter_spacing_new(static_cast<int>(style.letter_spacing_px * PANGO_SCALE)));
    pango_layout_set_attributes(layout, attrs);
    pango_attr_list_unref(attrs);
  }
  pango_layout_set_text(layout, text.c_str(), -1);

  PangoRectangle ink, logical;
  pango_layout_get_extents(layout, &ink, &logical);
  const double baseline = pango_layout_get_baseline(layout) / static_cast<double>(PANGO_SCALE);
  WordShape w;
  w.style = style;
  w.advance = logical.width / static_cast<double>(PANGO_SCALE);
  w.ink_x0 = ink.x / static_cast<double>(PANGO_SCALE);
  w.ink_x1 = (ink.x + ink.width) / static_cast<double>(PANGO_SCALE);
  w.ink_top = ink.y / static_cast<double>(PANGO_SCALE) - baseline;
  w.ink_bottom = (ink.y + ink.height) / static_cast<double>(PANGO_SCALE) - baseline;
  w.layout = std::shared_ptr<void>(layout, [](void* p) {
    std::lock_guard<std::recursive_mutex> lock(text_lock());
    g_object_unref(p);
  });
  return w;
}

void TextRenderer::draw(cairo_t* cr, const WordShape& w, const Path& path, double s0) {
  std::lock_guard<std::recursive_mutex> lock(text_lock());
  auto* layout = static_cast<PangoLayout*>(w.layout.get());
  const double baseline = pango_layout_get_baseline(layout) / static_cast<double>(PANGO_SCALE);
  cairo_save(cr);
  cairo_set_source_rgba(cr, w.style.r, w.style.g, w.style.b, w.style.alpha);
  const bool straight = path.max_curvature() < 1e-6;
  if (straight) {
    const Point p = path.at(s0);
    cairo_translate(cr, p.x, p.y);
    cairo_rotate(cr, path.angle(s0));
    cairo_move_to(cr, 0, -baseline);
    pango_cairo_show_layout(cr, layout);
  } else {
    // Each glyph at the arc length of its centre, turned to the local tangent.
    PangoLayoutIter* iter = pango_layout_get_iter(layout);
    PangoGlyphString* one = pango_glyph_string_new();
    pango_glyph_string_set_size(one, 1);
    do {
      PangoLayoutRun* run = pango_layout_iter_get_run_readonly(iter);
      if (!run) continue;
      PangoRectangle logical;
      pango_layout_iter_get_run_extents(iter, nullptr, &logical);
      double x = logical.x / static_cast<double>(PANGO_SCALE);
      for (int i = 0; i < run->glyphs->num_glyphs; ++i) {
        const PangoGlyphInfo& gi = run->glyphs->glyphs[i];
        const double gw = gi.geometry.width / static_cast<double>(PANGO_SCALE);
        const double centre = x + 0.5 * gw;
        const Point p = path.at(s0 + centre);
        cairo_save(cr);
        cairo_translate(cr, p.x, p.y);
        cairo_rotate(cr, path.angle(s0 + centre));
        cairo_move_to(cr, -0.5 * gw, 0);
        one->glyphs[0] = gi;
        one->log_clusters[0] = 0;
        pango_cairo_show_glyph_string(cr, run->item->analysis.font, one);
        cairo_restore(cr);
        x += gw;
      }
    } while (pango_layout_iter_next_run(iter));
    pango_glyph_string_free(one);
    pango_layout_iter_free(iter);
  }
  cairo_restore(cr);
}

std::vector<Point> TextRenderer::polygon(const WordShape& w, const Path& path, double s0, double margin) {
  std::vector<Point> bottom, top;
  const double x0 = w.ink_x0 - margin, x1 = w.ink_x1 + margin;
  const double down = w.ink_bottom + margin, up = w.ink_top - margin;
  for (int k = 0; k < 8; ++k) {
    const double s = s0 + x0 + (x1 - x0) * k / 7.0;
    const Point p = path.at(s);
    const double a = path.angle(s), nx = -std::sin(a), ny = std::cos(a);  // normal: below the text
    bottom.push_back({p.x + nx * down, p.y + ny * down});
    top.push_back({p.x + nx * up, p.y + ny * up});
  }
  std::vector<Point> poly(bottom);
  poly.insert(poly.end(), top.rbegin(), top.rend());
  return poly;
}

double word_margin(double size_px, bool curved) { return curved ? 1.5 + 0.08 * size_px : 1.0 + 0.04 * size_px; }

std::vector<unsigned char> render_word_alone(const std::string& text, const FontStyle& style, const Path& path,
                                             double s0, int width, int height, std::vector<Point>& poly) {
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_A8, width, height);
  cairo_t* cr = cairo_create(surface);
  TextRenderer renderer;
  const WordShape w = renderer.shape(text, style);
  FontStyle opaque = style;
  opaque.alpha = 1.0;
  WordShape wo = w;
  wo.style = opaque;
  renderer.draw(cr, wo, path, s0);
  poly = TextRenderer::polygon(w, path, s0, word_margin(style.size_px, path.max_curvature() >= 1e-6));
  cairo_surface_flush(surface);
  std::vector<unsigned char> grey(static_cast<size_t>(width) * height);
  const unsigned char* data = cairo_image_surface_get_data(surface);
  const int stride = cairo_image_surface_get_stride(surface);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) grey[static_cast<size_t>(y) * width + x] = static_cast<unsigned char>(255 - data[y * stride + x]);
  cairo_destroy(cr);
  cairo_surface_destroy(surface);
  return grey;
}

}  // namespace light::synth

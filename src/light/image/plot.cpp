#include "light/image/plot.h"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "light/error.h"
#include "light/util/fs.h"

namespace light::image {
namespace {

void set_rgb(cairo_t* cr, uint32_t rgb) {
  cairo_set_source_rgb(cr, ((rgb >> 16) & 255) / 255.0, ((rgb >> 8) & 255) / 255.0, (rgb & 255) / 255.0);
}

// "Nice" tick positions covering [lo, hi], at least `min_step` apart.
std::vector<double> ticks(double lo, double hi, int target, double min_step = 0) {
  const double span = hi - lo;
  const double raw = std::max(min_step, span / std::max(1, target));
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw && (min_step < 1 || std::round(m * mag) == m * mag)) {  // integer steps for integer axes
      step = m * mag;
      break;
    }
  std::vector<double> out;
  for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + 1e-9 * step; t += step) out.push_back(std::abs(t) < 1e-12 * step ? 0 : t);
  return out;
}

std::string format_tick(double v) {
  char buf[32];
  if (v != 0 && (std::abs(v) >= 1e5 || std::abs(v) < 1e-3)) std::snprintf(buf, sizeof buf, "%.0e", v);
  else std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

void text(cairo_t* cr, double x, double y, const std::string& s, double align_x, double align_y) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, s.c_str(), &e);
  cairo_move_to(cr, x - e.x_bearing - align_x * e.width, y - e.y_bearing - align_y * e.height);
  cairo_show_text(cr, s.c_str());
}

void draw_panel(cairo_t* cr, const Panel& p, double ox, double w, double h) {
  const double left = ox + 62, right = ox + w - 14, top = 34, bottom = h - 44;
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (const auto& s : p.series)
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.y[i]) || !std::isfinite(s.x[i]) || (p.log_y && s.y[i] <= 0)) continue;
      x0 = std::min(x0, s.x[i]), x1 = std::max(x1, s.x[i]);
      const double y = p.log_y ? std::log10(s.y[i]) : s.y[i];
      y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
  if (!std::isfinite(x0)) x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  bool integer_x = true;
  for (const auto& s : p.series)
    for (double x : s.x) integer_x = integer_x && x == std::round(x);
  if (x1 - x0 < 1e-12) x0 -= 0.5, x1 += 0.5;
  if (y1 - y0 < 1e-12) y0 -= 0.5, y1 += 0.5;
  const double pad = 0.05 * (y1 - y0);
  y0 -= pad, y1 += pad;
  if (!p.log_y && std::isfinite(p.y_min)) y0 = p.y_min;
  if (!p.log_y && std::isfinite(p.y_max)) y1 = p.y_max;
  auto X = [&](double x) { return left + (x - x0) / (x1 - x0) * (right - left); };
  auto Y = [&](double y) { return bottom - ((p.log_y ? std::log10(y) : y) - y0) / (y1 - y0) * (bottom - top); };

  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size(cr, 13);
  set_rgb(cr, 0x222222);
  text(cr, (left + right) / 2, 10, p.title, 0.5, 0);
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 10.5);
  // Grid and ticks.
  cairo_set_line_width(cr, 1);
  const auto xt = ticks(x0, x1, 6, integer_x ? 1.0 : 0.0);
  for (double t : xt) {
    if (t < x0 || t > x1) continue;
    set_rgb(cr, 0xe6e6e6);
    cairo_move_to(cr, std::round(X(t)) + 0.5, top), cairo_line_to(cr, std::round(X(t)) + 0.5, bottom), cairo_stroke(cr);
    set_rgb(cr, 0x444444);
    text(cr, X(t), bottom + 5, format_tick(t), 0.5, 0);
  }
  // Tick values in data units; positions on a log axis are their logarithms.
  std::vector<double> yt = axis_ticks(p.log_y ? std::pow(10.0, y0) : y0, p.log_y ? std::pow(10.0, y1) : y1, p.log_y, false);
  if (p.log_y)
    for (double& t : yt) t = std::log10(t);
  for (double t : yt) {
    if (t < y0 || t > y1) continue;
    const double yy = bottom - (t - y0) / (y1 - y0) * (bottom - top);
    set_rgb(cr, 0xe6e6e6);
    cairo_move_to(cr, left, std::round(yy) + 0.5), cairo_line_to(cr, right, std::round(yy) + 0.5), cairo_stroke(cr);
    set_rgb(cr, 0x444444);
    text(cr, left - 5, yy, format_tick(p.log_y ? std::pow(10.0, t) : t), 1, 0.5);
  }
  text(cr, (left + right) / 2, h - 16, p.x_label, 0.5, 0);
  set_rgb(cr, 0x888888);
  cairo_rectangle(cr, left + 0.5, top + 0.5, right - left, bottom - top);
  cairo_stroke(cr);
  if (p.mark_x >= 0 && p.mark_x >= x0 && p.mark_x <= x1) {
    const double dash[] = {4, 3};
    cairo_set_dash(cr, dash, 2, 0);
    set_rgb(cr, 0x999999);
    cairo_move_to(cr, X(p.mark_x), top), cairo_line_to(cr, X(p.mark_x), bottom), cairo_stroke(cr);
    cairo_set_dash(cr, nullptr, 0, 0);
  }
  // Lines, with a dot on every point (a one-epoch run still shows).
  cairo_save(cr);
  cairo_rectangle(cr, left, top, right - left, bottom - top);
  cairo_clip(cr);
  for (const auto& s : p.series) {
    set_rgb(cr, s.rgb);
    cairo_set_line_width(cr, 2);
    bool pen = false;
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.y[i]) || (p.log_y && s.y[i] <= 0)) {
        pen = false;
        continue;
      }
      if (pen) cairo_line_to(cr, X(s.x[i]), Y(s.y[i]));
      else cairo_move_to(cr, X(s.x[i]), Y(s.y[i]));
      pen = true;
    }
    cairo_stroke(cr);
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
      if (std::isfinite(s.y[i]) && !(p.log_y && s.y[i] <= 0)) {
        cairo_arc(cr, X(s.x[i]), Y(s.y[i]), 2.5, 0, 2 * M_PI);
        cairo_fill(cr);
      }
  }
  cairo_restore(cr);
  // Legend, top right.
  double ly = top + 8;
  for (const auto& s : p.series) {
    cairo_text_extents_t e;
    cairo_text_extents(cr, s.name.c_str(), &e);
    const double lx = right - 10 - e.x_advance;
    set_rgb(cr, 0xffffff);
    cairo_rectangle(cr, lx - 24, ly - 2, e.x_advance + 30, 16);
    cairo_fill(cr);
    set_rgb(cr, s.rgb);
    cairo_set_line_width(cr, 2);
    cairo_move_to(cr, lx - 20, ly + 6), cairo_line_to(cr, lx - 5, ly + 6), cairo_stroke(cr);
    set_rgb(cr, 0x222222);
    text(cr, lx, ly + 6, s.name, 0, 0.5);
    ly += 16;
  }
}

}  // namespace

std::vector<double> axis_ticks(double lo, double hi, bool log_scale, bool integers) {
  if (!log_scale) return ticks(lo, hi, 5, integers ? 1.0 : 0.0);
  // 1, 2, 5 x 10^k; only the powers of ten when that is too many; plain ticks when fewer than two.
  const double a = std::log10(lo), b = std::log10(hi);
  static const double kSteps[2][3] = {{1, 2, 5}, {1, 0, 0}};
  std::vector<double> out;
  for (const double* ms : kSteps) {
    out.clear();
    for (int k = static_cast<int>(std::floor(a)) - 1; k <= static_cast<int>(std::ceil(b)); ++k)
      for (int m = 0; m < 3; ++m) {
        const double v = ms[m] * std::pow(10.0, k);
        if (ms[m] > 0 && v >= lo * (1 - 1e-12) && v <= hi * (1 + 1e-12)) out.push_back(v);
      }
    if (out.size() <= 8) break;
  }
  if (out.size() < 2) {
    out.clear();
    for (double t : ticks(a, b, 4)) out.push_back(std::pow(10.0, t));
  }
  return out;
}

void write_plot_png(const std::string& path, const std::vector<Panel>& panels, int panel_width, int height) {
  const int width = panel_width * static_cast<int>(std::max<size_t>(1, panels.size()));
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
  cairo_t* cr = cairo_create(surface);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  for (size_t i = 0; i < panels.size(); ++i) draw_panel(cr, panels[i], static_cast<double>(i) * panel_width, panel_width, height);
  cairo_destroy(cr);
  std::string png;
  const cairo_status_t status = cairo_surface_write_to_png_stream(
      surface,
      [](void* closure, const unsigned char* data, unsigned int length) {
        static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
        return CAIRO_STATUS_SUCCESS;
      },
      &png);
  cairo_surface_destroy(surface);
  if (status != CAIRO_STATUS_SUCCESS) throw Error(path + ": cannot write the PNG (" + cairo_status_to_string(status) + ")");
  write_file_atomic(path, png);
}

}  // namespace light::image

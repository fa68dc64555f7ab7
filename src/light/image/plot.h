// Line charts drawn with Cairo, for people to look at: training curves (RUN/curves.png).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace light::image {

// The k-th of ten distinct line colours (matplotlib's "tab10" order), cycling.
inline uint32_t palette_colour(size_t k) {
  constexpr uint32_t kTab10[] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf};
  return kTab10[k % 10];
}

struct Series {
  std::string name;
  std::vector<double> x, y;  // non-finite y values are skipped
  uint32_t rgb = 0x1f77b4;   // 0xRRGGBB
};

struct Panel {
  std::string title, x_label;
  std::vector<Series> series;
  double mark_x = -1;  // a dashed vertical line here (e.g. the best epoch), when >= 0
  bool log_y = false;  // logarithmic y axis (positive values only)
  double y_min = NAN, y_max = NAN;  // a fixed y range (e.g. 0 and 1 for scores), when finite
};

// The tick values an axis from lo to hi gets: "nice" steps (1, 2, 2.5, 5 x 10^k; at least 1 apart
// when `integers`), or on a log axis 1, 2, 5 x 10^k (powers of ten only when that is too many).
std::vector<double> axis_ticks(double lo, double hi, bool log_scale, bool integers);

// Draws the panels side by side (each panel_width x height pixels, with axes, ticks, a title and a
// legend) and writes a PNG to `path` (written to a temporary file, then renamed).
void write_plot_png(const std::string& path, const std::vector<Panel>& panels, int panel_width = 440, int height = 330);

}  // namespace light::image

#include "light/data/link_weights.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "light/error.h"
#include "light/geometry/line_chains.h"
#include "light/geometry/link_class.h"

namespace light::data {

LinkWeights parse_link_weights(const std::string& spec, const std::string& where) {
  LinkWeights w;
  std::stringstream in(spec);
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    double* field = key == "spread"                ? &w.spread
                    : key == "next_line"           ? &w.next_line
                    : key == "next_line_unaligned" ? &w.next_line_unaligned
                    : key == "above"               ? &w.above
                                                   : nullptr;
    if (!field) throw Error(where + ": unknown link class \"" + key + "\" (spread, next_line, next_line_unaligned, above)");
    double v = 0;
    size_t used = 0;
    try {
      if (eq == std::string::npos) throw std::invalid_argument("no value");
      v = std::stod(item.substr(eq + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (eq == std::string::npos || used == 0 || used != item.size() - eq - 1 || !(v > 0) || !std::isfinite(v))
      throw Error(where + ": " + key + ": expected a weight above 0, as " + key + "=2, got \"" + item + "\"");
    *field = v;
  }
  return w;
}

std::string link_weights_spec(const LinkWeights& w) {
  std::string out;
  auto put = [&](const char* key, double v) {
    if (v == 1) return;
    std::ostringstream s;
    s << (out.empty() ? "" : ",") << key << '=' << v;
    out += s.str();
  };
  put("spread", w.spread);
  put("next_line", w.next_line);
  put("next_line_unaligned", w.next_line_unaligned);
  put("above", w.above);
  return out;
}

namespace {
// The interval a line covers along a frame's axis, in that frame's heights.
std::pair<double, double> span_along(const geometry::ReadingFrame& f, const geometry::LineEnds& line) {
  const double dx = f.end.x - f.start.x, dy = f.end.y - f.start.y, len = std::hypot(dx, dy);
  const auto at = [&](const geometry::Point& p) { return ((p.x - f.start.x) * dx + (p.y - f.start.y) * dy) / (len * f.height); };
  const double a = at(line.start), b = at(line.end);
  return {std::min(a, b), std::max(a, b)};
}
}  // namespace

void link_row_weights(const TileInputs& in, const LinkWeights& w, std::vector<float>& next, std::vector<float>& prev) {
  const size_t n = in.words.size();
  next.assign(n, 1.0f);
  prev.assign(n, 1.0f);
  if (w.neutral() || n == 0) return;
  std::vector<geometry::ReadingFrame> frames;
  for (const ModelWord& m : in.words) {
    geometry::Polygon poly;
    for (size_t v = 0; v + 1 < m.polygon.size(); v += 2)
      if (m.polygon[v] != kPolygonPad) poly.push_back({m.polygon[v] * in.aspect, m.polygon[v + 1]});
    frames.push_back(geometry::reading_frame(poly));
  }
  const std::vector<geometry::LineEnds> lines = geometry::line_ends(frames);
  std::map<std::pair<int64_t, int64_t>, size_t> where;
  for (size_t k = 0; k < n; ++k) where[split_label(in.words[k].label)] = k;
  for (size_t k = 0; k < n; ++k) {
    const auto [g, s] = split_label(in.words[k].label);
    const auto it = where.find({g, s + 1});
    if (it == where.end()) continue;
    const size_t j = it->second;
    const geometry::ReadingFrame& f = frames[k];
    if (!(f.height > 0) || (f.start.x == f.end.x && f.start.y == f.end.y)) continue;
    double weight = 1;
    switch (geometry::classify_link(f, frames[j])) {
      case geometry::LinkClass::Spread: weight = w.spread; break;
      case geometry::LinkClass::Above: weight = w.above; break;
      case geometry::LinkClass::NextLine: {
        const auto [lo_a, hi_a] = span_along(f, lines[k]);
        const auto [lo_b, hi_b] = span_along(f, lines[j]);
        const double ends = std::min({std::abs(lo_a - lo_b), std::abs(hi_a - hi_b), std::abs((lo_a + hi_a) / 2 - (lo_b + hi_b) / 2)});
        weight = ends <= kAlignedWithin ? w.next_line : w.next_line_unaligned;
        break;
      }
      default: break;
    }
    next[k] = static_cast<float>(weight);
    prev[j] = static_cast<float>(weight);
  }
}

}  // namespace light::data

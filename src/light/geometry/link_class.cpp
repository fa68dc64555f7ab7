#include "light/geometry/link_class.h"

#include <cmath>

namespace light::geometry {

const char* link_class_name(LinkClass c) {
  switch (c) {
    case LinkClass::Near: return "near";
    case LinkClass::Spread: return "spread";
    case LinkClass::NextLine: return "next_line";
    case LinkClass::Above: return "above";
    case LinkClass::Backwards: return "backwards";
  }
  return "?";
}

LinkOffset link_offset(const ReadingFrame& from, const ReadingFrame& to) {
  const double ux = from.end.x - from.start.x, uy = from.end.y - from.start.y;
  const double len_a = std::hypot(ux, uy);
  const double h = from.height;
  if (!(len_a > 0) || !(h > 0) || !std::isfinite(len_a) || !std::isfinite(h)) return {};
  const double len_b = std::hypot(to.end.x - to.start.x, to.end.y - to.start.y);
  const double dx = 0.5 * (to.start.x + to.end.x) - 0.5 * (from.start.x + from.end.x);
  const double dy = 0.5 * (to.start.y + to.end.y) - 0.5 * (from.start.y + from.end.y);
  LinkOffset o;
  const double along_px = (dx * ux + dy * uy) / len_a;
  o.along = along_px / h;
  o.across = (-dx * uy + dy * ux) / len_a / h;  // the axis turned a quarter clockwise on screen: "below"
  o.gap = (std::fabs(along_px) - 0.5 * len_a - 0.5 * (std::isfinite(len_b) ? len_b : 0.0)) / h;
  return o;
}

LinkClass classify_link(const LinkOffset& o) {
  if (o.across > kNextLineAcross) return LinkClass::NextLine;
  if (o.across < -kNextLineAcross) return LinkClass::Above;
  if (o.gap > kSpreadGap) return LinkClass::Spread;
  if (o.along < 0) return LinkClass::Backwards;
  return LinkClass::Near;
}

TurnAndChord turn_and_chord(const ReadingFrame& from, const ReadingFrame& to) {
  const auto wrap = [](double a) { return std::remainder(a, 2 * M_PI); };  // to (-pi, pi]
  const double a = std::atan2(from.end.y - from.start.y, from.end.x - from.start.x);
  const double turn = wrap(std::atan2(to.end.y - to.start.y, to.end.x - to.start.x) - a);
  const double cx = 0.5 * (to.start.x + to.end.x - from.start.x - from.end.x), cy = 0.5 * (to.start.y + to.end.y - from.start.y - from.end.y);
  return {turn, wrap(std::atan2(cy, cx) - (a + 0.5 * turn))};
}

}  // namespace light::geometry

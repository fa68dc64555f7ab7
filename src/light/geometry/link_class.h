// Where a phrase's next word lies, seen from the word before it: the classes by which links are
// reported (`light eval --link-classes`) and by which a decoding can treat candidates.
//
// Measured in the first word's reading frame (reading_frame: its axis from start to end, its height),
// in units of its height: `along`, the second word's centre ahead of the first's along the axis;
// `across`, below the axis (image coordinates: a horizontal word's "below" is +y); `gap`, the centre
// distance along the axis less both words' half-lengths (the white between them on one line).
//   across >  0.75            next line  (a name set on two or more lines, read on below)
//   across < -0.75            above      (reading upwards; rare in print)
//   otherwise gap > 2        spread     (spaced lettering across a region, along a river or road)
//   otherwise along < 0       backwards
//   otherwise                 near       (the next word on the same line)
#pragma once
#include <array>

#include "light/geometry/polygon.h"

namespace light::geometry {

enum class LinkClass { Near = 0, Spread, NextLine, Above, Backwards };
inline constexpr int kLinkClasses = 5;
inline constexpr std::array<LinkClass, kLinkClasses> kAllLinkClasses{LinkClass::Near, LinkClass::Spread, LinkClass::NextLine,
                                                                      LinkClass::Above, LinkClass::Backwards};
// "near", "spread", "next_line", "above", "backwards".
const char* link_class_name(LinkClass c);

// The thresholds of the classes, in the first word's heights.
inline constexpr double kNextLineAcross = 0.75;
inline constexpr double kSpreadGap = 2.0;

struct LinkOffset {
  double along = 0, across = 0, gap = 0;  // in `from`'s heights
};
// The offset of `to` from `from`. A frame of no length or no height gives all zeros (a "near" link).
LinkOffset link_offset(const ReadingFrame& from, const ReadingFrame& to);
LinkClass classify_link(const LinkOffset& offset);

// How `to` is turned against `from` and where it lies round a shared baseline, in radians in
// (-pi, pi]: `turn`, to's reading direction less from's; `chord`, the direction from from's centre to
// to's less the mean of the two directions (0 for two words on one straight line or circular arc).
struct TurnAndChord {
  double turn = 0, chord = 0;
};
TurnAndChord turn_and_chord(const ReadingFrame& from, const ReadingFrame& to);
inline LinkClass classify_link(const ReadingFrame& from, const ReadingFrame& to) { return classify_link(link_offset(from, to)); }

}  // namespace light::geometry

// The weight of each word's link rows by where its successor lies (data/link_weights.h; apart from the
// spec's reading, which the fuzzed config reader links without geometry).
#include "light/data/link_weights.h"

#include <map>

#include "light/geometry/line_chains.h"
#include "light/geometry/link_class.h"

namespace light::data {

void link_row_weights(const TileInputs& in, const LinkWeights& w, std::vector<float>& next, std::vector<float>& prev) {
  const size_t n = in.words.size();
  next.assign(n, 1.0f);
  prev.assign(n, 1.0f);
  if (w.neutral() || n == 0) return;
  const std::vector<geometry::ReadingFrame> frames = window_frames(in);
  // The true successors, and the lines of the truth they make (a name's words on one line).
  std::map<std::pair<int64_t, int64_t>, size_t> where;
  for (size_t k = 0; k < n; ++k) where[split_label(in.words[k].label)] = k;
  std::vector<int> successor(n);
  for (size_t k = 0; k < n; ++k) {
    const auto [g, s] = split_label(in.words[k].label);
    const auto it = where.find({g, s + 1});
    successor[k] = static_cast<int>(it == where.end() ? k : it->second);
  }
  const std::vector<int> line = geometry::lines_of(successor, frames);
  std::vector<std::vector<int>> members(n);
  for (size_t k = 0; k < n; ++k) members[static_cast<size_t>(line[k])].push_back(static_cast<int>(k));
  for (size_t k = 0; k < n; ++k) {
    const auto j = static_cast<size_t>(successor[k]);
    const geometry::ReadingFrame& f = frames[k];
    if (j == k || !(f.height > 0) || (f.start.x == f.end.x && f.start.y == f.end.y)) continue;
    double weight = 1;
    switch (geometry::classify_link(f, frames[j])) {
      case geometry::LinkClass::Spread: weight = w.spread; break;
      case geometry::LinkClass::Above: weight = w.above; break;
      case geometry::LinkClass::NextLine:
        weight = geometry::line_end_offset(f, members[static_cast<size_t>(line[k])], members[static_cast<size_t>(line[j])], frames) <=
                         geometry::kAlignedEnds
                     ? w.next_line
                     : w.next_line_unaligned;
        break;
      default: break;
    }
    next[k] = static_cast<float>(weight);
    prev[j] = static_cast<float>(weight);
  }
}

}  // namespace light::data

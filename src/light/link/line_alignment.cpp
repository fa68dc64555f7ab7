#include "light/link/line_alignment.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "light/error.h"
#include "light/geometry/link_class.h"
#include "light/link/decoding_prior.h"

namespace light::link {

bool on_baseline(const geometry::ReadingFrame& from, const geometry::ReadingFrame& to, const BaselineTolerance& tolerance) {
  if (!(from.height > 0) || !(to.height > 0) || !(std::abs(std::log(to.height / from.height)) <= tolerance.log_height)) return false;
  if (!(std::hypot(from.end.x - from.start.x, from.end.y - from.start.y) > 0) || !(std::hypot(to.end.x - to.start.x, to.end.y - to.start.y) > 0))
    return false;
  const geometry::TurnAndChord t = geometry::turn_and_chord(from, to);
  if (!(std::abs(t.turn) <= kBaselineTurnDegrees * M_PI / 180)) return false;
  // The chord between the centres runs at the mean of the two directions on a straight line or an arc.
  const double cx = 0.5 * (to.start.x + to.end.x - from.start.x - from.end.x), cy = 0.5 * (to.start.y + to.end.y - from.start.y - from.end.y);
  if (!(std::hypot(cx, cy) > 0)) return false;
  return std::abs(t.chord) <= tolerance.degrees * M_PI / 180;
}

void apply_line_alignment(data::SparseRows& probs, data::SparseRows& bi_probs, const std::vector<geometry::ReadingFrame>& frames,
                          const std::vector<int>& successors, const LinePriors& priors) {
  if (priors.alignment == 1.0 && priors.baseline == 1.0) return;
  const size_t n = frames.size();
  if (static_cast<size_t>(probs.n) != n || static_cast<size_t>(bi_probs.n) != n || successors.size() != n)
    throw Error("line alignment: " + std::to_string(probs.n) + " successor rows, " + std::to_string(bi_probs.n) + " predecessor rows, " +
                std::to_string(successors.size()) + " successors and " + std::to_string(n) + " word frames");
  const std::vector<int> line = geometry::lines_of(successors, frames);
  std::vector<std::vector<int>> members(n);
  for (size_t k = 0; k < n; ++k) members[static_cast<size_t>(line[k])].push_back(static_cast<int>(k));
  // A line's last word (no successor on its line in the first decoding) and a line's first word:
  // only they are raised (a word inside a line keeps the link the model gave it).
  std::vector<char> ends(n, 1), starts(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int j = successors[i];
    if (j >= 0 && static_cast<size_t>(j) < n && static_cast<size_t>(j) != i && line[i] == line[static_cast<size_t>(j)])
      ends[i] = 0, starts[static_cast<size_t>(j)] = 0;
  }
  const float align_up = static_cast<float>(priors.alignment), align_down = static_cast<float>(1.0 / priors.alignment);
  const float base_up = static_cast<float>(priors.baseline), base_down = static_cast<float>(1.0 / priors.baseline);
  // The factor on a link from -> to.
  const auto factor = [&](size_t from, size_t to) {
    const CandidatePlace place = candidate_place(geometry::link_offset(frames[from], frames[to]));
    const bool free_ends = ends[from] && starts[to];
    if (place == CandidatePlace::LineBelow) {
      if (priors.alignment == 1.0 || line[from] == line[to]) return 1.0f;
      if (geometry::line_end_offset(frames[from], members[static_cast<size_t>(line[from])], members[static_cast<size_t>(line[to])], frames) >
          geometry::kAlignedEnds)
        return align_down;
      return free_ends ? align_up : 1.0f;
    }
    if (place == CandidatePlace::Spread && priors.baseline != 1.0) {
      if (!on_baseline(frames[from], frames[to], priors.tolerance)) return base_down;
      return free_ends ? base_up : 1.0f;
    }
    return 1.0f;
  };
  for (size_t r = 0; r < n; ++r) {
    for (auto& [j, p] : probs.rows[r])
      if (static_cast<size_t>(j) != r) p *= factor(r, static_cast<size_t>(j));
    for (auto& [j, q] : bi_probs.rows[r])
      if (static_cast<size_t>(j) != r) q *= factor(static_cast<size_t>(j), r);
  }
}

}  // namespace light::link

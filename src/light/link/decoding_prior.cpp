#include "light/link/decoding_prior.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "light/error.h"
#include "light/link/paths.h"

namespace light::link {

namespace {
// A frame's centre (the midpoint of start and end) and, over its height, the unit normal pointing
// "below" its reading direction (image coordinates, y down: (1, 0) reads with "below" at (0, 1)); a
// zero normal for a frame of no length or height.
struct Across {
  double cx = 0, cy = 0, nx = 0, ny = 0;
};
Across across(const geometry::ReadingFrame& f) {
  Across a{0.5 * (f.start.x + f.end.x), 0.5 * (f.start.y + f.end.y), 0, 0};
  const double ax = f.end.x - f.start.x, ay = f.end.y - f.start.y;
  const double len = std::hypot(ax, ay);
  if (len > 0 && f.height > 0) a.nx = -ay / (len * f.height), a.ny = ax / (len * f.height);
  return a;
}
double rise(const Across& from, const Across& to) { return (to.cx - from.cx) * from.nx + (to.cy - from.cy) * from.ny; }
}  // namespace

std::vector<geometry::ReadingFrame> reading_frames(const maptext::Tile& tile, const std::vector<size_t>& sources,
                                                   const DecodingPrior& prior) {
  std::vector<geometry::ReadingFrame> frames;
  if (!prior.needs_frames()) return frames;
  const auto flat = flatten(tile);
  frames.reserve(sources.size());
  for (size_t s : sources) {
    if (s >= flat.size()) throw Error("decoding prior: word " + std::to_string(s) + " of a tile of " + std::to_string(flat.size()));
    frames.push_back(geometry::reading_frame(flat[s]->vertices));
  }
  return frames;
}

std::vector<size_t> words_around(const std::vector<geometry::ReadingFrame>& frames, double side, double width, double height) {
  const size_t n = frames.size();
  if (!(side > 0) || !std::isfinite(side)) return std::vector<size_t>(n, n);
  std::vector<std::pair<double, double>> c(n);  // centres
  for (size_t k = 0; k < n; ++k) {
    const Across a = across(frames[k]);
    c[k] = {a.cx, a.cy};
  }
  std::vector<size_t> by_x(n);
  for (size_t k = 0; k < n; ++k) by_x[k] = k;
  std::sort(by_x.begin(), by_x.end(), [&](size_t a, size_t b) { return c[a].first < c[b].first; });
  std::vector<double> xs(n);
  for (size_t k = 0; k < n; ++k) xs[k] = c[by_x[k]].first;
  // The window's span along one axis: centred on v, moved inside [0, length]; the whole axis when
  // the tile is no longer than a side.
  const auto span = [side](double v, double length) -> std::pair<double, double> {
    if (!(length > side)) return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    const double lo = std::clamp(v - 0.5 * side, 0.0, length - side);
    return {lo, lo + side};
  };
  std::vector<size_t> out(n, 0);
  for (size_t k = 0; k < n; ++k) {
    const auto [x0, x1] = span(c[k].first, width);
    const auto [y0, y1] = span(c[k].second, height);
    const auto lo = std::lower_bound(xs.begin(), xs.end(), x0);
    const auto hi = std::upper_bound(xs.begin(), xs.end(), x1);
    for (auto it = lo; it != hi; ++it) {
      const double y = c[by_x[static_cast<size_t>(it - xs.begin())]].second;
      if (y >= y0 && y <= y1) ++out[k];
    }
  }
  return out;
}

double rise_below(const geometry::ReadingFrame& from, const geometry::ReadingFrame& to) { return rise(across(from), across(to)); }

double no_successor_factor(const DecodingPrior& prior, size_t m) {
  if (prior.no_successor_exponent == 0.0) return prior.no_successor_bias;
  return prior.no_successor_bias * std::pow(static_cast<double>(std::max<size_t>(m, 1)) / kBiasWindowWords, prior.no_successor_exponent);
}

bool bare_figure(const std::string& text) {
  return !text.empty() && text.size() <= 8 && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

void apply_figure_prior(data::SparseRows& probs, data::SparseRows& bi_probs, const std::vector<char>& is_figure, double factor) {
  if (bi_probs.n != probs.n || is_figure.size() != static_cast<size_t>(probs.n))
    throw Error("figure prior: " + std::to_string(probs.n) + " successor rows, " + std::to_string(bi_probs.n) + " predecessor rows and " +
                std::to_string(is_figure.size()) + " words");
  const float f = static_cast<float>(factor);
  for (data::SparseRows* m : {&probs, &bi_probs})
    for (int i = 0; i < m->n; ++i) {
      if (!is_figure[static_cast<size_t>(i)]) continue;
      for (auto& [j, p] : m->rows[static_cast<size_t>(i)])
        if (j != i && is_figure[static_cast<size_t>(j)]) p *= f;
    }
}

void apply_decoding_prior(data::SparseRows& probs, data::SparseRows& bi_probs, const std::vector<geometry::ReadingFrame>& frames,
                          double window_side, double width, double height, const DecodingPrior& prior,
                          const std::vector<Lettering>* lettering) {
  if (prior.is_identity()) return;
  const bool by_lettering = prior.lettering != 1.0;
  if (by_lettering && (!lettering || lettering->size() != frames.size()))
    throw Error("decoding prior: the lettering prior needs each word's lettering (" + std::to_string(lettering ? lettering->size() : 0) +
                " for " + std::to_string(frames.size()) + " words)");
  const bool need_frames = prior.needs_frames();
  if (bi_probs.n != probs.n || (need_frames && frames.size() != static_cast<size_t>(probs.n)))
    throw Error("decoding prior: " + std::to_string(probs.n) + " successor rows, " + std::to_string(bi_probs.n) +
                " predecessor rows and " + std::to_string(frames.size()) + " word frames");
  const std::vector<size_t> around =
      prior.no_successor_exponent != 0.0 ? words_around(frames, window_side, width, height) : std::vector<size_t>(static_cast<size_t>(probs.n), 0);
  const float above = static_cast<float>(prior.above), next_line = static_cast<float>(prior.next_line);
  const bool by_place = above != 1.0f || next_line != 1.0f;
  // The factor on a candidate lying `rise` heights below the word (negative: above).
  const auto place = [&](double rise) { return rise < -kAboveRise ? above : (rise > kAboveRise && rise <= kNextLineDrop) ? next_line : 1.0f; };
  std::vector<Across> ax;  // each word's centre and normal, once (a whole map's rows hold millions of entries)
  if (by_place) {
    ax.reserve(frames.size());
    for (const auto& f : frames) ax.push_back(across(f));
  }
  // The lettering factor on a link from -> to: alike or not, for a candidate on the line below or spread.
  const float alike = static_cast<float>(prior.lettering), unlike = static_cast<float>(1.0 / prior.lettering);
  const auto by_letters = [&](size_t from, size_t to) {
    if (candidate_place(geometry::link_offset(frames[from], frames[to])) == CandidatePlace::Other) return 1.0f;
    return lettered_alike((*lettering)[from], (*lettering)[to]) ? alike : unlike;
  };
  for (int i = 0; i < probs.n; ++i) {
    const size_t r = static_cast<size_t>(i);
    const float self = static_cast<float>(no_successor_factor(prior, around[r]));
    for (auto& [j, p] : probs.rows[r])
      if (j == i) p *= self;
      else {
        if (by_place) p *= place(rise(ax[r], ax[static_cast<size_t>(j)]));
        if (by_lettering) p *= by_letters(r, static_cast<size_t>(j));
      }
    for (auto& [j, q] : bi_probs.rows[r])
      if (j == i) q *= self;
      else {
        if (by_place) q *= place(rise(ax[static_cast<size_t>(j)], ax[r]));
        if (by_lettering) q *= by_letters(static_cast<size_t>(j), r);
      }
  }
}

}  // namespace light::link

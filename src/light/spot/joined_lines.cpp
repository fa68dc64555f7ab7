// Joining text lines the detector found in pieces: the letters of a spaced name (join_spaced_letters)
// and the pieces of a letter-spaced line (join_line_pieces). TextBoxOptions::letter_join and
// piece_join say when.
#include <algorithm>
#include <cmath>
#include <vector>

#include "light/spot/text_boxes.h"
#include "light/util/disjoint_sets.h"

namespace light::spot {
namespace {

// The line through (mx, my) at `angle` (radians) spanning every corner of boxes[members], scored by
// their mean score; the members are marked in `joined`.
TextBox spanning(const std::vector<TextBox>& boxes, const std::vector<size_t>& members, double mx, double my, double angle,
                 std::vector<bool>& joined) {
  const double ux = std::cos(angle), uy = std::sin(angle);
  double lo = 1e300, hi = -1e300, lo2 = 1e300, hi2 = -1e300, score = 0;
  for (size_t k : members) {
    for (const maptext::Point& p : boxes[k].corners) {
      const double dx = p.x - mx, dy = p.y - my, t = dx * ux + dy * uy, s = -dx * uy + dy * ux;
      lo = std::min(lo, t), hi = std::max(hi, t), lo2 = std::min(lo2, s), hi2 = std::max(hi2, s);
    }
    score += boxes[k].score;
    joined[k] = true;
  }
  const double cx = mx + ux * (lo + hi) / 2 - uy * (lo2 + hi2) / 2, cy = my + uy * (lo + hi) / 2 + ux * (lo2 + hi2) / 2;
  TextBox b;
  b.corners = reading_corners(cx, cy, hi - lo, hi2 - lo2, angle);
  b.score = score / static_cast<double>(members.size());
  return b;
}

// The joined lines, then every box not joined.
std::vector<TextBox> with_the_rest(std::vector<TextBox> joined_lines, const std::vector<TextBox>& boxes, const std::vector<bool>& joined) {
  if (joined_lines.empty()) return boxes;
  for (size_t k = 0; k < boxes.size(); ++k)
    if (!joined[k]) joined_lines.push_back(boxes[k]);
  return joined_lines;
}
}  // namespace

std::vector<TextBox> join_line_pieces(std::vector<TextBox> boxes, const TextBoxOptions& o) {
  if (o.piece_join <= 0 || boxes.size() < 2) return boxes;
  struct Piece {
    size_t box;
    double x, y, ux, uy, len, high;
  };
  std::vector<Piece> pieces;
  double reach = 0;
  for (size_t k = 0; k < boxes.size(); ++k) {
    const TextBox& b = boxes[k];
    if (b.bent() || b.length() < b.height() || b.length() <= 0) continue;
    const auto& c = b.corners;
    pieces.push_back({k, b.middle().x, b.middle().y, (c[1].x - c[0].x) / b.length(), (c[1].y - c[0].y) / b.length(),
                      b.length(), b.height()});
    reach = std::max(reach, b.length() + o.piece_join * b.height());
  }
  const size_t n = pieces.size();
  if (n < 2) return boxes;
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.x < b.x; });
  DisjointSets together(n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n && pieces[j].x - pieces[i].x <= reach; ++j) {
      const Piece &a = pieces[i], &b = pieces[j];
      if (std::max(a.high, b.high) > o.piece_height * std::min(a.high, b.high)) continue;
      if (std::abs(a.ux * b.uy - a.uy * b.ux) > 0.17) continue;  // more than 10 degrees apart
      const double dx = b.x - a.x, dy = b.y - a.y, high = (a.high + b.high) / 2;
      if (std::abs(-dx * a.uy + dy * a.ux) > o.piece_axis * high || std::abs(-dx * b.uy + dy * b.ux) > o.piece_axis * high) continue;
      const double gap = std::abs(dx * a.ux + dy * a.uy) - (a.len + b.len) / 2;
      if (gap < o.piece_join * high) together.join(i, j);
    }
  const std::vector<std::vector<size_t>> runs = together.groups();
  std::vector<bool> joined(boxes.size(), false);
  std::vector<TextBox> out;
  for (const auto& run : runs) {
    if (run.size() < 2) continue;
    // The run's direction: its longest piece's; the line spans every piece's corners.
    size_t longest = run[0];
    for (size_t i : run)
      if (pieces[i].len > pieces[longest].len) longest = i;
    std::vector<size_t> members;
    for (size_t i : run) members.push_back(pieces[i].box);
    const Piece& l = pieces[longest];
    out.push_back(spanning(boxes, members, l.x, l.y, std::atan2(l.uy, l.ux), joined));
  }
  return with_the_rest(std::move(out), boxes, joined);
}

namespace {
struct Letter {
  size_t box;
  double x, y, size;
};
// A straight chain of letters: their line through (mx, my) at `angle`.
struct Chain {
  std::vector<size_t> letters;
  double mx = 0, my = 0, angle = 0;
};
// The principal line of some letters' centres, and their mean size.
Chain principal_line(const std::vector<Letter>& letters, const std::vector<size_t>& members, double& size) {
  Chain c;
  c.letters = members;
  size = 0;
  for (size_t i : members) c.mx += letters[i].x, c.my += letters[i].y, size += letters[i].size;
  const auto n = static_cast<double>(members.size());
  c.mx /= n, c.my /= n, size /= n;
  double sxx = 0, syy = 0, sxy = 0;
  for (size_t i : members) {
    const double dx = letters[i].x - c.mx, dy = letters[i].y - c.my;
    sxx += dx * dx, syy += dy * dy, sxy += dx * dy;
  }
  c.angle = 0.5 * std::atan2(2 * sxy, sxx - syy);
  return c;
}
// A box's extent along the direction (ux, uy) from (mx, my): [lo, hi]; its centre's distance across
// that line, and its thickness across it.
struct Extent {
  double lo, hi, across, thick;
};
Extent extent_along(const TextBox& b, double mx, double my, double ux, double uy) {
  Extent e{1e300, -1e300, 0, 0};
  double cx = 0, cy = 0, s0 = 1e300, s1 = -1e300;
  for (const maptext::Point& p : b.corners) {
    const double t = (p.x - mx) * ux + (p.y - my) * uy, s = -(p.x - mx) * uy + (p.y - my) * ux;
    e.lo = std::min(e.lo, t), e.hi = std::max(e.hi, t), s0 = std::min(s0, s), s1 = std::max(s1, s), cx += p.x / 4, cy += p.y / 4;
  }
  e.across = std::abs(-(cx - mx) * uy + (cy - my) * ux);
  e.thick = s1 - s0;
  return e;
}
// The straight chains in a run of near letters. The line through two near letters that the most
// others of like size lie on (their centres within a quarter of the two's mean size) is the run's
// first line; its letters are cut into chains where two lie more than letter_join sizes apart along
// it; then the same among the letters left. A stray letter beside a name (a town's circle, a figure)
// does not keep the name's letters apart, and two names one above the other come out as two lines.
// A chain that is not the whole run needs three letters or more, alike in thickness and spacing (two
// or three labels side by side are not a name). Runs of more than 64 letters (a texture, not a name) give none.
std::vector<Chain> straight_chains(const std::vector<Letter>& letters, std::vector<size_t> left, const std::vector<TextBox>& boxes,
                                  const TextBoxOptions& o) {
  std::vector<Chain> out;
  const size_t whole = left.size();
  const auto need = static_cast<size_t>(std::max(2, o.letter_run)), need_in_part = std::max<size_t>(3, need);
  if (whole > 64) return out;
  auto like_size = [](double a, double b) { return std::max(a, b) <= 1.5 * std::min(a, b); };
  // One name's letters, in reading order along (ux, uy): as thick across the line as each other
  // (within 1.5 times: a tilted letter's box lies at its own angle), and evenly spaced (the widest
  // pitch, centre to centre, at most 1.5 times the narrowest).
  auto alike = [&](const std::vector<size_t>& chain, double mx, double my, double ux, double uy) {
    double thin = 1e300, thick = 0, narrow = 1e300, wide = 0;
    for (size_t k = 0; k < chain.size(); ++k) {
      const Extent e = extent_along(boxes[letters[chain[k]].box], mx, my, ux, uy);
      thin = std::min(thin, e.thick), thick = std::max(thick, e.thick);
      if (k == 0) continue;
      const Letter &a = letters[chain[k - 1]], &b = letters[chain[k]];
      const double pitch = (b.x - a.x) * ux + (b.y - a.y) * uy;
      narrow = std::min(narrow, pitch), wide = std::max(wide, pitch);
    }
    return thick <= 1.5 * thin && wide <= 1.5 * narrow;
  };
  while (left.size() >= need) {
    std::vector<size_t> best;
    for (size_t p = 0; p < left.size(); ++p)
      for (size_t q = p + 1; q < left.size(); ++q) {
        const Letter &a = letters[left[p]], &b = letters[left[q]];
        const double d = std::hypot(b.x - a.x, b.y - a.y), size = (a.size + b.size) / 2;
        if (d <= 0 || d > o.letter_join * size || !like_size(a.size, b.size)) continue;
        const double ux = (b.x - a.x) / d, uy = (b.y - a.y) / d;
        std::vector<size_t> on;
        for (size_t i : left)
          if (like_size(letters[i].size, size) && std::abs(-(letters[i].x - a.x) * uy + (letters[i].y - a.y) * ux) <= 0.25 * size)
            on.push_back(i);
        if (on.size() > best.size()) best = std::move(on);
      }
    if (best.size() < need) break;
    for (size_t i : best) left.erase(std::find(left.begin(), left.end(), i));
    double size = 0;
    const Chain line = principal_line(letters, best, size);
    const double ux = std::cos(line.angle), uy = std::sin(line.angle);
    std::vector<std::pair<double, size_t>> along;
    bool straight = true;
    for (size_t i : best) {
      const double dx = letters[i].x - line.mx, dy = letters[i].y - line.my;
      if (std::abs(-dx * uy + dy * ux) > 0.25 * size) straight = false;
      along.emplace_back(dx * ux + dy * uy, i);
    }
    if (!straight) continue;
    std::sort(along.begin(), along.end());
    std::vector<size_t> chain;
    for (size_t k = 0; k <= along.size(); ++k) {
      if (k == along.size() || (k > 0 && along[k].first - along[k - 1].first > o.letter_join * size)) {
        if (chain.size() == whole ? chain.size() >= need : chain.size() >= need_in_part && alike(chain, line.mx, line.my, ux, uy))
          out.push_back(principal_line(letters, chain, size));
        chain.clear();
      }
      if (k < along.size()) chain.push_back(along[k].second);
    }
  }
  return out;
}
// A chain of three letters or more grows at its ends by the pieces of the same name the detector
// found otherwise ("T", then "T S" after "M A S S A C H U S E"): boxes not joined and shorter chains,
// of like height (within 1.5 times the letters' mean short side: a longer box grows more when
// unclipped; a narrow letter standing on the chain, an "I" too thin to be one of its letters, by its
// height across the chain, so that "G E O R G I A" is not cut at the "I"), every box's centre on the
// chain's axis (within a quarter of that height), a box longer than high level with it (10 degrees)
// unless it is such a letter, no further from its end than 1.3 times its letters' median gap (a
// name's next word lies further: "C R U Z  C O."). `taken` marks the chains it took in.
void extend_chain(size_t at, std::vector<Chain>& chains, std::vector<bool>& taken, const std::vector<TextBox>& boxes,
                  std::vector<bool>& joined) {
  Chain& c = chains[at];
  if (c.letters.size() < 3) return;
  const double ux = std::cos(c.angle), uy = std::sin(c.angle);
  auto short_side = [&](size_t k) { return std::min(boxes[k].length(), boxes[k].height()); };
  std::vector<Extent> ext;
  double high = 0;
  for (size_t k : c.letters) {
    ext.push_back(extent_along(boxes[k], c.mx, c.my, ux, uy));
    high += short_side(k) / static_cast<double>(c.letters.size());
  }
  std::sort(ext.begin(), ext.end(), [](const Extent& a, const Extent& b) { return a.lo < b.lo; });
  std::vector<double> gaps;
  for (size_t k = 1; k < ext.size(); ++k) gaps.push_back(ext[k].lo - ext[k - 1].hi);
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<long>(gaps.size() / 2), gaps.end());
  const double spacing = gaps[gaps.size() / 2];
  double lo = ext.front().lo, hi = ext.back().hi;
  // Whether the boxes of a piece lie on the chain, just beyond one of its ends; if so, they join it.
  auto take = [&](const std::vector<size_t>& piece) {
    double plo = 1e300, phi = -1e300, h = 0;
    for (size_t k : piece) {
      const TextBox& b = boxes[k];
      if (b.bent()) return false;
      const double shorter = short_side(k), longer = std::max(b.length(), b.height());
      const Extent e = extent_along(b, c.mx, c.my, ux, uy);
      double tall = shorter;  // the piece's height across the chain
      if (longer >= 1.5 * shorter) {
        const auto& p = b.corners;
        const bool along = b.length() >= b.height();
        const double bx = (along ? p[1].x - p[0].x : p[3].x - p[0].x) / longer, by = (along ? p[1].y - p[0].y : p[3].y - p[0].y) / longer;
        const double cross = std::abs(bx * uy - by * ux);
        // A narrow letter standing on the chain ("I", "l", "1": taller than wide, within 10 degrees
        // of upright to it) is as high as its long side; any other long box lies along the chain.
        if (piece.size() == 1 && cross > 0.985) tall = e.thick;
        else if (cross > 0.17) return false;  // more than 10 degrees apart
      }
      if (e.across > 0.25 * high) return false;
      plo = std::min(plo, e.lo), phi = std::max(phi, e.hi), h += tall / static_cast<double>(piece.size());
    }
    if (h <= 0 || std::max(h, high) > 1.5 * std::min(h, high)) return false;
    const double gap = plo >= hi ? plo - hi : lo - phi;
    if (gap < 0 || gap > 1.3 * spacing) return false;
    for (size_t k : piece) c.letters.push_back(k), joined[k] = true;
    lo = std::min(lo, plo), hi = std::max(hi, phi);
    return true;
  };
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t k = 0; k < boxes.size(); ++k)
      if (!joined[k] && take({k})) grew = true;
    for (size_t j = 0; j < chains.size(); ++j)
      if (j != at && !taken[j] && chains[j].letters.size() < c.letters.size() && take(chains[j].letters)) taken[j] = grew = true;
  }
}
}  // namespace

std::vector<TextBox> join_spaced_letters(std::vector<TextBox> boxes, const TextBoxOptions& o) {
  if (o.letter_join <= 0 || boxes.size() < static_cast<size_t>(std::max(2, o.letter_run))) return boxes;
  std::vector<Letter> letters;
  for (size_t k = 0; k < boxes.size(); ++k) {
    const double a = boxes[k].length(), b = boxes[k].height(), big = std::max(a, b);
    if (big <= o.letter_aspect * std::min(a, b)) {
      const maptext::Point m = boxes[k].middle();
      letters.push_back({k, m.x, m.y, big});
    }
  }
  const size_t n = letters.size();
  if (n < static_cast<size_t>(o.letter_run)) return boxes;
  // By x, so that a letter is compared only with those within reach (a map's thousands of letters).
  std::sort(letters.begin(), letters.end(), [](const Letter& a, const Letter& b) { return a.x < b.x; });
  double reach = 0;
  for (const Letter& l : letters) reach = std::max(reach, o.letter_join * l.size);
  // Runs: letters joined to their near neighbours of like size (union-find).
  DisjointSets together(n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n && letters[j].x - letters[i].x <= reach; ++j) {
      const Letter &a = letters[i], &b = letters[j];
      const double small = std::min(a.size, b.size), large = std::max(a.size, b.size);
      if (large > 1.5 * small) continue;
      if (std::hypot(a.x - b.x, a.y - b.y) <= o.letter_join * (a.size + b.size) / 2) together.join(i, j);
    }
  std::vector<bool> joined(boxes.size(), false);
  std::vector<TextBox> out;
  std::vector<Chain> chains;
  for (const auto& run : together.groups())
    if (run.size() >= static_cast<size_t>(o.letter_run))
      for (Chain& c : straight_chains(letters, run, boxes, o)) {
        for (size_t& i : c.letters) i = letters[i].box;  // from here on, boxes
        for (size_t k : c.letters) joined[k] = true;
        chains.push_back(std::move(c));
      }
  // The longest first, so that a name takes in its shorter pieces, not they it.
  std::stable_sort(chains.begin(), chains.end(), [](const Chain& a, const Chain& b) { return a.letters.size() > b.letters.size(); });
  std::vector<bool> taken(chains.size(), false);
  for (size_t k = 0; k < chains.size(); ++k)
    if (!taken[k]) extend_chain(k, chains, taken, boxes, joined);
  for (size_t k = 0; k < chains.size(); ++k)
    if (!taken[k]) out.push_back(spanning(boxes, chains[k].letters, chains[k].mx, chains[k].my, chains[k].angle, joined));
  return with_the_rest(std::move(out), boxes, joined);
}


}  // namespace light::spot

#include "light/data/inputs.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "light/error.h"
#include "light/geometry/polygon.h"

namespace light::data {

int64_t group_id(size_t group_index) {
  // The group_index-th positive integer without a digit 0 (0-based): group_index + 1 written in
  // bijective base 9, digits 1..9. Constant time per group (a map's thousands of groups).
  std::string digits;
  for (uint64_t n = static_cast<uint64_t>(group_index) + 1; n > 0; n = (n - 1) / 9) digits.insert(digits.begin(), static_cast<char>('1' + (n - 1) % 9));
  return std::stoll(digits);
}

int64_t word_label(size_t group_index, int64_t seq) {
  return std::stoll(std::to_string(group_id(group_index)) + "000" + std::to_string(seq));
}

std::pair<int64_t, int64_t> split_label(int64_t label) {
  const std::string s = std::to_string(label);
  const auto p = s.find("000");
  if (p == std::string::npos || p == 0 || p + 3 >= s.size()) throw Error("bad word label " + s);
  return {std::stoll(s.substr(0, p)), std::stoll(s.substr(p + 3))};
}

std::vector<ModelWord> select_words(const maptext::Tile& tile, int width, int height, const SelectOptions& opt) {
  if (width <= 0 || height <= 0) throw Error("image \"" + tile.image + "\": bad image size");
  std::vector<ModelWord> out;
  const Region frame = opt.region ? *opt.region : Region{0, 0, static_cast<double>(width), static_cast<double>(height)};
  if (!(frame.width() > 0 && frame.height() > 0)) throw Error("image \"" + tile.image + "\": empty window");
  const double rx = 1000.0 / frame.width(), ry = 1000.0 / frame.height();
  std::vector<std::pair<int64_t, int64_t>> outside, kept;  // (group, seq) of the words left outside the region, and of `out`
  size_t source = 0;
  for (size_t g = 0; g < tile.groups.size(); ++g) {
    int64_t seq = 0;
    for (const auto& w : tile.groups[g]) {
      const size_t src = source++;
      if (w.ignore()) continue;  // no label, and the counter does not advance
      const int64_t label = word_label(g, ++seq);
      const geometry::BBox b = geometry::bbox(w.vertices);
      if (b.x0 == b.x1 || b.y0 == b.y1) continue;  // zero width or height: skipped after labelling
      if (opt.region) {
        const double cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2;
        if (!(cx >= frame.x0 && cx < frame.x1 && cy >= frame.y0 && cy < frame.y1)) {
          outside.emplace_back(static_cast<int64_t>(g), seq);
          continue;
        }
      }
      ModelWord m;
      m.source = src;
      m.label = label;
      if (opt.region) {
        m.bbox = {static_cast<int64_t>(std::floor((b.x0 - frame.x0) * rx)), static_cast<int64_t>(std::floor((b.y0 - frame.y0) * ry)),
                  static_cast<int64_t>(std::floor((b.x1 - frame.x0) * rx)), static_cast<int64_t>(std::floor((b.y1 - frame.y0) * ry))};
      } else {  // the reference's truncation, exactly
        m.bbox = {static_cast<int64_t>(b.x0 * rx), static_cast<int64_t>(b.y0 * ry), static_cast<int64_t>(b.x1 * rx),
                  static_cast<int64_t>(b.y1 * ry)};
      }
      m.polygon.assign(kPolygonValues, kPolygonPad);
      for (size_t k = 0; k < w.vertices.size() && 2 * k + 1 < kPolygonValues; ++k) {
        m.polygon[2 * k] = static_cast<float>((w.vertices[k].x - frame.x0) / frame.width());
        m.polygon[2 * k + 1] = static_cast<float>((w.vertices[k].y - frame.y0) / frame.height());
      }
      const std::string text = w.text.value_or("");
      if (text.empty()) {
        m.text = "NaN";
      } else {
        for (char c : text)
          if (c != ' ') m.text.push_back(c);
      }
      out.push_back(std::move(m));
      kept.emplace_back(static_cast<int64_t>(g), seq);
    }
  }
  if (!outside.empty()) {
    std::sort(outside.begin(), outside.end());
    for (size_t k = 0; k < out.size(); ++k) {
      const auto [g, s] = kept[k];
      out[k].next_outside = std::binary_search(outside.begin(), outside.end(), std::make_pair(g, s + 1));
      out[k].prev_outside = std::binary_search(outside.begin(), outside.end(), std::make_pair(g, s - 1));
    }
  }
  if (opt.sort) {
    std::stable_sort(out.begin(), out.end(), [](const ModelWord& a, const ModelWord& b) {
      if (a.polygon[1] != b.polygon[1]) return a.polygon[1] < b.polygon[1];
      return a.polygon[0] < b.polygon[0];
    });
  } else if (opt.shuffle_seed != 0) {
    std::mt19937_64 rng(opt.shuffle_seed);
    std::shuffle(out.begin(), out.end(), rng);
  }
  return out;
}

std::vector<geometry::ReadingFrame> window_frames(const TileInputs& in) {
  std::vector<geometry::ReadingFrame> out;
  out.reserve(in.words.size());
  for (const ModelWord& w : in.words) {
    geometry::Polygon poly;
    for (size_t v = 0; v + 1 < w.polygon.size(); v += 2)
      if (w.polygon[v] != kPolygonPad) poly.push_back({w.polygon[v] * in.aspect, w.polygon[v + 1]});
    out.push_back(geometry::reading_frame(poly));
  }
  return out;
}

TileInputs layout_tokens(const std::vector<ModelWord>& all, const Tokenize& tokenize, int length, size_t begin, size_t end,
                         const SpecialIds& special) {
  if (length < 3) throw Error("the token length must be at least 3");
  end = std::min(end, all.size());
  TileInputs in;
  in.length = length;
  const size_t L = static_cast<size_t>(length);
  in.input_ids.assign(L, special.pad);
  in.attention_mask.assign(L, 0);
  in.labels.assign(L, -100);
  in.first_token_indices.assign(L, -999);
  in.bbox.assign(L * 4, 0);
  in.polygons.assign(L * kPolygonValues, 0.0f);
  size_t pos = 0;
  in.input_ids[pos] = special.bos;
  in.attention_mask[pos++] = 1;
  const size_t last = L - 1;  // room kept for </s>
  for (size_t i = begin; i < end; ++i) {
    const ModelWord& w = all[i];
    const std::vector<int64_t> ids = tokenize(w.text);
    if (ids.empty() || pos >= last) {
      in.beyond_window.push_back(i);
      continue;
    }
    in.first_token_indices[in.words.size()] = static_cast<int64_t>(pos);
    in.labels[pos] = w.label;
    for (size_t t = 0; t < ids.size() && pos < last; ++t, ++pos) {
      in.input_ids[pos] = ids[t];
      in.attention_mask[pos] = 1;
      for (int c = 0; c < 4; ++c) in.bbox[pos * 4 + c] = std::clamp<int64_t>(w.bbox[c], 0, 1000);
      std::copy(w.polygon.begin(), w.polygon.end(), in.polygons.begin() + static_cast<long>(pos * kPolygonValues));
    }
    in.words.push_back(w);
  }
  in.input_ids[pos] = special.eos;
  in.attention_mask[pos++] = 1;
  in.real_tokens = static_cast<int>(pos);
  return in;
}

std::vector<Window> plan_windows(const std::vector<size_t>& tokens, int length) {
  const size_t room = static_cast<size_t>(std::max(1, length - 2));
  std::vector<Window> windows;
  const size_t n = tokens.size();
  if (n == 0) return {{0, 0}};
  size_t begin = 0;
  while (true) {
    size_t used = 0, end = begin;
    while (end < n && used + std::max<size_t>(1, tokens[end]) <= room) used += std::max<size_t>(1, tokens[end++]);
    if (end == begin) end = begin + 1;  // a single word longer than the window still gets one
    windows.push_back({begin, end});
    if (end >= n) break;
    // Next window starts half way through this one (at least one word further).
    size_t half = 0, next = begin;
    while (next < end && half + tokens[next] <= used / 2) half += tokens[next++];
    begin = std::max(next, begin + 1);
  }
  return windows;
}

}  // namespace light::data

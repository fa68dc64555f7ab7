#include "light/data/tile_merge.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>

#include "light/error.h"
#include "light/geometry/overlap.h"
#include "light/geometry/polygon.h"

namespace light::data {

namespace {

struct Placed {
  maptext::Word word;
  size_t tile = 0;  // the tile's place among the map's tiles
  double area = 0;
  geometry::BBox box;
};

}  // namespace

maptext::Dataset merge_tiles(const maptext::Dataset& tiles, const TileMergeOptions& opt, TileMergeReport* report) {
  if (!(opt.stride > 0 && std::isfinite(opt.stride))) throw Error("--merge-tiles: expected a stride in pixels above 0");
  if (!(opt.min_ioa > 0 && opt.min_ioa <= 1)) throw Error("--merge-ioa: expected a fraction in (0, 1]");
  static const std::regex kTile(R"(^(.*)_h(\d+)_w(\d+)(\.[A-Za-z0-9]+)?$)");
  struct Part {
    long row, col;
    const maptext::Tile* tile;
  };
  std::map<std::string, std::vector<Part>> maps;
  std::vector<std::string> order;  // maps and unmerged tiles in first-seen order ("" + index for the latter)
  maptext::Dataset out;
  std::vector<std::pair<std::string, size_t>> slots;
  for (const maptext::Tile& t : tiles) {
    std::smatch m;
    if (!std::regex_match(t.image, m, kTile)) {
      slots.emplace_back("", out.size());
      out.push_back(t);
      continue;
    }
    const std::string key = m[1].str();
    if (!maps.count(key)) slots.emplace_back(key, 0);
    maps[key].push_back({std::stol(m[2].str()), std::stol(m[3].str()), &t});
  }
  TileMergeReport r;
  maptext::Dataset result;
  for (const auto& [key, index] : slots) {
    if (key.empty()) {
      result.push_back(std::move(out[index]));
      continue;
    }
    std::vector<Part> parts = maps[key];
    std::stable_sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.row != b.row ? a.row < b.row : a.col < b.col; });
    std::vector<Placed> words;
    for (size_t p = 0; p < parts.size(); ++p) {
      const double dx = parts[p].col * opt.stride, dy = parts[p].row * opt.stride;
      for (const auto& g : parts[p].tile->groups)
        for (const auto& w : g) {
          Placed pl{w, p, 0, {}};
          for (auto& v : pl.word.vertices) v.x += dx, v.y += dy;
          pl.area = geometry::area(pl.word.vertices);
          pl.box = geometry::bbox(pl.word.vertices);
          words.push_back(std::move(pl));
        }
    }
    // Pairs of words of different tiles whose boxes overlap (a sweep along x), then their polygons.
    std::vector<size_t> by_x(words.size());
    for (size_t i = 0; i < by_x.size(); ++i) by_x[i] = i;
    std::sort(by_x.begin(), by_x.end(), [&](size_t a, size_t b) { return words[a].box.x0 < words[b].box.x0; });
    std::vector<char> dropped(words.size(), 0);
    geometry::GeosContext ctx;
    for (size_t a = 0; a < by_x.size(); ++a) {
      const size_t i = by_x[a];
      for (size_t b = a + 1; b < by_x.size() && words[by_x[b]].box.x0 <= words[i].box.x1; ++b) {
        const size_t j = by_x[b];
        if (dropped[i] || dropped[j] || words[i].tile == words[j].tile || !words[i].box.intersects(words[j].box)) continue;
        const auto gi = ctx.polygon(words[i].word.vertices), gj = ctx.polygon(words[j].word.vertices);
        const double ai = ctx.area(gi), aj = ctx.area(gj);
        const geometry::OverlapResult iou = ctx.iou(gi, ai, gj, aj);
        if (!iou.ok || iou.value <= 0) continue;
        const double inter = iou.value * (ai + aj + 1e-5) / (1 + iou.value);  // from the evaluator's IoU = I / (A + B - I + 1e-5)
        if (inter < opt.min_ioa * std::min(ai, aj) * (1 - 1e-9)) continue;
        const bool keep_i = words[i].area > words[j].area || (words[i].area == words[j].area && words[i].tile < words[j].tile);
        dropped[keep_i ? j : i] = 1;
        ++r.duplicates;
      }
    }
    maptext::Tile map;
    map.image = key;
    for (size_t i = 0; i < words.size(); ++i)
      if (!dropped[i]) map.groups.push_back({std::move(words[i].word)});
    result.push_back(std::move(map));
    ++r.maps;
    r.tiles += parts.size();
  }
  if (report) *report = r;
  return result;
}

}  // namespace light::data

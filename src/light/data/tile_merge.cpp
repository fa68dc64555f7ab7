#include "light/data/tile_merge.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

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

// MAP_h<row>_w<col>[.ext] read from the end, in linear time whatever the key's length (a regular
// expression with backtracking overflowed the stack on keys of 30,000 characters): false when the
// key is not so named; light::Error for a row or column past 10^9.
bool tile_key(const std::string& image, std::string& map, long& row, long& col) {
  size_t end = image.size();
  const size_t dot = image.rfind('.');
  if (dot != std::string::npos && dot + 1 < image.size() &&
      std::all_of(image.begin() + static_cast<long>(dot) + 1, image.end(), [](unsigned char c) { return std::isalnum(c); }))
    end = dot;
  const auto number = [&](size_t& e, long& value, char letter) {
    size_t b = e;
    while (b > 0 && std::isdigit(static_cast<unsigned char>(image[b - 1]))) --b;
    if (b == e || b < 2 || image[b - 1] != letter || image[b - 2] != '_') return false;
    if (e - b > 9) throw Error("image \"" + image.substr(0, 200) + (image.size() > 200 ? "...\"" : "\"") + ": tile " +
                               (letter == 'h' ? "row" : "column") + " " + image.substr(b, std::min<size_t>(e - b, 40)) +
                               " is past 10^9 (--merge-tiles)");
    value = std::stol(image.substr(b, e - b));
    e = b - 2;
    return true;
  };
  size_t e = end;
  if (!number(e, col, 'w') || !number(e, row, 'h')) return false;
  map = image.substr(0, e);
  return true;
}

}  // namespace

maptext::Dataset merge_tiles(const maptext::Dataset& tiles, const TileMergeOptions& opt, TileMergeReport* report) {
  if (!(opt.stride > 0 && std::isfinite(opt.stride))) throw Error("--merge-tiles: expected a stride in pixels above 0");
  if (!(opt.min_ioa > 0 && opt.min_ioa <= 1)) throw Error("--merge-ioa: expected a fraction in (0, 1]");
  struct Part {
    long row, col;
    const maptext::Tile* tile;
  };
  std::map<std::string, std::vector<Part>> maps;
  std::vector<std::string> order;  // maps and unmerged tiles in first-seen order ("" + index for the latter)
  maptext::Dataset out;
  std::vector<std::pair<std::string, size_t>> slots;
  for (const maptext::Tile& t : tiles) {
    std::string key;
    long row = 0, col = 0;
    if (!tile_key(t.image, key, row, col)) {
      slots.emplace_back("", out.size());
      out.push_back(t);
      continue;
    }
    if (!maps.count(key)) slots.emplace_back(key, 0);
    maps[key].push_back({row, col, &t});
  }
  // A merged map's key must not be an image of its own among the tiles left as they are (the output
  // would hold one image twice).
  for (const maptext::Tile& t : out)
    if (maps.count(t.image))
      throw Error("image \"" + t.image + "\": its tiles (e.g. \"" + maps[t.image][0].tile->image + "\") merge into a map of that very name, "
                  "which the file also holds as an image of its own; rename one (--merge-tiles)");
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
          for (auto& v : pl.word.vertices) {
            v.x += dx, v.y += dy;
            if (!(std::abs(v.x) < 1e15 && std::abs(v.y) < 1e15))
              throw Error("image \"" + parts[p].tile->image + "\": moved by row and column times the stride, its words land at (" +
                          std::to_string(v.x) + ", " + std::to_string(v.y) + "): past any map (--merge-tiles)");
          }
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

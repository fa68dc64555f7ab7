#include "light/data/synth/synth.h"

#include "light/data/polygon_noise.h"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <random>

#include "light/data/synth/builder.h"
#include "light/data/synth/canvas.h"
#include "light/data/synth/path.h"
#include "light/data/synth/text_render.h"
#include "light/geometry/polygon.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/interrupt.h"
#include "light/util/parallel.h"
#include "light/util/progress.h"

namespace light::synth {

using geometry::BBox;

Style parse_style(const std::string& name) {
  if (name == "clean") return Style::Clean;
  if (name == "aged") return Style::Aged;
  if (name == "mixed") return Style::Mixed;
  throw Error("--style: expected clean, aged or mixed, got \"" + name + "\"");
}

namespace {
// Each style's name and layout mix (along, straight, rotated, curved, stacked, spread, numbers, clusters, lines, spaced).
struct StyleRow {
  MapStyle style;
  const char* name;
  LayoutMix layouts;
};
const StyleRow kStyles[] = {
    {MapStyle::Atlas, "atlas", {18, 32, 12, 12, 8, 5, 13, 0.35, 14, 6}},
    {MapStyle::Topographic, "topographic", {35, 12, 28, 8, 12, 2, 3, 0.1, 18, 5}},
    {MapStyle::City, "city", {55, 12, 3, 0, 5, 3, 22, 0.5, 8, 6}},
    {MapStyle::Nautical, "nautical", {6, 12, 8, 4, 3, 2, 65, 0.2, 6, 3}},
    {MapStyle::Regional, "regional", {25, 42, 8, 5, 3, 12, 5, 0.0, 8, 8}},
};
}  // namespace

MapStyle parse_map_style(const std::string& name) {
  if (name == "classic") return MapStyle::Atlas;
  for (const StyleRow& row : kStyles)
    if (name == row.name) return row.style;
  throw Error("map style: expected atlas, topographic, city, nautical or regional, got \"" + name + "\"");
}

bool is_map_style(const std::string& name) {
  for (const StyleRow& row : kStyles)
    if (name == row.name) return true;
  return false;
}

const char* map_style_name(MapStyle style) { return kStyles[static_cast<int>(style)].name; }

LayoutMix style_layouts(MapStyle style) { return kStyles[static_cast<int>(style)].layouts; }

LayoutMix parse_layouts(const std::string& spec) {
  if (spec == "default" || spec == "classic") return {};
  if (spec == "curvy") {
    LayoutMix m;
    m.along = 30, m.straight = 8, m.rotated = 22, m.curved = 32, m.stacked = 3, m.spread = 2, m.numbers = 3;
    return m;
  }
  LayoutMix m;
  double* const fields[] = {&m.along, &m.straight, &m.rotated, &m.curved, &m.stacked, &m.spread, &m.numbers, &m.lines, &m.spaced};
  const char* const names[] = {"along", "straight", "rotated", "curved", "stacked", "spread", "numbers", "lines", "spaced"};
  for (double* f : fields) *f = 0;
  std::string expected = "expected default, curvy or a list such as \"curved=3,rotated=1\" (layouts:";
  for (const char* n : names) expected += std::string(n == names[0] ? " " : ", ") + n;
  expected += ")";
  if (spec.empty()) throw Error("--layouts: " + expected);
  double sum = 0;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = spec.find(',', start);
    if (end == std::string::npos) end = spec.size();
    const std::string item = spec.substr(start, end - start);
    const size_t eq = item.find('=');
    int k = -1;
    for (int i = 0; i < 9 && eq != std::string::npos; ++i)
      if (item.compare(0, eq, names[i]) == 0 && eq == std::strlen(names[i])) k = i;
    if (k < 0) throw Error("--layouts: unknown item \"" + item + "\"; " + expected);
    double w = -1;
    try {
      size_t used = 0;
      w = std::stod(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1) w = -1;
    } catch (const std::exception&) {
      w = -1;
    }
    if (!(w >= 0 && std::isfinite(w))) throw Error("--layouts: \"" + item + "\": the weight must be a number >= 0");
    *fields[k] = w;
    sum += w;
    start = end + 1;
  }
  if (!(sum > 0)) throw Error("--layouts: \"" + spec + "\": at least one weight must be above 0");
  return m;
}

bool legible(double letter_px, double blur_px, double min_px) {
  return min_px <= 0 || letter_px >= min_px + blur_px;
}

SynthOptions tile_options(const SynthOptions& options, uint64_t index) {
  SynthOptions o = options;
  if (!o.vary_side && !o.vary_density && !o.vary_height && !o.vary_style) return o;
  // The tile's own stream, apart from the one that draws its content.
  Rng r(mix(mix(o.seed, index), 0x5CA1Eull));
  const auto log_uniform = [&](double lo, double hi) { return std::exp(r.uni(std::log(lo), std::log(hi))); };
  const ScaleRanges& g = o.ranges;
  const double side = log_uniform(g.side_min, g.side_max), density = log_uniform(g.density_min, g.density_max),
               height = log_uniform(g.height_min, g.height_max);
  if (o.vary_side) o.width = o.height = static_cast<int>(std::lround(side));
  if (o.vary_density) o.density = density;
  if (o.vary_height) o.font_scale = height * std::sqrt(static_cast<double>(o.width) * o.height) / 24.0;
  if (o.vary_style) o.map_style = static_cast<MapStyle>(r.integer(0, 4));
  return o;
}

void turn_tile(maptext::Tile& tile, SynthImage* image, int width, int height, int turns) {
  turns = ((turns % 4) + 4) % 4;
  if (turns == 0) return;
  for (auto& group : tile.groups)
    for (auto& w : group)
      for (auto& p : w.vertices) {
        double W = width, H = height;
        for (int t = 0; t < turns; ++t) {  // clockwise: (x, y) -> (H - y, x) in a W x H frame, which becomes H x W
          const double x = p.x;
          p.x = H - p.y, p.y = x;
          std::swap(W, H);
        }
      }
  if (image) {
    if (image->width != width || image->height != height || image->bgr.size() != static_cast<size_t>(width) * height * 3)
      throw Error("turn_tile: the image is not the tile's size");
    const cv::Mat in(height, width, CV_8UC3, image->bgr.data());
    cv::Mat out;
    cv::rotate(in, out, turns == 1 ? cv::ROTATE_90_CLOCKWISE : turns == 2 ? cv::ROTATE_180 : cv::ROTATE_90_COUNTERCLOCKWISE);
    image->width = out.cols, image->height = out.rows;
    image->bgr.assign(out.data, out.data + out.total() * 3);
  }
}

maptext::Tile generate_tile(const Gazetteer& names, const SynthOptions& options, uint64_t index, const std::string& image_key,
                            SynthImage* image, TilePlaces* places) {
  SynthOptions opt = tile_options(options, index);
  if (opt.width < 64 || opt.height < 64) throw Error("--size: tiles must be at least 64 x 64 pixels");
  // A tile whose lettering is too large for it to place any word is made again with fonts half the
  // size (every tile of a training set needs a word).
  for (int attempt = 0;; ++attempt) {
    Builder b(names, opt, mix(opt.seed, index));
    b.tile.image = image_key;
    b.background(opt.map_style);
    TilePlaces drawn;
    if (opt.places) b.drawn_places = &drawn, b.real_places();
    b.lettering();
    if (!b.tile.groups.empty() || attempt == 5) {
      b.age();
      if (image) b.finish(image);
      turn_tile(b.tile, image, opt.width, opt.height, opt.quarter_turns);
      data::jitter_word_polygons_by_hand(b.tile, opt.hand_noise, mix(opt.seed ^ 0x68616e64ULL, index));
      if (places) *places = std::move(drawn);
      return std::move(b.tile);
    }
    opt.font_scale *= 0.5;
  }
}

maptext::Tile phrase_tile(const std::vector<std::string>& words, PhraseLayout layout, int width, int height,
                          uint64_t seed, SynthImage* image) {
  SynthOptions opt;
  opt.width = width;
  opt.height = height;
  opt.style = Style::Clean;
  const Gazetteer names("");
  Builder b(names, opt, mix(seed, 0));
  b.tile.image = "phrase.png";
  cairo_set_source_rgb(b.cr, 1, 1, 1);
  cairo_paint(b.cr);
  Name name{words, NameKind::Lake};
  for (int attempt = 0; attempt < 20 && b.tile.groups.empty(); ++attempt) {
    switch (layout) {
      case PhraseLayout::Straight: b.straight(name, 0.0, false); break;
      case PhraseLayout::Rotated: b.straight(name, b.r.uni(-1.2, 1.2), false); break;
      case PhraseLayout::Curved: b.curved(name); break;
      case PhraseLayout::Stacked: b.stacked(name); break;
      case PhraseLayout::Spread: b.straight(name, 0.0, true); break;
      case PhraseLayout::Lines: b.lines_label(name); break;
      case PhraseLayout::Spaced: b.spaced_name(nullptr); break;
    }
  }
  if (b.tile.groups.empty()) throw Error("phrase_tile: the phrase does not fit the tile");
  b.age();
  if (image) b.finish(image);
  return std::move(b.tile);
}

std::vector<unsigned char> encode_png(const SynthImage& image) {
  const cv::Mat m(image.height, image.width, CV_8UC3, const_cast<unsigned char*>(image.bgr.data()));
  std::vector<unsigned char> buf;
  if (!cv::imencode(".png", m, buf, {cv::IMWRITE_PNG_COMPRESSION, 3})) throw Error("PNG encoding failed");
  return buf;
}

maptext::Dataset synthesize(const Gazetteer& names, const SynthOptions& opt, const std::string& out_dir, int count,
                            int threads, bool progress) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(fs::path(out_dir) / "images", ec);
  if (ec) throw Error(out_dir + ": cannot create the output folder: " + ec.message());
  maptext::Dataset data(static_cast<size_t>(count));
  std::vector<TilePlaces> places(opt.places ? static_cast<size_t>(count) : 0);
  std::vector<std::pair<int, int>> sizes(places.size());
  Progress bar("synth", static_cast<size_t>(count), "tiles");
  parallel_for(static_cast<size_t>(count), threads, [&](size_t k, int) {
    check_interrupted();  // SIGINT/SIGTERM: no further tile; the command removes the half-made set
    char name[64];
    std::snprintf(name, sizeof name, "images/tile_%06zu.png", k);
    SynthImage img;
    data[k] = generate_tile(names, opt, static_cast<uint64_t>(k), name, &img, opt.places ? &places[k] : nullptr);
    if (opt.places) sizes[k] = {img.width, img.height};
    const auto png = encode_png(img);
    write_file_atomic((fs::path(out_dir) / name).string(), std::string(png.begin(), png.end()));
    if (progress) bar.add();
  });
  if (progress) bar.finish();
  maptext::write_maptext((fs::path(out_dir) / "annotations.json").string(), data);
  if (opt.places) {
    std::vector<std::string> images;
    for (const auto& t : data) images.push_back(t.image);
    write_file_atomic((fs::path(out_dir) / "places.json").string(), tile_places_json(images, sizes, places));
  }
  return data;
}

}  // namespace light::synth

#include "light/data/scale_windows.h"

#include <numeric>

#include <algorithm>
#include <cmath>

#include "light/error.h"
#include "light/geometry/polygon.h"

namespace light::data {

double median_word_height(const maptext::Tile& tile) {
  std::vector<double> h;
  for (const auto& group : tile.groups)
    for (const auto& w : group) {
      const geometry::BBox b = geometry::bbox(w.vertices);
      if (b.x0 == b.x1 || b.y0 == b.y1) continue;
      const double height = geometry::reading_frame(w.vertices).height;
      if (std::isfinite(height) && height > 0) h.push_back(height);
    }
  if (h.empty()) return 0.0;
  const size_t mid = h.size() / 2;
  std::nth_element(h.begin(), h.begin() + static_cast<long>(mid), h.end());
  return h[mid];
}

double window_side(const maptext::Tile& tile, double word_height) {
  if (!(word_height > 0 && word_height < 1)) throw Error("window word height: expected a fraction in (0, 1)");
  return median_word_height(tile) / word_height;
}

namespace {
std::vector<double> starts(double length, double side, double stride) {
  if (length <= side) return {0.0};
  const double span = length - side;
  const size_t k = static_cast<size_t>(std::ceil(span / (stride * side) - 1e-9)) + 1;
  std::vector<double> out;
  for (size_t i = 0; i < k; ++i) out.push_back(span * static_cast<double>(i) / static_cast<double>(k - 1));
  return out;
}
}  // namespace

std::vector<Region> plan_regions(int width, int height, double side, double stride) {
  if (!(side > 0) || !std::isfinite(side)) throw Error("scale windows: the window side must be a positive number of pixels");
  if (!(stride > 0 && stride <= 1)) throw Error("scale windows: the stride must be in (0, 1]");
  std::vector<Region> out;
  for (double y : starts(height, side, stride))
    for (double x : starts(width, side, stride)) out.push_back({x, y, x + side, y + side});
  return out;
}

double fewest_windows_side(int width, int height, double side, double slack, double stride) {
  if (!(side > 0) || !std::isfinite(side)) throw Error("scale windows: the window side must be a positive number of pixels");
  if (!(slack >= 1)) throw Error("scale windows: the slack must be at least 1");
  auto count = [&](double s) { return starts(width, s, stride).size() * starts(height, s, stride).size(); };
  // The count changes where an axis of length L needs one window fewer: s = L / (1 + (m - 1) stride).
  std::vector<double> candidates{side};
  for (const double L : {static_cast<double>(width), static_cast<double>(height)})
    for (int m = 1; m <= static_cast<int>(std::ceil(L / (stride * side))) + 2; ++m) {
      const double s = L / (1.0 + (m - 1) * stride) * (1.0 + 1e-12);
      if (s >= side && s <= slack * side) candidates.push_back(s);
    }
  double best = side;
  for (const double s : candidates)
    if (count(s) < count(best) || (count(s) == count(best) && s < best)) best = s;
  return best;
}

double centrality(const Region& r, int width, int height, double x, double y) {
  // Edges beyond or on the tile's own edges do not count: no word lies past them.
  double d = 0.5 * std::max(r.width(), r.height());
  if (r.x0 > 0) d = std::min(d, x - r.x0);
  if (r.y0 > 0) d = std::min(d, y - r.y0);
  if (r.x1 < width) d = std::min(d, r.x1 - x);
  if (r.y1 < height) d = std::min(d, r.y1 - y);
  return d / std::max(r.width(), r.height());
}

Region random_region(const std::vector<maptext::Point>& centres, double side, double scale_jitter, std::mt19937_64& rng) {
  if (centres.empty()) throw Error("scale windows: a tile without words has no window");
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double s = side * std::exp(scale_jitter * u(rng));
  const maptext::Point c = centres[std::uniform_int_distribution<size_t>(0, centres.size() - 1)(rng)];
  const double cx = c.x + 0.25 * s * u(rng), cy = c.y + 0.25 * s * u(rng);
  return {cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2};
}

std::vector<maptext::Point> word_centres(const maptext::Tile& tile) {
  std::vector<maptext::Point> out;
  for (const auto& group : tile.groups)
    for (const auto& w : group) {
      if (w.ignore()) continue;  // as select_words: the model never sees it
      const geometry::BBox b = geometry::bbox(w.vertices);
      if (b.x0 == b.x1 || b.y0 == b.y1) continue;
      out.push_back({(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2});
    }
  return out;
}

std::vector<float> region_pixels(const image::RgbImage& img, double scale, const Region& r, int size) {
  const int x0 = static_cast<int>(std::floor(r.x0 * scale)), y0 = static_cast<int>(std::floor(r.y0 * scale));
  const int w = std::max(1, static_cast<int>(std::lround(r.width() * scale))), h = std::max(1, static_cast<int>(std::lround(r.height() * scale)));
  if (x0 == 0 && y0 == 0 && w == img.width && h == img.height)  // the whole image (a paper model's frame): no copy
    return image::pixel_values(image::pil_resize_bilinear(img, size, size));
  return image::pixel_values(image::pil_resize_bilinear(image::crop_padded(img, x0, y0, w, h), size, size));
}

InferencePlan plan_inference(const maptext::Tile& tile, int width, int height, double word_height) {
  const Region whole{0, 0, static_cast<double>(width), static_cast<double>(height)};
  double side = word_height > 0 ? window_side(tile, word_height) : 0.0;
  // Words a fraction of a pixel high would ask for millions of windows: at most about
  // kMaxInferenceWindows (4 W H / side^2 at half-side strides), the words then read smaller than the
  // trained scale (no real lettering is that small: a whole 8000 x 6000 map with 3-px words still
  // gets its own scale).
  if (side > 0) side = std::max(side, 2.0 * std::sqrt(static_cast<double>(width) * height / kMaxInferenceWindows));
  const double longer = std::max(width, height);
  // A tile smaller than a window (large lettering) is read through one window of the full side, the
  // tile in its middle and white around it: its words at the trained scale, as training's windows
  // (which reach beyond a small tile) show them, not enlarged to fill the window.
  if (side > longer) {
    const double x0 = (width - side) / 2, y0 = (height - side) / 2;
    return {side, {Region{x0, y0, x0 + side, y0 + side}}};
  }
  // A tile a little larger than a window is read as one: its words then come at most 1/1.3 of the
  // trained scale, inside the training's jitter (exp(-0.35) = 1/1.42), instead of through four or more
  // heavily overlapping windows.
  if (side > 0 && longer <= kOneWindowSlack * side) side = longer;
  else if (side > 0) side = fewest_windows_side(width, height, side, kOneWindowSlack);
  return {side, side > 0 ? plan_regions(width, height, side) : std::vector<Region>{whole}};
}

void for_each_inference_window(const maptext::Tile& tile, int width, int height, const std::vector<ModelWord>& words,
                               const image::RgbImage& image, double scale, const Tokenize& tokenize, int length, const SpecialIds& special,
                               double word_height, int image_size, const std::function<void(InferenceWindow&&)>& fn,
                               const image::RgbImage* at_scale) {
  if (words.empty()) return;
  std::vector<size_t> tile_index(tile.word_count(), SIZE_MAX);  // source -> model-order index
  for (size_t k = 0; k < words.size(); ++k) tile_index.at(words[k].source) = k;
  std::vector<const maptext::Word*> by_source;
  for (const auto& group : tile.groups)
    for (const auto& w : group) by_source.push_back(&w);
  const InferencePlan plan = plan_inference(tile, width, height, word_height);
  const double side = plan.side;
  const std::vector<Region>& regions = plan.regions;
  // Several windows (all of one side): the image resized once to the windows' scale, each window a
  // crop of it, its origin rounded to a whole pixel of the model's input. The same pixels as
  // resizing each window's crop up to the resampling at the window's edges, in a fraction of the time.
  image::RgbImage resized;
  const double f = regions.size() > 1 ? image_size / (side * scale) : 0.0;
  if (f > 0 && !at_scale)
    resized = image::pil_resize_bilinear(image, std::max(1, static_cast<int>(std::lround(image.width * f))),
                                         std::max(1, static_cast<int>(std::lround(image.height * f))));
  if (f == 0 && at_scale) throw Error("inference windows: a tile read as one window needs its whole image");
  const image::RgbImage& at_window_scale = at_scale ? *at_scale : resized;
  for (const Region& r : regions) {
    SelectOptions so;
    so.region = side > 0 ? &r : nullptr;
    const std::vector<ModelWord> in_region = select_words(tile, width, height, so);
    if (in_region.empty()) continue;
    std::vector<size_t> tokens;
    for (const auto& w : in_region) tokens.push_back(tokenize(w.text).size());
    const std::vector<float> pixels =
        f > 0 ? image::pixel_values(image::crop_padded(at_window_scale, static_cast<int>(std::lround(r.x0 * scale * f)),
                                                       static_cast<int>(std::lround(r.y0 * scale * f)), image_size, image_size))
              : region_pixels(image, scale, r, image_size);
    for (const Window& tw : plan_windows(tokens, length)) {
      InferenceWindow w;
      w.inputs = layout_tokens(in_region, tokenize, length, tw.begin, tw.end, special);
      w.inputs.aspect = r.width() / r.height();
      const double m = static_cast<double>(w.inputs.words.size());
      for (size_t a = 0; a < w.inputs.words.size(); ++a) {
        const ModelWord& mw = w.inputs.words[a];
        const geometry::BBox b = geometry::bbox(by_source.at(mw.source)->vertices);
        const double token_centre = 1.0 - std::abs((static_cast<double>(a) + 0.5) / m - 0.5);
        const double spatial = side > 0 ? centrality(r, width, height, (b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2) : 1.0;
        w.index.push_back(tile_index.at(mw.source));
        w.centre.push_back(spatial * token_centre);
      }
      if (w.index.empty()) continue;
      w.pixels = pixels;
      fn(std::move(w));
    }
  }
}

std::vector<InferenceWindow> inference_windows(const maptext::Tile& tile, int width, int height, const std::vector<ModelWord>& words,
                                               const image::RgbImage& image, double scale, const Tokenize& tokenize, int length,
                                               const SpecialIds& special, double word_height, int image_size) {
  std::vector<InferenceWindow> out;
  for_each_inference_window(tile, width, height, words, image, scale, tokenize, length, special, word_height, image_size,
                            [&](InferenceWindow&& w) { out.push_back(std::move(w)); });
  return out;
}

size_t for_each_inference_window_batch(const maptext::Tile& tile, int width, int height, const std::vector<ModelWord>& words,
                                       const image::RgbImage& image, double scale, const Tokenize& tokenize, int length,
                                       const SpecialIds& special, double word_height, int image_size,
                                       const std::function<void(const std::vector<InferenceWindow>& batch)>& fn,
                                       const image::RgbImage* at_scale) {
  std::vector<InferenceWindow> batch;
  size_t count = 0;
  for_each_inference_window(tile, width, height, words, image, scale, tokenize, length, special, word_height, image_size,
                            [&](InferenceWindow&& w) {
                              ++count;
                              batch.push_back(std::move(w));
                              if (batch.size() == kWindowsPerForward) fn(batch), batch.clear();
                            },
                            at_scale);
  if (!batch.empty()) fn(batch);
  return count;
}

void for_each_window_batch(const std::vector<InferenceWindow>& windows,
                           const std::function<void(size_t, const std::vector<const TileInputs*>&,
                                                    const std::vector<const std::vector<float>*>&)>& fn) {
  for (size_t first = 0; first < windows.size(); first += kWindowsPerForward) {
    std::vector<const TileInputs*> inputs;
    std::vector<const std::vector<float>*> pixels;
    for (size_t k = first; k < std::min(windows.size(), first + kWindowsPerForward); ++k)
      inputs.push_back(&windows[k].inputs), pixels.push_back(&windows[k].pixels);
    fn(first, inputs, pixels);
  }
}

WindowMerge::WindowMerge(size_t n, double other_windows)
    : n_(n),
      best_(n, -1.0),
      P_(static_cast<int>(n)),
      Q_(static_cast<int>(n)),
      other_windows_(other_windows),
      other_(other_windows > 0 ? n : 0) {
  if (!(other_windows >= 0)) throw Error("window merge: the other windows' factor must be 0 or more");
}

void WindowMerge::add(const std::vector<size_t>& index, const std::vector<double>& centre, const std::vector<float>& probs,
                      const std::vector<float>& bi_probs) {
  const size_t m = index.size();
  if (centre.size() != m || probs.size() != m * m || bi_probs.size() != m * m) throw Error("window merge: sizes disagree");
  std::vector<size_t> by_column(m);  // the window's words in ascending tile index
  std::iota(by_column.begin(), by_column.end(), size_t{0});
  std::sort(by_column.begin(), by_column.end(), [&](size_t a, size_t b) { return index[a] < index[b]; });
  for (size_t a = 0; a < m; ++a) {
    const size_t i = index[a];
    if (i >= n_) throw Error("window merge: word index out of range");
    if (other_windows_ > 0) {  // the word's entries so far and this window's, both by index, merged
      const auto& o = other_[i];
      std::vector<std::pair<int, Other>> merged;
      merged.reserve(o.size() + m);
      auto it = o.begin();
      for (size_t c : by_column) {
        const int j = static_cast<int>(index[c]);
        if (j == static_cast<int>(i) || (!merged.empty() && merged.back().first == j)) continue;  // itself; a word twice
        while (it != o.end() && it->first < j) merged.push_back(*it++);
        const Other v{static_cast<float>(centre[a]), probs[a * m + c], bi_probs[a * m + c]};
        if (it != o.end() && it->first == j) {
          merged.push_back(v.centre > it->second.centre ? std::make_pair(j, v) : *it);
          ++it;
        } else {
          merged.emplace_back(j, v);
        }
      }
      merged.insert(merged.end(), it, o.end());
      other_[i] = std::move(merged);
    }
    if (centre[a] <= best_[i]) continue;
    best_[i] = centre[a];
    auto& p = P_.rows[i];
    auto& q = Q_.rows[i];
    p.clear(), q.clear();
    for (size_t c : by_column) {
      if (!p.empty() && p.back().first == static_cast<int>(index[c])) {  // a word twice in a window: the later entry, as a dense copy
        p.back().second = probs[a * m + c], q.back().second = bi_probs[a * m + c];
        continue;
      }
      p.emplace_back(static_cast<int>(index[c]), probs[a * m + c]);
      q.emplace_back(static_cast<int>(index[c]), bi_probs[a * m + c]);
    }
  }
}

void WindowMerge::finish(SparseRows& probs, SparseRows& bi_probs, double self_bias) const {
  probs = P_;
  bi_probs = Q_;
  for (size_t i = 0; i < n_; ++i) {
    const int k = static_cast<int>(i);
    if (best_[i] < 0) probs.rows[i] = bi_probs.rows[i] = {{k, 1.0f}};
    if (other_windows_ > 0 && best_[i] >= 0) {  // the words the most central window does not hold
      auto& p = probs.rows[i];
      auto& q = bi_probs.rows[i];
      const size_t held = p.size();
      for (const auto& [j, v] : other_[i]) {
        const auto at = std::lower_bound(p.begin(), p.begin() + static_cast<long>(held), std::make_pair(j, -1e30f));
        if (at != p.begin() + static_cast<long>(held) && at->first == j) continue;
        p.emplace_back(j, static_cast<float>(v.p * other_windows_));
        q.emplace_back(j, static_cast<float>(v.q * other_windows_));
      }
      if (p.size() > held) {
        const auto by_column = [](const std::pair<int, float>& x, const std::pair<int, float>& y) { return x.first < y.first; };
        std::inplace_merge(p.begin(), p.begin() + static_cast<long>(held), p.end(), by_column);
        std::inplace_merge(q.begin(), q.begin() + static_cast<long>(held), q.end(), by_column);
      }
    }
    if (self_bias != 1.0) {
      if (float* v = probs.find(k, k)) *v = static_cast<float>(*v * self_bias);
      if (float* v = bi_probs.find(k, k)) *v = static_cast<float>(*v * self_bias);
    }
  }
}

}  // namespace light::data

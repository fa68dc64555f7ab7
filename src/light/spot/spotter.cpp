#include "light/spot/spotter.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <nlohmann/json.hpp>

#include "light/data/detector_targets.h"
#include "light/data/word_crops.h"
#include "light/error.h"
#include "light/model/spotter_models.h"
#include "light/spot/lone_glyphs.h"
#include "light/spot/reading.h"
#include "light/spot/spaced_words.h"
#include "light/util/bundled.h"
#include "light/util/fs.h"
#include "light/util/progress.h"
#include "light/util/unicode.h"
#include "light/util/utf8.h"

namespace light::spot {

namespace fs = std::filesystem;

std::string default_spotter_dir() {
  if (const char* env = std::getenv("LIGHT_SPOTTER"); env && *env) return env;
  const std::vector<std::string> looked = bundled_folder_candidates(executable_dir(), "spotter");
  for (const std::string& dir : looked)
    if (fs::is_regular_file(fs::path(dir) / "detector.safetensors")) return dir;
  std::string list;
  for (const std::string& dir : looked) list += (list.empty() ? "" : ", ") + dir;
  throw Error("no spotter folder found (looked in " + list + "); give --spotter DIR or set LIGHT_SPOTTER");
}

struct Spotter::Impl {
  model::SpotterModels models;
  Dictionary dict;
  std::vector<bool> allowed;
  SpotOptions options;
  Impl(const std::string& dir, const model::PredictorOptions& runtime, const SpotOptions& o)
      : models(dir, runtime), dict(dir + "/keys.txt", models.classes()), allowed(dict.allowed(o.alphabet)), options(o) {}
  // The detector's probabilities over `area` (image pixels) of the image resized by `scale` (turned a
  // quarter when `turned`), put into `prob` (a byte a pixel, the image's size) where higher.
  void detect_into(cv::Mat& prob, const image::RgbImage& image, const cv::Rect& area, double scale, bool turned);
  // The lines of the upright reading, its probability map left in `prob`.
  std::vector<TextBox> lines_at(const image::RgbImage& image, double scale, cv::Mat& prob);
  // Those lines with the small ones a reading enlarged again finds (SpotOptions::small_quantile).
  std::vector<TextBox> with_small_lines(const image::RgbImage& image, double scale, std::vector<TextBox> boxes);
  // Those lines with the steep ones a reading turned a quarter finds in `areas` (SpotOptions::turned_pass).
  std::vector<TextBox> with_turned_lines(const image::RgbImage& image, double scale, const std::vector<cv::Rect>& areas,
                                         std::vector<TextBox> upright);
};

Spotter::Spotter(const std::string& dir, const model::PredictorOptions& runtime, const SpotOptions& options) {
  if (!(options.scale == 0 || (options.scale >= 0.1 && options.scale <= 8))) throw Error("--scale: expected 0 (auto) or 0.1 to 8");
  if (!(options.glyph_score >= 0 && options.glyph_score <= 1)) throw Error("--glyph-score: expected 0 (do not look for letters alone in the ink) to 1");
  // Windows overlap by `overlap` pixels, so the smallest window is the next multiple of 32 above it.
  if (options.overlap < 0) throw Error("overlap: expected 0 or more pixels");
  const int least_window = (options.overlap + 32) / 32 * 32;
  if (options.window < least_window || options.window % 32)
    throw Error("--window: expected a multiple of 32 of at least " + std::to_string(least_window) + " (the windows overlap by " +
                std::to_string(options.overlap) + " px), got " + std::to_string(options.window));
  if (!(options.min_score >= 0 && options.min_score <= 1))
    throw Error("--min-score: expected a probability from 0 to 1 (words whose characters' mean probability is below are dropped)");
  if (!(options.small_quantile >= 0 && options.small_quantile < 1)) throw Error("small_quantile: expected 0 (not read again) to below 1");
  if (options.small_quantile > 0 && options.scale != 0) {
    char scale[32];
    std::snprintf(scale, sizeof scale, "%g", options.scale);
    throw Error("--small-lettering: the map is read again enlarged from the scale its lettering sets, so only with --scale 0 (auto, the "
                "default); with --scale " + std::string(scale) + " leave it out");
  }
  for (const char* f : {"detector.safetensors", "recognizer.safetensors", "keys.txt"})
    if (!fs::is_regular_file(fs::path(dir) / f)) throw Error(dir + ": not a spotter folder (no " + f + ")");
  impl_ = std::make_unique<Impl>(dir, runtime, options);
}

Spotter::~Spotter() = default;
Spotter::Spotter(Spotter&&) noexcept = default;
Spotter& Spotter::operator=(Spotter&&) noexcept = default;

namespace {

// The detector's input for a window of RGB pixels padded to pw x ph (data::detector_planes).
std::vector<float> detector_input(const cv::Mat& rgb, int pw, int ph) {
  std::vector<float> out(static_cast<size_t>(3) * pw * ph);
  data::detector_planes(rgb.ptr<uint8_t>(), rgb.cols, rgb.rows, rgb.step[0], pw, ph, out.data());
  return out;
}

int round_up32(int v) { return (v + 31) / 32 * 32; }


// The lines' heights, in their order.
std::vector<double> heights_of(const std::vector<TextBox>& boxes) {
  std::vector<double> heights;
  for (const TextBox& b : boxes) heights.push_back(b.height());
  return heights;
}

// Where the upright reading saw something that is not a level line: every place its probability map
// reaches `low` outside the level lines it found (line work, far longer than thick, left out), each
// grown by its own extent (a steep name seen upright is often a letter or two) and 8 px.
std::vector<cv::Rect> unsettled_regions(const cv::Mat& prob, const std::vector<TextBox>& upright, double low) {
  cv::Mat mask;
  cv::threshold(prob, mask, low * 255, 255, cv::THRESH_BINARY);
  for (const TextBox& b : upright) {
    if (!is_level_line(b)) continue;
    std::vector<cv::Point> poly;
    for (const auto& c : b.corners) poly.emplace_back(cvRound(c.x), cvRound(c.y));
    cv::fillConvexPoly(mask, poly, cv::Scalar(0));
  }
  std::vector<std::vector<cv::Point>> blobs;
  cv::findContours(mask, blobs, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
  const cv::Rect image(0, 0, prob.cols, prob.rows);
  std::vector<cv::Rect> rects;
  for (const auto& blob : blobs) {
    const cv::RotatedRect r = cv::minAreaRect(blob);
    const double longer = std::max(r.size.width, r.size.height), shorter = std::min(r.size.width, r.size.height);
    if (longer < 3 || longer > 25 * std::max(shorter, 1.0)) continue;  // a speck, or line work
    const cv::Rect b = cv::boundingRect(blob);
    const int pad = std::max(b.width, b.height) + 8;
    rects.push_back(cv::Rect(b.x - pad, b.y - pad, b.width + 2 * pad, b.height + 2 * pad) & image);
  }
  // Two overlapping areas are read as one where that reads no more pixels than reading both; each
  // area takes in the later ones it may until none is left to take (one pass: an area that then
  // overlaps an earlier one is read twice there, which costs time, never a line).
  for (size_t i = 0; i < rects.size(); ++i)
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t j = i + 1; j < rects.size(); ++j) {
        const cv::Rect both = rects[i] | rects[j];
        if ((rects[i] & rects[j]).area() > 0 && both.area() <= rects[i].area() + rects[j].area()) {
          rects[i] = both;
          rects[j] = rects.back();
          rects.pop_back();
          grew = true;
          break;
        }
      }
    }
  return rects;
}
}  // namespace

std::vector<TextBox> Spotter::lines(const image::RgbImage& image) {
  const SpotOptions& o = impl_->options;
  cv::Mat prob;
  double scale = o.scale > 0 ? o.scale : 1;
  std::vector<TextBox> boxes = impl_->lines_at(image, scale, prob);
  // Auto: read at 1, then again enlarged when the lettering found is small (the detector was
  // trained on text some 20-40 px high): so that the median line is `auto_height` pixels high.
  if (o.scale == 0 && !boxes.empty()) {
    std::vector<double> heights = heights_of(boxes);
    std::nth_element(heights.begin(), heights.begin() + static_cast<long>(heights.size() / 2), heights.end());
    const double median = heights[heights.size() / 2];
    const double enlarged = std::min(o.max_scale, std::round(o.auto_height / std::max(median, 1.0) * 4) / 4);
    if (enlarged > 1.2) {
      std::vector<TextBox> at_one = std::move(boxes);
      boxes = impl_->lines_at(image, scale = enlarged, prob);
      if (o.large_height > 0)
        boxes = merge_large_lines(std::move(boxes), at_one, o.large_height * o.auto_height / enlarged, o.piece_height);
    }
  }
  // Where to read the image turned is told by the upright map, which is then let go: a whole map
  // holds one map at a time.
  std::vector<cv::Rect> turned;
  if (o.turned_pass)
    turned = o.unsettled > 0 ? unsettled_regions(prob, boxes, o.unsettled) : std::vector<cv::Rect>{cv::Rect(0, 0, image.width, image.height)};
  prob.release();
  if (o.scale == 0) boxes = impl_->with_small_lines(image, scale, std::move(boxes));
  return impl_->with_turned_lines(image, scale, turned, std::move(boxes));
}

std::vector<TextBox> Spotter::Impl::with_small_lines(const image::RgbImage& image, double scale, std::vector<TextBox> boxes) {
  const SpotOptions& o = options;
  if (o.small_quantile <= 0 || boxes.empty()) return boxes;
  std::vector<double> heights = heights_of(boxes);
  std::sort(heights.begin(), heights.end());
  const double low = heights[static_cast<size_t>(o.small_quantile * static_cast<double>(heights.size() - 1))];
  const double again = std::min(o.max_small_scale, std::round(o.auto_height / std::max(low, 1.0) * 4) / 4);
  if (again < o.small_trigger * scale) return boxes;
  cv::Mat prob;
  std::vector<TextBox> small;
  for (TextBox& b : lines_at(image, again, prob))
    if (b.height() * again <= o.small_height * o.auto_height) {
      b.small = true;
      small.push_back(std::move(b));
    }
  return add_unseen_lines(std::move(boxes), small);
}

std::vector<TextBox> Spotter::Impl::with_turned_lines(const image::RgbImage& image, double scale, const std::vector<cv::Rect>& areas,
                                                      std::vector<TextBox> upright) {
  if (areas.empty()) return upright;
  // The detector finds steep lettering less well than level lettering: the image is read again
  // turned a quarter, and each steep, elongated line found so replaces what the upright reading made
  // of the same place, unless that was a level line.
  cv::Mat prob(image.height, image.width, CV_8U, cv::Scalar(0));
  for (const cv::Rect& area : areas) detect_into(prob, image, area, scale, true);
  return merge_turned_lines(std::move(upright), text_boxes(prob.ptr<uint8_t>(), prob.rows, prob.cols, options.boxes));
}

std::vector<TextBox> Spotter::Impl::lines_at(const image::RgbImage& image, double scale, cv::Mat& prob) {
  prob = cv::Mat(image.height, image.width, CV_8U, cv::Scalar(0));
  detect_into(prob, image, cv::Rect(0, 0, image.width, image.height), scale, false);
  return text_boxes(prob.ptr<uint8_t>(), image.height, image.width, options.boxes);
}

void Spotter::Impl::detect_into(cv::Mat& prob, const image::RgbImage& original, const cv::Rect& area, double scale, bool turned) {
  const SpotOptions& o = options;
  const cv::Mat rgb(original.height, original.width, CV_8UC3, const_cast<uint8_t*>(original.rgb.data()));
  // The detector sees the area resized by `scale` (W x H), window by window; each window's
  // probabilities go back to the image's own pixels, one byte each, every pixel keeping its highest.
  const int W = std::max(1, static_cast<int>(std::lround(area.width * scale)));
  const int H = std::max(1, static_cast<int>(std::lround(area.height * scale)));
  const int step = o.window - o.overlap;
  for (int y0 = 0; y0 < H; y0 += step) {
    for (int x0 = 0; x0 < W; x0 += step) {
      const int cw = std::min(o.window, W - x0), ch = std::min(o.window, H - y0);
      const int sx0 = area.x + std::min(area.width - 1, static_cast<int>(x0 / scale));
      const int sy0 = area.y + std::min(area.height - 1, static_cast<int>(y0 / scale));
      const int sx1 = std::clamp(area.x + static_cast<int>(std::ceil((x0 + cw) / scale)), sx0 + 1, area.x + area.width);
      const int sy1 = std::clamp(area.y + static_cast<int>(std::ceil((y0 + ch) / scale)), sy0 + 1, area.y + area.height);
      const cv::Rect source(sx0, sy0, sx1 - sx0, sy1 - sy0);
      cv::Mat window = rgb(source);
      if (scale != 1) cv::resize(rgb(source), window, cv::Size(cw, ch), 0, 0, scale > 1 ? cv::INTER_CUBIC : cv::INTER_AREA);
      if (turned) {  // into a new matrix: `window` may be a view of the image itself
        cv::Mat t;
        cv::rotate(window, t, cv::ROTATE_90_CLOCKWISE);
        window = t;
      }
      const int pw = round_up32(window.cols), ph = round_up32(window.rows);
      const std::vector<float> p = models.text_probability(detector_input(window, pw, ph), ph, pw);
      cv::Mat content = cv::Mat(ph, pw, CV_32F, const_cast<float*>(p.data()))(cv::Rect(0, 0, window.cols, window.rows));
      if (turned) {
        cv::Mat t;
        cv::rotate(content, t, cv::ROTATE_90_COUNTERCLOCKWISE);
        content = t;
      }
      cv::Mat back;
      if (content.size() != source.size()) cv::resize(content, back, source.size(), 0, 0, cv::INTER_LINEAR);
      else back = content;
      cv::Mat bytes;
      back.convertTo(bytes, CV_8U, 255.0);
      cv::Mat dst = prob(source);
      cv::max(dst, bytes, dst);
      if (x0 + cw >= W) break;
    }
    if (y0 + std::min(o.window, H - y0) >= H) break;
  }
}

namespace {

struct Crop {
  size_t line = 0;
  TextBox box;              // the line as read (upside down, levelled)
  data::WordStrip strip;    // 48 px high
  double from = 0, to = 1;  // the part of the strip that is the box (the rest: the paper about a lone letter)
};

// The box grown about its centre by `along` along its reading direction and `across` across it.
TextBox grown(const TextBox& box, double along, double across) {
  TextBox out = box;
  const auto& c = box.corners;
  const double cx = (c[0].x + c[1].x + c[2].x + c[3].x) / 4, cy = (c[0].y + c[1].y + c[2].y + c[3].y) / 4;
  const double len = std::max(box.length(), 1e-9), ux = (c[1].x - c[0].x) / len, uy = (c[1].y - c[0].y) / len;
  for (auto& p : out.corners) {
    const double a = (p.x - cx) * ux + (p.y - cy) * uy, b = -(p.x - cx) * uy + (p.y - cy) * ux;
    p = maptext::Point{cx + along * a * ux - across * b * uy, cy + along * a * uy + across * b * ux};
  }
  return out;
}

// The line straightened to 48 px high as the recogniser learns words (data::straighten_word); with
// `context` > 1, grown so many times along and `across` times across, the box the strip's middle.
Crop rectify(const image::RgbImage& img, const TextBox& box, size_t line, double context = 1, double across = 1) {
  Crop crop{line, box, {}};
  if (context > 1) {
    crop.from = (1 - 1 / context) / 2;
    crop.to = 1 - crop.from;
  }
  crop.strip = data::straighten_word(img, word_polygon(context > 1 ? grown(box, context, across) : box, 0, 1), 48, 48 * 50);
  return crop;
}

// One or two letters or figures: what a letter alone found in the ink may be read as.
bool is_glyph(const std::string& text) {
  const std::u32string t = utf8_decode(text);
  return !t.empty() && t.size() <= 2 && std::all_of(t.begin(), t.end(), [](char32_t c) { return (c >= U'0' && c <= U'9') || is_letter(c); });
}

// Read within 20 degrees of level, left to right.
bool level(const TextBox& box) {
  const auto& c = box.corners;
  return std::abs(std::atan2(c[1].y - c[0].y, c[1].x - c[0].x)) < 20 * M_PI / 180;
}

// About as high as long: a letter alone (or two), read also with the paper about it (SpotOptions::letter_context).
bool lone_letter(const TextBox& box) { return !box.bent() && box.length() < 1.5 * box.height(); }

// A lone letter's box read along its side nearer level: its rectangle's longer side says little of
// which way a letter stands, and a letter alone on a map mostly stands upright.
TextBox levelled(const TextBox& box) {
  const auto& c = box.corners;
  const double dx = c[1].x - c[0].x, dy = c[1].y - c[0].y;
  if (std::abs(dy) <= std::abs(dx)) return box;
  TextBox out = box;
  out.corners = reading_corners((c[0].x + c[2].x) / 2, (c[0].y + c[2].y) / 2, box.height(), box.length(), std::atan2(dy, dx) + M_PI / 2);
  return out;
}

// A letter alone found in the ink (`box`: its ink's bounds and margin) is read with the paper about
// it, level and turned either way by `glyph_turn` degrees (a block's letter set along its street):
// each crop's box, the polygon the word takes when that reading wins, is the one it reads turned
// (shrunk so that its bounds are the ink's).
void add_glyph_crops(std::vector<Crop>& crops, const image::RgbImage& img, const TextBox& box, size_t k, const SpotOptions& o) {
  crops.push_back(rectify(img, grown(box, o.glyph_read, o.glyph_read), k, o.letter_context, o.letter_across));
  crops.back().box = box;
  if (o.glyph_turn <= 0) return;
  const double t = o.glyph_turn * M_PI / 180, f = 1 / (std::cos(t) + std::sin(t));
  const auto& c = box.corners;
  const double cx = (c[0].x + c[2].x) / 2, cy = (c[0].y + c[2].y) / 2;
  for (const double a : {t, -t}) {
    TextBox turned = box;
    turned.corners = reading_corners(cx, cy, box.length() * f * o.glyph_read, box.height() * f * o.glyph_read, a);
    crops.push_back(rectify(img, turned, k, o.letter_context, o.letter_across));
    crops.back().box.corners = reading_corners(cx, cy, box.length() * f, box.height() * f, a);
  }
}

}  // namespace

std::vector<SpottedWord> Spotter::spot(const image::RgbImage& img) {
  const SpotOptions& o = impl_->options;
  std::vector<TextBox> boxes = lines(img);
  const size_t found = boxes.size();  // lines the detector found; after them, letters alone looked for in the ink
  std::vector<InkMark> marks;
  if (o.glyph_score > 0) {
    marks = ink_marks(img, o.glyphs);
    const std::vector<TextBox> glyphs = lone_glyphs(marks, boxes, o.glyphs, static_cast<double>(img.width) * img.height);
    boxes.insert(boxes.end(), glyphs.begin(), glyphs.end());
  }
  std::vector<Crop> crops;
  for (size_t k = 0; k < boxes.size(); ++k) {
    const TextBox& box = boxes[k];
    if (k >= found) {
      add_glyph_crops(crops, img, box, k, o);
      continue;
    }
    crops.push_back(rectify(img, box, k));
    const auto& c = box.corners;
    const double angle = std::abs(std::atan2(c[1].y - c[0].y, c[1].x - c[0].x)) * 180 / M_PI;
    if (std::min(angle, 180 - angle) > o.flip_angle) crops.push_back(rectify(img, box.upside_down(), k));
    if (o.letter_context > 1 && lone_letter(box)) {
      const TextBox level = levelled(box);
      if (angle > 45 && angle < 135) crops.push_back(rectify(img, level, k));
      crops.push_back(rectify(img, level, k, o.letter_context, o.letter_across));
    }
  }
  // Read in batches of similar widths.
  std::vector<size_t> order(crops.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return crops[a].strip.width < crops[b].strip.width; });
  std::vector<std::vector<ReadWord>> read(crops.size());
  std::vector<double> confidence(crops.size(), 0.0);
  // Only strips of one padded width are read together: the recogniser's reading of a strip changes
  // with the padding after it (a lone "6" read alone at 0.999, padded to a line's width at 0.34), and
  // a word should read the same whatever else is on its map.
  for (size_t at = 0, n = 0; at < order.size(); at += n) {
    const int width = round_up32(crops[order[at]].strip.width);
    for (n = 1; n < static_cast<size_t>(o.batch) && at + n < order.size() && round_up32(crops[order[at + n]].strip.width) == width;) ++n;
    std::vector<float> batch(n * 3 * 48 * static_cast<size_t>(width), 0.0f);
    for (size_t i = 0; i < n; ++i) data::recognizer_planes(crops[order[at + i]].strip, width, batch.data() + i * 3 * 48 * width);
    const std::vector<model::StepClasses> steps = impl_->models.read_lines(batch, static_cast<int>(n), width, impl_->allowed);
    for (size_t i = 0; i < n; ++i) {
      const size_t k = order[at + i];
      const Crop& crop = crops[k];
      const double used = crop.strip.width / 8.0;
      std::vector<ReadChar> chars = decode_ctc(steps[i], impl_->dict);
      // A lone letter's reading: the characters on the box, not on the paper about it.
      chars.erase(std::remove_if(chars.begin(), chars.end(),
                                 [&](const ReadChar& c) {
                                   const double at = (c.start + c.end) / 2 / used;
                                   return at < crop.from || at > crop.to;
                                 }),
                  chars.end());
      read[k] = split_words(chars, steps[i].space, used);
      for (ReadWord& w : read[k]) {
        w.from = std::clamp((w.from - crop.from) / (crop.to - crop.from), 0.0, 1.0);
        w.to = std::clamp((w.to - crop.from) / (crop.to - crop.from), 0.0, 1.0);
        w.first = std::clamp((w.first - crop.from) / (crop.to - crop.from), 0.0, 1.0);
        w.last = std::clamp((w.last - crop.from) / (crop.to - crop.from), 0.0, 1.0);
      }
      double sum = 0;
      for (const ReadChar& ch : chars) sum += ch.prob;
      confidence[k] = chars.empty() ? 0.0 : sum / static_cast<double>(chars.size());
    }
  }
  // Each line's most confident reading (upright or upside down; a lone letter's also levelled, alone
  // and with the paper about it), split into words. A line's crops are next to each other, the plain
  // upright first.
  std::vector<LineWord> words;
  for (size_t first = 0, k = 0; first < crops.size(); first = k) {
    size_t best = first;
    for (k = first + 1; k < crops.size() && crops[k].line == crops[first].line; ++k)
      if (confidence[k] > confidence[best]) best = k;
    const bool one_glyph = read[best].size() == 1 && is_glyph(read[best][0].text);
    if (crops[best].line >= found) {  // a letter alone found in the ink: kept when read confidently
      if (!one_glyph || confidence[best] < o.glyph_score) continue;
      ReadWord r = read[best][0];  // its fractions were of the box read, `glyph_read` times the ink's
      const auto on_ink = [&](double f) { return std::clamp((f - 0.5) * o.glyph_read + 0.5, 0.0, 1.0); };
      r.from = 0, r.to = 1, r.first = on_ink(r.first), r.last = on_ink(r.last);
      TextBox box = crops[best].box;
      if (const auto angle = baseline_direction(img, box, r.text, o.baseline)) box = box.turned_to(*angle);
      words.push_back(LineWord{box, r, crops[best].line, true});
      continue;
    }
    // A letter alone the detector found, read upright as one character: its polygon is its mark's.
    if (one_glyph && !marks.empty() && utf8_decode(read[best][0].text).size() == 1 && lone_letter(boxes[crops[best].line]) && level(crops[best].box)) {
      if (const std::optional<TextBox> mark = on_its_mark(boxes[crops[best].line], marks, o.glyphs)) {
        ReadWord r = read[best][0];
        r.from = 0, r.to = 1, r.first = r.last = 0.5;
        words.push_back(LineWord{*mark, r, crops[best].line, true});
        continue;
      }
    }
    LineWord w{crops[best].box, {}, crops[best].line};
    // A word alone on a short box: the box's direction says little, its letters' does.
    const TextBox& found_box = boxes[crops[best].line];
    if (read[best].size() == 1 && !found_box.bent() && found_box.length() < o.baseline.max_length * found_box.height())
      if (const auto angle = baseline_direction(img, w.line, read[best][0].text, o.baseline)) w.line = w.line.turned_to(*angle);
    if (crops[best].from > 0) w.line = grown(w.line, o.letter_grow, o.letter_grow);
    for (const ReadWord& r : read[best]) {
      w.word = r;
      if (crops[best].from > 0) {  // the fractions of the box, now of the box grown
        auto in_grown = [&](double f) { return (f - 0.5) / o.letter_grow + 0.5; };
        if (r.from > 0) w.word.from = in_grown(r.from);
        if (r.to < 1) w.word.to = in_grown(r.to);
        w.word.first = in_grown(r.first);
        w.word.last = in_grown(r.last);
      }
      words.push_back(w);
    }
  }
  words = join_spaced_words(std::move(words), o.spaced);
  // Each line's lettering, across: one extent for all its words, so that words set alike stay alike.
  std::vector<std::optional<AcrossExtent>> extent(words.size());
  if (o.ink_fit) extent = line_extents(img, words, o.ink);
  std::vector<SpottedWord> out;
  for (size_t i = 0; i < words.size(); ++i) {
    const LineWord& w = words[i];
    const bool small = w.read_on < boxes.size() && boxes[w.read_on].small;
    if (w.word.score < (small ? std::max(o.min_score, o.small_min_score) : o.min_score) || is_symbol(w.word.text)) continue;
    const std::vector<maptext::Point> polygon = word_polygon(w.line, w.word.from, w.word.to);
    out.push_back(SpottedWord{extent[i] ? moved_across(polygon, *extent[i]) : polygon, w.word.text, w.word.score});
  }
  return out;
}

maptext::Tile spot_tile(Spotter& spotter, const image::RgbImage& image, const std::string& key) {
  maptext::Tile tile;
  tile.image = key;
  for (const SpottedWord& w : spotter.spot(image)) {
    maptext::Word word;
    word.vertices = w.polygon;
    word.text = w.text;
    word.extra = nlohmann::json{{"score", std::round(w.score * 1e4) / 1e4}}.dump();
    tile.groups.push_back({word});
  }
  return tile;
}

maptext::Dataset spot_images(Spotter& spotter, const std::vector<std::pair<std::string, std::string>>& images, bool progress) {
  maptext::Dataset data;
  Progress bar("spot", images.size(), "maps");
  if (!progress) bar.finish();
  for (const auto& [key, path] : images) {
    maptext::Tile tile = spot_tile(spotter, image::read_rgb(path), key);
    const size_t found = tile.groups.size();
    data.push_back(std::move(tile));
    if (progress) bar.add(1, found, "words");
  }
  if (progress) bar.finish();
  return data;
}

}  // namespace light::spot

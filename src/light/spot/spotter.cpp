#include "light/spot/spotter.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <nlohmann/json.hpp>

#include "light/error.h"
#include "light/spot/line_crops.h"
#include "light/spot/line_models.h"
#include "light/spot/spotter_config.h"
#include "light/util/bundled.h"
#include "light/util/fs.h"
#include "light/util/format.h"
#include "light/util/progress.h"

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
  LineModels models;
  SpotOptions options;
  Impl(const std::string& dir, const model::PredictorOptions& runtime, const SpotOptions& o)
      : models(load_line_models(dir, runtime, o)), options(o) {}
  // The detector's probabilities over `area` (image pixels) of the image resized by `scale`, each
  // window read turned `turn` degrees clockwise (0 upright; 90 a quarter, exactly) and its
  // probabilities turned back, put into `prob` (a byte a pixel, the image's size) where higher.
  void detect_into(cv::Mat& prob, const image::RgbImage& image, const cv::Rect& area, double scale, double turn);
  // The lines of `prob` (db_boxes, and bend, spaced_letters, line_pieces as they run).
  std::vector<TextBox> boxes_in(const cv::Mat& prob) const;
  // The lines of the upright reading, its probability map left in `prob`.
  std::vector<TextBox> lines_at(const image::RgbImage& image, double scale, cv::Mat& prob);
  // With scale 0: the lines read again enlarged when the lettering found is small (the enlarged stage).
  // `at_one`: the lines read at 1, when it enlarged.
  std::vector<TextBox> enlarged_lines(const image::RgbImage& image, double& scale, cv::Mat& prob, std::vector<TextBox> boxes,
                                      std::vector<TextBox>& at_one);
  // Those lines with the unseen ones a reading at second_scale times the enlargement `scale` finds.
  std::vector<TextBox> with_second_scale_lines(const image::RgbImage& image, double scale, const std::vector<TextBox>& at_one,
                                               std::vector<TextBox> boxes);
  // Those lines with the small ones a reading enlarged again finds (the small_lettering stage).
  std::vector<TextBox> with_small_lines(const image::RgbImage& image, double scale, std::vector<TextBox> boxes);
  // Those lines with the steep ones a reading turned a quarter finds in `areas` (the turned stage).
  std::vector<TextBox> with_turned_lines(const image::RgbImage& image, double scale, const std::vector<cv::Rect>& areas,
                                         std::vector<TextBox> upright);
  // Those lines with the tilted ones readings tilted either way find in `areas` (the tilted stage).
  std::vector<TextBox> with_tilted_lines(const image::RgbImage& image, double scale, const std::vector<cv::Rect>& areas,
                                         std::vector<TextBox> boxes);
  // Every crop read by the recogniser, in batches of one padded width, split into words (the reading stage).
  std::vector<CropReading> read_crops(const std::vector<Crop>& crops);
  std::vector<std::vector<PlacedChar>> read_chars(const image::RgbImage& img, const std::vector<TextBox>& lines);
};

Spotter::Spotter(const std::string& dir, const model::PredictorOptions& runtime) : Spotter(dir, runtime, spotter_settings(dir)) {}

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
  if (options.runs(Stage::small_lettering) && options.scale != 0)
    throw Error("--small-lettering: the map is read again enlarged from the scale its lettering sets, so only with --scale 0 (auto, the "
                "default); with --scale " + short_number(options.scale) + " leave it out");
  if (options.strip_height < 8 || options.stride < 1 || options.batch < 1)
    throw Error("recognizer: expected strip_height 8 or more, stride 1 or more, batch 1 or more");
  for (const Stage s : {Stage::db_boxes, Stage::reading})
    if (!options.runs(s)) throw Error(std::string("stages: ") + stage_info(s).name + " always runs");
  for (const char* f : {"detector.safetensors", "recognizer.safetensors", "keys.txt"})
    if (!fs::is_regular_file(fs::path(dir) / f)) throw Error(dir + ": not a spotter folder (no " + f + ")");
  impl_ = std::make_unique<Impl>(dir, runtime, options);
}

const SpotOptions& Spotter::options() const { return impl_->options; }

std::vector<double> Spotter::text_log_likelihoods(const image::RgbImage& image, const std::vector<maptext::Point>& polygon,
                                                  const std::vector<std::string>& texts) {
  if (polygon.size() < 4 || polygon.size() % 2) throw Error("text_log_likelihoods: a word polygon needs an even number (4 or more) of points");
  const data::WordStrip strip = data::straighten_word(image, polygon, impl_->models.recognizer->strip_height());
  return impl_->models.recognizer->log_likelihoods(strip, texts);
}

Spotter::~Spotter() = default;
Spotter::Spotter(Spotter&&) noexcept = default;
Spotter& Spotter::operator=(Spotter&&) noexcept = default;

namespace {

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
std::vector<cv::Rect> unsettled_regions(const cv::Mat& prob, const std::vector<TextBox>& upright, double low, double line_work) {
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
    if (longer < 3 || longer > line_work * std::max(shorter, 1.0)) continue;  // a speck, or line work
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
  std::vector<TextBox> at_one;
  if (o.scale == 0 && o.runs(Stage::enlarged)) boxes = impl_->enlarged_lines(image, scale, prob, std::move(boxes), at_one);
  // Where to read the image turned and tilted is told by the upright map, which is then let go: a
  // whole map holds one map at a time.
  const auto areas = [&](double low) {
    return low > 0 ? unsettled_regions(prob, boxes, low, o.line_work) : std::vector<cv::Rect>{cv::Rect(0, 0, image.width, image.height)};
  };
  const std::vector<cv::Rect> turned = o.runs(Stage::turned) ? areas(o.unsettled) : std::vector<cv::Rect>{};
  const std::vector<cv::Rect> tilted = o.runs(Stage::tilted) ? areas(o.tilted_unsettled) : std::vector<cv::Rect>{};
  prob.release();
  if (!at_one.empty()) boxes = impl_->with_second_scale_lines(image, scale, at_one, std::move(boxes));
  if (o.scale == 0 && o.runs(Stage::small_lettering)) boxes = impl_->with_small_lines(image, scale, std::move(boxes));
  if (o.runs(Stage::turned)) boxes = impl_->with_turned_lines(image, scale, turned, std::move(boxes));
  if (o.runs(Stage::tilted)) boxes = impl_->with_tilted_lines(image, scale, tilted, std::move(boxes));
  return boxes;
}

std::vector<TextBox> Spotter::Impl::enlarged_lines(const image::RgbImage& image, double& scale, cv::Mat& prob, std::vector<TextBox> boxes,
                                                   std::vector<TextBox>& at_one) {
  // Read at 1, then again enlarged when the lettering found is small (the detector was trained on
  // text some 20-40 px high): so that the median line is `auto_height` pixels high.
  const SpotOptions& o = options;
  if (boxes.empty()) return boxes;
  std::vector<double> heights = heights_of(boxes);
  std::nth_element(heights.begin(), heights.begin() + static_cast<long>(heights.size() / 2), heights.end());
  const double median = heights[heights.size() / 2];
  const double enlarged = std::min(o.max_scale, std::round(o.auto_height / std::max(median, 1.0) * 4) / 4);
  if (enlarged <= 1.2) return boxes;
  at_one = std::move(boxes);
  boxes = lines_at(image, scale = enlarged, prob);
  if (o.large_height > 0)
    boxes = merge_large_lines(std::move(boxes), at_one, o.large_height * o.auto_height / enlarged, o.piece_height, o.large_overlap);
  return boxes;
}

std::vector<TextBox> Spotter::Impl::with_second_scale_lines(const image::RgbImage& image, double scale, const std::vector<TextBox>& at_one,
                                                            std::vector<TextBox> boxes) {
  // Read after the enlarged map is let go, so that a whole map still holds one map at a time.
  const SpotOptions& o = options;
  const double second = std::round(o.second_scale * scale * 4) / 4;
  if (o.second_scale <= 0 || second < 1 || second >= scale) return boxes;
  cv::Mat prob;
  return add_unseen_lines(std::move(boxes), second == 1 ? at_one : lines_at(image, second, prob), o.second_overlap);
}

std::vector<TextBox> Spotter::Impl::with_small_lines(const image::RgbImage& image, double scale, std::vector<TextBox> boxes) {
  const SpotOptions& o = options;
  if (boxes.empty()) return boxes;
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
  return add_unseen_lines(std::move(boxes), small, o.small_overlap);
}

std::vector<TextBox> Spotter::Impl::with_turned_lines(const image::RgbImage& image, double scale, const std::vector<cv::Rect>& areas,
                                                      std::vector<TextBox> upright) {
  if (areas.empty()) return upright;
  // The detector finds steep lettering less well than level lettering: the image is read again
  // turned a quarter, and each steep, elongated line found so replaces what the upright reading made
  // of the same place, unless that was a level line.
  cv::Mat prob(image.height, image.width, CV_8U, cv::Scalar(0));
  for (const cv::Rect& area : areas) detect_into(prob, image, area, scale, 90);
  return merge_turned_lines(std::move(upright), boxes_in(prob), options.turned_overlap);
}

std::vector<TextBox> Spotter::Impl::with_tilted_lines(const image::RgbImage& image, double scale, const std::vector<cv::Rect>& areas,
                                                      std::vector<TextBox> boxes) {
  // A name set along a road at 30 degrees is found less well than a level one: read tilted so, it is
  // near level. Each turn's map is let go before the next is made.
  const SpotOptions& o = options;
  if (areas.empty()) return boxes;
  for (const double turn : {o.tilt_angle, -o.tilt_angle}) {
    cv::Mat prob(image.height, image.width, CV_8U, cv::Scalar(0));
    for (const cv::Rect& area : areas) detect_into(prob, image, area, scale, turn);
    boxes = add_unseen_lines(std::move(boxes), lines_tilted(boxes_in(prob), o.least_tilt, o.most_tilt), o.tilted_overlap);
  }
  return boxes;
}

std::vector<TextBox> Spotter::Impl::boxes_in(const cv::Mat& prob) const {
  TextBoxOptions o = options.boxes;
  if (!options.runs(Stage::bend)) o.bend = 0;
  if (!options.runs(Stage::spaced_letters)) o.letter_join = 0;
  if (!options.runs(Stage::line_pieces)) o.piece_join = 0;
  return text_boxes(prob.ptr<uint8_t>(), prob.rows, prob.cols, o);
}

std::vector<TextBox> Spotter::Impl::lines_at(const image::RgbImage& image, double scale, cv::Mat& prob) {
  prob = cv::Mat(image.height, image.width, CV_8U, cv::Scalar(0));
  detect_into(prob, image, cv::Rect(0, 0, image.width, image.height), scale, 0);
  return boxes_in(prob);
}

void Spotter::Impl::detect_into(cv::Mat& prob, const image::RgbImage& original, const cv::Rect& area, double scale, double turn) {
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
      const cv::Size upright = window.size();
      cv::Mat tilt;  // a turn other than a quarter: the window turned about its middle onto a canvas that holds it whole
      if (turn == 90) {  // into a new matrix: `window` may be a view of the image itself
        cv::Mat t;
        cv::rotate(window, t, cv::ROTATE_90_CLOCKWISE);
        window = t;
      } else if (turn != 0) {
        const cv::Point2f middle(static_cast<float>(window.cols) / 2, static_cast<float>(window.rows) / 2);
        const cv::Rect2f canvas = cv::RotatedRect(middle, cv::Size2f(window.size()), static_cast<float>(turn)).boundingRect2f();
        tilt = cv::getRotationMatrix2D(middle, -turn, 1.0);  // OpenCV turns counter-clockwise for a positive angle
        tilt.at<double>(0, 2) += canvas.width / 2 - middle.x;
        tilt.at<double>(1, 2) += canvas.height / 2 - middle.y;
        cv::Mat t;
        // The corners the turn uncovers are filled with the map mirrored, not with a colour whose edge
        // the detector might take for a line.
        cv::warpAffine(window, t, tilt, cv::Size(cvCeil(canvas.width), cvCeil(canvas.height)), cv::INTER_LINEAR, cv::BORDER_REFLECT_101);
        window = t;
      }
      const std::vector<float> p = models.detector->text_probability(window.ptr<uint8_t>(), window.cols, window.rows, window.step[0]);
      cv::Mat content = cv::Mat(window.rows, window.cols, CV_32F, const_cast<float*>(p.data()));
      if (turn == 90) {
        cv::Mat t;
        cv::rotate(content, t, cv::ROTATE_90_COUNTERCLOCKWISE);
        content = t;
      } else if (turn != 0) {
        cv::Mat t;
        cv::warpAffine(content, t, tilt, upright, cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT, cv::Scalar(0));
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

std::vector<CropReading> Spotter::Impl::read_crops(const std::vector<Crop>& crops) {
  std::vector<size_t> order(crops.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return crops[a].strip.width < crops[b].strip.width; });
  std::vector<CropReading> read(crops.size());
  // Only strips of one padded width are read together: the recogniser's reading of a strip changes
  // with the padding after it (a lone figure read surely alone is read unsurely padded to a line's
  // width: docs/spotter.md, step 6), and
  // a word should read the same whatever else is on its map.
  for (size_t at = 0, n = 0; at < order.size(); at += n) {
    const int width = round_up32(crops[order[at]].strip.width);
    for (n = 1; n < static_cast<size_t>(options.batch) && at + n < order.size() && round_up32(crops[order[at + n]].strip.width) == width;) ++n;
    std::vector<const data::WordStrip*> strips;
    for (size_t i = 0; i < n; ++i) strips.push_back(&crops[order[at + i]].strip);
    std::vector<LineReading> lines = models.recognizer->read(strips, width);
    for (size_t i = 0; i < n; ++i) {
      const Crop& crop = crops[order[at + i]];
      std::vector<ReadChar> chars = std::move(lines[i].chars);
      // A lone letter's reading: the characters on the box, not on the paper about it.
      chars.erase(std::remove_if(chars.begin(), chars.end(),
                                 [&](const ReadChar& c) {
                                   const double at = (c.start + c.end) / 2 / lines[i].steps;
                                   return at < crop.from || at > crop.to;
                                 }),
                  chars.end());
      CropReading& r = read[order[at + i]];
      r.words = split_words(chars, lines[i].space, lines[i].steps, options.split);
      for (ReadWord& w : r.words) {
        w.from = std::clamp((w.from - crop.from) / (crop.to - crop.from), 0.0, 1.0);
        w.to = std::clamp((w.to - crop.from) / (crop.to - crop.from), 0.0, 1.0);
        w.first = std::clamp((w.first - crop.from) / (crop.to - crop.from), 0.0, 1.0);
        w.last = std::clamp((w.last - crop.from) / (crop.to - crop.from), 0.0, 1.0);
      }
      double sum = 0;
      for (const ReadChar& ch : chars) sum += ch.prob;
      r.confidence = chars.empty() ? 0.0 : sum / static_cast<double>(chars.size());
    }
  }
  return read;
}

// Each line read alone (as a lone figure is: the padding after a strip changes its reading), its
// characters placed along it.
std::vector<std::vector<PlacedChar>> Spotter::Impl::read_chars(const image::RgbImage& img, const std::vector<TextBox>& lines) {
  std::vector<std::vector<PlacedChar>> out;
  const int h = models.recognizer->strip_height();
  for (const TextBox& line : lines) {
    const data::WordStrip strip = data::straighten_word(img, word_polygon(line, 0, 1), h, h * 50);
    const LineReading r = std::move(models.recognizer->read({&strip}, round_up32(strip.width)).front());
    std::vector<PlacedChar>& chars = out.emplace_back();
    for (const ReadChar& c : r.chars) chars.push_back(PlacedChar{c.text, r.steps > 0 ? (c.start + c.end) / 2 / r.steps : 0, c.prob});
  }
  return out;
}

std::vector<SpottedWord> Spotter::spot(const image::RgbImage& img) {
  const SpotOptions& o = impl_->options;
  std::vector<TextBox> boxes = lines(img);
  const size_t found = boxes.size();  // lines the detector found; after them, letters alone looked for in the ink
  std::vector<InkMark> marks;
  if (o.runs(Stage::lone_glyphs)) {
    marks = ink_marks(img, o.glyphs);
    const std::vector<TextBox> glyphs = lone_glyphs(marks, boxes, o.glyphs, static_cast<double>(img.width) * img.height);
    boxes.insert(boxes.end(), glyphs.begin(), glyphs.end());
  }
  const std::vector<Crop> crops = line_crops(img, boxes, found, o);
  std::vector<LineWord> words = best_readings(img, crops, impl_->read_crops(crops), boxes, found, marks, o);
  if (o.runs(Stage::spaced_words)) {
    words = join_spaced_words(std::move(words), o.spaced);
    if (o.spaced.beyond > 0) {  // grown, a spaced word may meet another piece of its name
      words = grow_spaced_words(std::move(words), o.spaced, [&](const std::vector<TextBox>& lines) { return impl_->read_chars(img, lines); });
      words = join_spaced_words(std::move(words), o.spaced);
    }
  }
  // Each line's lettering, across: one extent for all its words, so that words set alike stay alike.
  std::vector<std::optional<AcrossExtent>> extent(words.size());
  if (o.runs(Stage::ink_fit)) extent = line_extents(img, words, o.ink);
  std::vector<SpottedWord> out;
  for (size_t i = 0; i < words.size(); ++i) {
    const LineWord& w = words[i];
    const bool small = w.read_on < boxes.size() && boxes[w.read_on].small;
    if (w.word.score < (small ? std::max(o.min_score, o.small_min_score) : o.min_score) || is_symbol(w.word.text)) continue;
    const std::vector<maptext::Point> polygon = word_polygon(w.line, w.word.from, w.word.to);
    out.push_back(SpottedWord{extent[i] ? moved_across(polygon, *extent[i]) : polygon,
                              o.lookalikes == "settle" ? settle_lookalikes(w.word.text) : w.word.text, w.word.score});
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

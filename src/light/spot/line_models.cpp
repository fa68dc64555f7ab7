#include "light/spot/line_models.h"

#include <algorithm>
#include <limits>

#include "light/data/detector_targets.h"
#include "light/error.h"
#include "light/model/spotter_models.h"
#include "light/text/ctc_likelihood.h"

namespace light::spot {

namespace {

int round_up32(int v) { return (v + 31) / 32 * 32; }

// PP-OCR's DB detector: the window padded to multiples of 32 (data::detector_planes), its map cut back.
class DbDetector : public TextDetector {
 public:
  explicit DbDetector(std::shared_ptr<model::SpotterModels> models) : models_(std::move(models)) {}
  std::vector<float> text_probability(const uint8_t* rgb, int w, int h, size_t row_bytes) override {
    const int pw = round_up32(w), ph = round_up32(h);
    std::vector<float> planes(static_cast<size_t>(3) * pw * ph);
    data::detector_planes(rgb, w, h, row_bytes, pw, ph, planes.data());
    const std::vector<float> p = models_->text_probability(planes, ph, pw);
    std::vector<float> out(static_cast<size_t>(w) * h);
    for (int y = 0; y < h; ++y) std::copy(p.begin() + static_cast<long>(y) * pw, p.begin() + static_cast<long>(y) * pw + w, out.begin() + static_cast<long>(y) * w);
    return out;
  }

 private:
  std::shared_ptr<model::SpotterModels> models_;
};

// PP-OCR's CTC recogniser over the folder's keys.txt: each step's best allowed class, decoded greedily.
class CtcRecognizer : public LineRecognizer {
 public:
  CtcRecognizer(std::shared_ptr<model::SpotterModels> models, const std::string& keys, const SpotOptions& o)
      : models_(std::move(models)), dict_(keys, models_->classes()), allowed_(dict_.allowed(o.alphabet)), height_(o.strip_height),
        stride_(o.stride), space_class_(o.space_class), long_s_as_s_(o.long_s == "s") {
    if (space_class_ >= models_->classes())
      throw Error(keys + ": the space's class " + std::to_string(space_class_) + " is past the recogniser's " + std::to_string(models_->classes()));
  }
  int strip_height() const override { return height_; }
  std::vector<LineReading> read(const std::vector<const data::WordStrip*>& strips, int width) override {
    const size_t n = strips.size(), plane = 3 * static_cast<size_t>(height_) * width;
    std::vector<float> batch(n * plane, 0.0f);
    for (size_t i = 0; i < n; ++i) data::recognizer_planes(*strips[i], width, batch.data() + i * plane);
    const std::vector<model::StepClasses> steps = models_->read_lines(batch, static_cast<int>(n), height_, width, allowed_, space_class_);
    std::vector<LineReading> out(n);
    for (size_t i = 0; i < n; ++i) {
      out[i].chars = decode_ctc(steps[i], dict_);
      if (long_s_as_s_) write_long_s_as_s(out[i].chars);
      out[i].space = steps[i].space;
      out[i].steps = strips[i]->width / static_cast<double>(stride_);
    }
    return out;
  }
  std::vector<double> log_likelihoods(const data::WordStrip& strip, const std::vector<std::string>& texts) override {
    const int width = round_up32(strip.width);
    std::vector<float> planes(3 * static_cast<size_t>(height_) * width, 0.0f);
    data::recognizer_planes(strip, width, planes.data());
    const model::StepLogProbs p = models_->read_log_probs(planes, 1, height_, width, allowed_).at(0);
    const int K = static_cast<int>(p.classes.size());
    std::vector<double> out;
    for (const std::string& text : texts) {
      std::vector<int> label;
      const auto ids = dict_.encode(text);
      for (size_t k = 0; ids && k < ids->size(); ++k) {
        const auto at = std::lower_bound(p.classes.begin(), p.classes.end(), (*ids)[k]);
        if (at == p.classes.end() || *at != (*ids)[k] || (*ids)[k] == 0) break;
        label.push_back(static_cast<int>(at - p.classes.begin()));
      }
      out.push_back(ids && label.size() == ids->size() ? text::ctc_log_likelihood(p.log_probs, p.steps, K, label)
                                                       : -std::numeric_limits<double>::infinity());
    }
    return out;
  }

 private:
  std::shared_ptr<model::SpotterModels> models_;
  Dictionary dict_;
  std::vector<bool> allowed_;
  int height_, stride_, space_class_;
  bool long_s_as_s_;
};

}  // namespace

LineModels load_line_models(const std::string& dir, const model::PredictorOptions& runtime, const SpotOptions& options) {
  if (options.detector != "db") throw Error(dir + ": unknown detector \"" + options.detector + "\" (db)");
  if (options.recognizer != "ctc") throw Error(dir + ": unknown recogniser \"" + options.recognizer + "\" (ctc)");
  auto models = std::make_shared<model::SpotterModels>(dir, runtime);
  LineModels out;
  out.detector = std::make_unique<DbDetector>(models);
  out.recognizer = std::make_unique<CtcRecognizer>(models, dir + "/keys.txt", options);
  return out;
}

}  // namespace light::spot

// The spotter's two models as its pipeline sees them, chosen by name from the spotter's settings
// (SpotOptions::detector, ::recognizer): a text detector (an image window in, every pixel's text
// probability out) and a line recogniser (straightened strips in, each one's characters with the
// steps they span and the space's probability at every step). Another model drops in as another
// implementation, named in spotter.json; the pipeline (spot/spotter.cpp) knows neither's shapes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "light/data/word_crops.h"
#include "light/model/predictor.h"
#include "light/spot/reading.h"
#include "light/spot/spot_options.h"

namespace light::spot {

class TextDetector {
 public:
  virtual ~TextDetector() = default;
  // `rgb`: w x h pixels, `row_bytes` a row. Every pixel's text probability, [h, w] row-major.
  virtual std::vector<float> text_probability(const uint8_t* rgb, int w, int h, size_t row_bytes) = 0;
};

struct LineReading {
  std::vector<ReadChar> chars;  // in reading order, positions in steps
  std::vector<float> space;     // the space's probability at every step
  double steps = 0;             // the steps the strip's own width covers (its width / the stride)
};

class LineRecognizer {
 public:
  virtual ~LineRecognizer() = default;
  virtual int strip_height() const = 0;  // the strips' height in pixels (data::straighten_word's)
  // Strips read together, each padded on the right to `width` pixels (a multiple of 32, at least each
  // strip's width): their readings, in their order.
  virtual std::vector<LineReading> read(const std::vector<const data::WordStrip*>& strips, int width) = 0;
  // How likely each of `texts` is as the strip's reading, in natural logarithms (-infinity for a text
  // it cannot write): texts other than its best reading weighed on the same pixels (geo/word_rereading).
  virtual std::vector<double> log_likelihoods(const data::WordStrip& strip, const std::vector<std::string>& texts) = 0;
};

struct LineModels {
  std::unique_ptr<TextDetector> detector;
  std::unique_ptr<LineRecognizer> recognizer;
};
// The models a spotter folder holds, as `options` names them ("db" and "ctc": PP-OCR's, from
// detector.safetensors, recognizer.safetensors and keys.txt).
LineModels load_line_models(const std::string& dir, const model::PredictorOptions& runtime, const SpotOptions& options);

}  // namespace light::spot

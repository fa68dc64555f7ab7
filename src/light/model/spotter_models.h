// The spotter's two models behind a plain interface (no LibTorch in this header): the text detector's
// probability map of an image, and the recogniser's most probable class at every step of a batch of
// text-line crops, over an allowed alphabet. spot/ (the pipeline) uses it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "light/model/predictor.h"

namespace light::model {

// Per step of each crop: the most probable allowed class (0 = the CTC blank) and its probability.
struct StepClasses {
  int steps = 0;              // T, the crop's width / 8
  std::vector<int> ids;       // [T]
  std::vector<float> probs;   // [T]
  std::vector<float> space;   // [T] the probability of the space's class
};

// Per step of a crop: the log-probability of every allowed class (the softmax of read_lines).
struct StepLogProbs {
  int steps = 0;                 // T
  std::vector<int> classes;      // the columns' class ids, ascending (column 0 the blank)
  std::vector<float> log_probs;  // [T, classes.size()]
};

class SpotterModels {
 public:
  // A spotter folder: detector.safetensors, recognizer.safetensors (light import-ppocr, or fine-tuned).
  explicit SpotterModels(const std::string& dir, const PredictorOptions& options = {});
  ~SpotterModels();
  SpotterModels(SpotterModels&&) noexcept;
  SpotterModels& operator=(SpotterModels&&) noexcept;

  int classes() const;  // the recogniser's class count (6,625 for PP-OCRv4)
  // image: [3, h, w] planes (BGR, normalised with ImageNet's mean and std), h and w multiples of 32.
  // Returns the text probability of every pixel, [h, w] row-major.
  std::vector<float> text_probability(const std::vector<float>& image, int h, int w);
  // crops: [b, 3, h, w] (BGR, (x/255 - 0.5) / 0.5, padded on the right with 0; PP-OCR's recognisers
  // read h = 48); `allowed` (size classes(), or empty for all): classes that may be read (the blank
  // always may). Softmax over the allowed classes, then each step's best; `space_class` (-1: the last
  // class, the space in PaddleOCR's dictionaries; it must be allowed) gives StepClasses::space.
  std::vector<StepClasses> read_lines(const std::vector<float>& crops, int b, int h, int w, const std::vector<bool>& allowed,
                                      int space_class = -1);
  // The same crops' whole distributions, for scoring texts other than the best reading
  // (text::ctc_log_likelihood).
  std::vector<StepLogProbs> read_log_probs(const std::vector<float>& crops, int b, int h, int w, const std::vector<bool>& allowed);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace light::model

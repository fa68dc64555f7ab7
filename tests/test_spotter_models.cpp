// The spotter's models against the released PP-OCRv4 inference models: outputs of onnxruntime on
// crops of a map (tests/ppocr/reference.js) reproduced by the LibTorch modules with the imported weights.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>

#include "light/error.h"
#include "light/model/checkpoint.h"
#include "light/model/ppocr_det.h"
#include "light/model/ppocr_rec.h"

namespace {

const std::string kSource = LIGHT_SOURCE_DIR;

// As loaded, or prepared for inference as the spotter reads (affines folded into the convolutions,
// weights and inputs channels-last).
void expect_released_detector_maps(bool prepared) {
  torch::NoGradGuard no_grad;
  light::model::TextDetector det = light::model::load_text_detector(kSource + "/models/ppocr-v4/detector.safetensors");
  if (prepared) det->prepare_for_inference();
  const auto fixture = light::model::read_safetensors_state_dict(kSource + "/tests/data/ppocr/detector_parity.safetensors");
  int crops = 0;
  for (const char* name : {"a", "b", "c"}) {
    torch::Tensor x = fixture.at(std::string(name) + ".input");
    const torch::Tensor expected = fixture.at(std::string(name) + ".output");
    if (prepared) x = x.contiguous(torch::MemoryFormat::ChannelsLast);
    const torch::Tensor y = det->forward(x);
    ASSERT_EQ(y.sizes(), expected.sizes()) << name;
    EXPECT_LT((y - expected).abs().max().item<double>(), 1e-4) << name;
    // Not a blank map: the crops hold lettering the detector finds.
    EXPECT_GT((expected > 0.3).sum().item<int64_t>(), 20) << name;
    ++crops;
  }
  EXPECT_EQ(crops, 3);
}

TEST(SpotterModels, DetectorReproducesTheReleasedModelsProbabilityMapsOnMapCrops) { expect_released_detector_maps(false); }

TEST(SpotterModels, DetectorPreparedForInferenceGivesTheSameMaps) { expect_released_detector_maps(true); }

}  // namespace

namespace {

void expect_released_recognizer_probabilities(bool prepared) {
  torch::NoGradGuard no_grad;
  light::model::TextRecognizer rec = light::model::load_text_recognizer(kSource + "/models/ppocr-v4/recognizer.safetensors");
  EXPECT_EQ(rec->classes, 6625);
  if (prepared) rec->prepare_for_inference();
  const auto fixture = light::model::read_safetensors_state_dict(kSource + "/tests/data/ppocr/recognizer_parity.safetensors");
  for (const char* name : {"a", "b", "c"}) {
    torch::Tensor x = fixture.at(std::string(name) + ".input");
    if (prepared) x = x.contiguous(torch::MemoryFormat::ChannelsLast);
    const torch::Tensor ids = fixture.at(std::string(name) + ".top_ids").to(torch::kLong);
    const torch::Tensor expected = fixture.at(std::string(name) + ".top_probs");
    const torch::Tensor probs = torch::softmax(rec->forward(x), -1)[0];  // [T, C]
    ASSERT_EQ(probs.size(0), ids.size(0)) << name;
    ASSERT_EQ(probs.size(0), x.size(3) / 8) << name;
    EXPECT_LT((probs.gather(1, ids) - expected).abs().max().item<double>(), 1e-4) << name;
    // The most probable class of every step agrees.
    EXPECT_TRUE(probs.argmax(1).equal(ids.select(1, 0))) << name;
  }
}


TEST(SpotterModels, RecognizerReproducesTheReleasedModelsClassProbabilitiesOnWordCrops) {
  expect_released_recognizer_probabilities(false);
}

TEST(SpotterModels, RecognizerPreparedForInferenceGivesTheSameProbabilities) { expect_released_recognizer_probabilities(true); }

}  // namespace

namespace {

TEST(SpotterModels, ClassesAddedToTheRecogniserReadAsTheirPlainLetterUntilTrained) {
  torch::NoGradGuard no_grad;
  light::model::TextRecognizer rec = light::model::load_text_recognizer(kSource + "/models/ppocr-v4/recognizer.safetensors");
  const auto fixture = light::model::read_safetensors_state_dict(kSource + "/tests/data/ppocr/recognizer_parity.safetensors");
  const torch::Tensor x = fixture.at("a.input");
  const torch::Tensor before = rec->forward(x)[0];  // [T, 6625]
  // Two classes more, copied from classes 10 and 20; the space (the last class) stays last.
  light::model::TextRecognizer more = light::model::with_classes_added(rec, {10, 20}, 2.0);
  EXPECT_EQ(more->classes, 6627);
  const torch::Tensor after = more->forward(x)[0];
  ASSERT_EQ(after.size(1), 6627);
  EXPECT_LT((after.slice(1, 0, 6624) - before.slice(1, 0, 6624)).abs().max().item<double>(), 1e-5);
  EXPECT_LT((after.select(1, 6626) - before.select(1, 6624)).abs().max().item<double>(), 1e-5);
  EXPECT_LT((after.select(1, 6624) - (before.select(1, 10) - 2.0)).abs().max().item<double>(), 1e-5);
  EXPECT_LT((after.select(1, 6625) - (before.select(1, 20) - 2.0)).abs().max().item<double>(), 1e-5);
  // A class the recogniser does not have is refused.
  EXPECT_THROW(light::model::with_classes_added(rec, {6625}, 2.0), light::Error);
}

}  // namespace


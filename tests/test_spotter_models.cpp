// The spotter's models against the released PP-OCRv4 inference models: outputs of onnxruntime on
// crops of a map (tests/ppocr/reference.js) reproduced by the LibTorch modules with the imported weights.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>

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

// `light train-spotter`: the recogniser and the detector fine-tuned into spotter folders, resumed,
// given classes for letters the dictionary lacks; bad options refused before anything is written.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "light/maptext.h"
#include "light/model/checkpoint.h"
#include "light/model/ppocr_det.h"
#include "test_util.h"

namespace {

// A short recogniser run's options on the bundled synthetic tile (trained and validated on it),
// without --out.
std::string recogniser_run_on_the_bundled_tile() {
  const std::string gt = light::test::q(light::test::source_path("data/synth-example/annotations.json"));
  const std::string images = light::test::q(light::test::source_path("data/synth-example"));
  return "train-spotter --train " + gt + " --train-images " + images + " --val " + gt + " --val-images " + images +
         " --max-words 20 --max-epochs 1 --batch-size 8 --threads 1 -q";
}

TEST(TrainSpotter, GivesTheRecogniserClassesForLettersItsDictionaryLacks) {
  const std::string dir = light::test::temp_dir();
  const std::string images = light::test::source_path("data/synth-example");
  const std::string common = recogniser_run_on_the_bundled_tile();
  // ô and ß are new; é is in the released dictionary already and is not added twice.
  auto r = light::test::run_light(common + " --add-characters \xC3\xB4\xC3\xA9\xC3\x9F --out " + light::test::q(dir + "/run"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string keys = light::test::read_text(dir + "/run/best/keys.txt");
  const std::string released = light::test::read_text(light::test::source_path("models/ppocr-v4/keys.txt"));
  EXPECT_EQ(keys, released + "\xC3\xB4\n\xC3\x9F\n");
  // The run's spotter reads with its new classes.
  r = light::test::run_light("spot --spotter " + light::test::q(dir + "/run/best") + " --images " +
                             light::test::q(images + "/topographic-1500.png") + " -o " + light::test::q(dir + "/w.json") + " -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // A sign that is no letter is refused, naming it; so is adding to a resumed run.
  r = light::test::run_light(common + " --add-characters \xC2\xA3 --out " + light::test::q(dir + "/bad"));
  light::test::expect_error(r, "--add-characters: \"\xC2\xA3\"");
  EXPECT_FALSE(light::test::file_exists(dir + "/bad"));
  r = light::test::run_light(common + " --add-characters latin --resume --out " + light::test::q(dir + "/run"));
  light::test::expect_error(r, "--add-characters: a new run's option");
}

TEST(TrainSpotter, LearnsTheAddedClassesAloneLeavingEveryOtherWeightAsItWas) {
  const std::string dir = light::test::temp_dir();
  const std::string common = recogniser_run_on_the_bundled_tile();
  auto r = light::test::run_light(common + " --add-characters \xC3\xB4\xC3\x9F --learn added --lr 1e-2 --out " + light::test::q(dir + "/run"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto before = light::model::read_safetensors_state_dict(light::test::source_path("models/spotter/recognizer.safetensors"));
  const auto after = light::model::read_safetensors_state_dict(dir + "/run/last.safetensors");
  ASSERT_EQ(after.size(), before.size());
  for (const auto& [key, value] : before) {
    if (key == "head.ctc_head.fc.weight" || key == "head.ctc_head.fc.bias") continue;
    EXPECT_TRUE(torch::equal(after.at(key), value)) << key;
  }
  // The head: the released rows as they were (the space last), two rows added before the space, and
  // only those moved.
  for (const char* key : {"head.ctc_head.fc.weight", "head.ctc_head.fc.bias"}) {
    const torch::Tensor b = before.at(key), a = after.at(key);
    const int64_t n = b.size(0);
    ASSERT_EQ(a.size(0), n + 2) << key;
    EXPECT_TRUE(torch::equal(a.narrow(0, 0, n - 1), b.narrow(0, 0, n - 1))) << key;
    EXPECT_TRUE(torch::equal(a.narrow(0, n + 1, 1), b.narrow(0, n - 1, 1))) << key;  // the space
  }
  // ô started from o's row and ß from s's (the bias 2 lower), and learnt from there.
  const std::string keys = light::test::read_text(light::test::source_path("models/spotter/keys.txt"));
  auto class_of = [&](const std::string& letter) {  // the blank is class 0, keys.txt's first line class 1
    std::istringstream in(keys);
    std::string line;
    for (int64_t k = 1; std::getline(in, line); ++k)
      if (line == letter) return k;
    return int64_t{-1};
  };
  const torch::Tensor w0 = before.at("head.ctc_head.fc.weight"), w1 = after.at("head.ctc_head.fc.weight");
  const int64_t n = w0.size(0);
  const int64_t from[2] = {class_of("o"), class_of("s")};
  for (int k = 0; k < 2; ++k) {
    ASSERT_GT(from[k], 0);
    const double moved = (w1[n - 1 + k] - w0[from[k]]).abs().max().item<double>();
    EXPECT_GT(moved, 1e-3) << k;  // Adam's first step moves each weight by about the learning rate
    EXPECT_LT(moved, 0.1) << k;
  }
  // Nothing to learn without classes added (none given, or only letters the dictionary has), and no
  // resuming such a run: each refused, nothing written.
  r = light::test::run_light(common + " --learn added --out " + light::test::q(dir + "/none"));
  light::test::expect_error(r, "--learn added");
  EXPECT_FALSE(light::test::file_exists(dir + "/none"));
  r = light::test::run_light(common + " --learn added --resume --out " + light::test::q(dir + "/run"));
  light::test::expect_error(r, "--learn added");
  r = light::test::run_light(common + " --add-characters \xC3\xA9 --learn added --out " + light::test::q(dir + "/known"));  // é: released
  light::test::expect_error(r, "--add-characters: the recogniser's dictionary has every one of these already");
  EXPECT_FALSE(light::test::file_exists(dir + "/known"));
  r = light::test::run_light(common + " --learn head --out " + light::test::q(dir + "/head"));  // the detector's
  light::test::expect_error(r, "--learn head");
  EXPECT_FALSE(light::test::file_exists(dir + "/head"));
}

TEST(TrainSpotter, FineTunesTheRecogniserIntoASpotterFolderAndResumes) {
  const std::string dir = light::test::temp_dir();
  const std::string gt = light::test::source_path("data/synth-example/annotations.json");
  const std::string images = light::test::source_path("data/synth-example");
  auto r = light::test::run_light("train-spotter --train " + light::test::q(gt) + " --train-images " + light::test::q(images) + " --val " +
                                  light::test::q(gt) + " --val-images " + light::test::q(images) + " --out " + light::test::q(dir + "/run") +
                                  " --max-words 40 --max-epochs 1 --batch-size 8 --threads 1 -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"best/detector.safetensors", "best/recognizer.safetensors", "best/keys.txt", "last.safetensors", "log.jsonl"})
    EXPECT_TRUE(light::test::file_exists(dir + "/run/" + f)) << f;
  // The run goes on from its last epoch; the same folder without --resume is refused.
  r = light::test::run_light("train-spotter --train " + light::test::q(gt) + " --train-images " + light::test::q(images) + " --val " +
                             light::test::q(gt) + " --val-images " + light::test::q(images) + " --out " + light::test::q(dir + "/run") +
                             " --max-words 40 --max-epochs 2 --batch-size 8 --threads 1 -q --resume");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string log = light::test::read_text(dir + "/run/log.jsonl");
  EXPECT_NE(log.find("\"epoch\":1"), std::string::npos);
  EXPECT_NE(log.find("\"epoch\":2"), std::string::npos);
  r = light::test::run_light("train-spotter --train " + light::test::q(gt) + " --train-images " + light::test::q(images) + " --val " +
                             light::test::q(gt) + " --val-images " + light::test::q(images) + " --out " + light::test::q(dir + "/run") + " -q");
  light::test::expect_error(r, dir + "/run (--out): exists");
  // The fine-tuned folder is a spotter `light spot` reads with.
  r = light::test::run_light("spot --spotter " + light::test::q(dir + "/run/best") + " --images " +
                             light::test::q(images + "/topographic-1500.png") + " -o " + light::test::q(dir + "/w.json") + " -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(TrainSpotter, FineTunesTheDetectorOnWordKernelsIntoASpotterFolderKeepingTheBestPixelF) {
  const std::string dir = light::test::temp_dir();
  const std::string gt = light::test::source_path("data/synth-example/annotations.json");
  const std::string images = light::test::source_path("data/synth-example");
  const std::string common = "train-spotter --part detector --train " + light::test::q(gt) + " --train-images " + light::test::q(images) +
                             " --val " + light::test::q(gt) + " --val-images " + light::test::q(images) + " --threads 1 -q";
  // A crop side the detector cannot read (not a multiple of 32) is refused, nothing written.
  auto r = light::test::run_light(common + " --crop 100 --out " + light::test::q(dir + "/bad"));
  light::test::expect_error(r, "--crop");
  EXPECT_FALSE(light::test::file_exists(dir + "/bad"));
  r = light::test::run_light(common + " --crop 128 --steps 2 --batch-size 2 --max-epochs 2 --out " + light::test::q(dir + "/run"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"best/detector.safetensors", "best/recognizer.safetensors", "best/keys.txt", "last.safetensors", "state.json"})
    EXPECT_TRUE(light::test::file_exists(dir + "/run/" + f)) << f;
  // The log holds the starting detector's score (epoch 0) and each epoch's; an epoch is the best when
  // its pixel F betters every earlier one, the start's included (not when its loss is lower).
  std::vector<nlohmann::json> epochs;
  std::istringstream log(light::test::read_text(dir + "/run/log.jsonl"));
  for (std::string line; std::getline(log, line);) epochs.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(epochs.size(), 3u);
  double best = -1;
  bool bettered = false;
  for (size_t e = 0; e < epochs.size(); ++e) {
    EXPECT_EQ(epochs[e].at("epoch").get<size_t>(), e);
    const double f = epochs[e].at("val_pixel_f").get<double>();
    if (e > 0) EXPECT_EQ(epochs[e].at("best").get<bool>(), f > best) << "epoch " << e;
    bettered |= e > 0 && f > best;
    best = std::max(best, f);
  }
  if (!bettered)  // no epoch bettered the start: best/ holds the starting detector
    EXPECT_EQ(light::test::read_text(dir + "/run/best/detector.safetensors"),
              light::test::read_text(light::test::source_path("models/spotter/detector.safetensors")));
  EXPECT_NEAR(nlohmann::json::parse(light::test::read_text(dir + "/run/state.json")).at("best_pixel_f").get<double>(), best, 1e-12);
  // The recogniser is the starting spotter's, unchanged.
  EXPECT_EQ(light::test::read_text(dir + "/run/best/recognizer.safetensors"),
            light::test::read_text(light::test::source_path("models/spotter/recognizer.safetensors")));
  r = light::test::run_light("spot --spotter " + light::test::q(dir + "/run/best") + " --images " +
                             light::test::q(images + "/topographic-1500.png") + " -o " + light::test::q(dir + "/w.json") + " -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// `light train-spotter --part detector` trained and validated on the example tiles (crops of 128 px,
// epochs of 2 steps of 2, one thread) into DIR/run, then `options`.
std::string small_detector_run(const std::string& dir, const std::string& options) {
  const std::string gt = light::test::q(light::test::source_path("data/synth-example/annotations.json"));
  const std::string images = light::test::q(light::test::source_path("data/synth-example"));
  return "train-spotter --part detector --crop 128 --steps 2 --batch-size 2 --threads 1 -q --train " + gt + " --train-images " + images +
         " --val " + gt + " --val-images " + images + " --out " + light::test::q(dir + "/run") + " " + options;
}

TEST(TrainSpotter, LearnsDBsThresholdBranchInTheRunAndResumesItLeavingTheSpotterFolderAsReleased) {
  const std::string dir = light::test::temp_dir();
  const std::string common = small_detector_run(dir, "--threshold-branch");
  auto r = light::test::run_light(common + " --max-epochs 1 --keep-epochs");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto first = light::model::read_safetensors_state_dict(dir + "/run/thresh.safetensors");
  // The branch is DB's head.thresh: PaddleOCR's Head, 96 channels in, 24 between, one out.
  ASSERT_EQ(first.count("conv1.weight"), 1u);
  EXPECT_EQ(first.at("conv1.weight").sizes(), (std::vector<int64_t>{24, 96, 3, 3}));
  EXPECT_EQ(first.at("conv3.weight").sizes(), (std::vector<int64_t>{24, 1, 2, 2}));
  r = light::test::run_light(common + " --max-epochs 2 --keep-epochs --resume");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto second = light::model::read_safetensors_state_dict(dir + "/run/thresh.safetensors");
  EXPECT_FALSE(torch::equal(first.at("conv1.weight"), second.at("conv1.weight")));  // it went on learning
  // Every detector written holds the released detector's tensors, no more: spot reads them.
  const auto released = light::model::read_safetensors_state_dict(light::test::source_path("models/spotter/detector.safetensors"));
  for (const char* f : {"epoch-1.safetensors", "epoch-2.safetensors", "last.safetensors", "best/detector.safetensors"}) {
    const auto kept = light::model::read_safetensors_state_dict(dir + "/run/" + f);
    EXPECT_EQ(kept.size(), released.size()) << f;
    for (const auto& [key, value] : released) EXPECT_EQ(kept.count(key), 1u) << f << " " << key;
  }
}

TEST(TrainSpotter, WarmsTheThresholdBranchUpAloneAtItsOwnLearningRateHoldingTheDetector) {
  const std::string dir = light::test::temp_dir();
  const std::string common = small_detector_run(dir, "--seed 1 --lr 1e-5");
  // Without the branch there is nothing to warm up: refused, nothing written.
  auto r = light::test::run_light(common + " --threshold-warmup 2");
  light::test::expect_error(r, "--threshold-branch");
  EXPECT_FALSE(light::test::file_exists(dir + "/run"));
  // Epoch 1 is the warm-up's two steps: the detector is the released one, tensor for tensor.
  r = light::test::run_light(common + " --threshold-branch --threshold-lr 1e-3 --threshold-warmup 2 --max-epochs 1 --keep-epochs");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto released = light::model::read_safetensors_state_dict(light::test::source_path("models/spotter/detector.safetensors"));
  const auto held = light::model::read_safetensors_state_dict(dir + "/run/epoch-1.safetensors");
  for (const auto& [key, value] : released) EXPECT_TRUE(torch::equal(held.at(key), value)) << key;
  // The branch took two of Adam's steps at 1e-3, not at the detector's 1e-5: Adam's first steps move
  // each weight by about the learning rate, so the largest change from its seeded start is near 2e-3.
  torch::manual_seed(1);
  light::model::DBBranch start(96);
  const auto learnt = light::model::read_safetensors_state_dict(dir + "/run/thresh.safetensors");
  const double moved = (learnt.at("conv1.weight") - start->named_parameters()["conv1.weight"]).abs().max().item<double>();
  EXPECT_GT(moved, 1e-3);
  EXPECT_LT(moved, 2.5e-3);
  // After the warm-up the detector learns too.
  r = light::test::run_light(common + " --threshold-branch --threshold-lr 1e-3 --threshold-warmup 2 --max-epochs 2 --keep-epochs --resume");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto trained = light::model::read_safetensors_state_dict(dir + "/run/epoch-2.safetensors");
  bool changed = false;
  for (const auto& [key, value] : released) changed |= !torch::equal(trained.at(key), value);
  EXPECT_TRUE(changed);
}

TEST(TrainSpotter, LearnsTheDetectorsNeckAndHeadAloneHoldingItsBackbone) {
  const std::string dir = light::test::temp_dir();
  // Each part's own --learn: the detector has no added classes, the recogniser no DB head.
  auto r = light::test::run_light(small_detector_run(dir, "--learn added"));
  light::test::expect_error(r, "--learn added");
  EXPECT_FALSE(light::test::file_exists(dir + "/run"));
  r = light::test::run_light(small_detector_run(dir, "--learn head --max-epochs 1 --lr 1e-2 --keep-epochs"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto released = light::model::read_safetensors_state_dict(light::test::source_path("models/spotter/detector.safetensors"));
  const auto learnt = light::model::read_safetensors_state_dict(dir + "/run/epoch-1.safetensors");
  size_t backbone = 0, moved = 0;
  for (const auto& [key, value] : released) {
    if (key.rfind("backbone.", 0) == 0) {
      ++backbone;
      EXPECT_TRUE(torch::equal(learnt.at(key), value)) << key;
    } else {
      moved += !torch::equal(learnt.at(key), value);
    }
  }
  EXPECT_GT(backbone, 100u);
  EXPECT_GT(moved, 10u);  // the neck's and the head's weights took two steps at 1e-2
}

TEST(TrainSpotter, MakesTheDetectorsCropsOnThreadsKeepsEachEpochAndStopsOnAnUnreadableTile) {
  const std::string dir = light::test::temp_dir();
  const std::string gt = light::test::source_path("data/synth-example/annotations.json");
  const std::string images = light::test::source_path("data/synth-example");
  const std::string val = " --val " + light::test::q(gt) + " --val-images " + light::test::q(images);
  const std::string common = "train-spotter --part detector --crop 128 --steps 2 --batch-size 2 --threads 1 -q" + val;
  // A word height that is not A-B in px is refused, nothing written.
  auto r = light::test::run_light(common + " --train " + light::test::q(gt) + " --train-images " + light::test::q(images) +
                                  " --word-height 16-4O --out " + light::test::q(dir + "/bad"));
  light::test::expect_error(r, "--word-height");
  EXPECT_FALSE(light::test::file_exists(dir + "/bad"));
  // Crops made by two threads, thinner kernels, words 20-40 px: each epoch's weights kept, the last
  // the run's last.
  r = light::test::run_light(common + " --train " + light::test::q(gt) + " --train-images " + light::test::q(images) +
                             " --data-threads 2 --keep-epochs --kernel-unclip 2.33 --word-height 20-40 --max-epochs 2 --out " +
                             light::test::q(dir + "/run"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"epoch-1.safetensors", "epoch-2.safetensors", "best/detector.safetensors"})
    EXPECT_TRUE(light::test::file_exists(dir + "/run/" + f)) << f;
  EXPECT_EQ(light::test::read_text(dir + "/run/epoch-2.safetensors"), light::test::read_text(dir + "/run/last.safetensors"));
  EXPECT_NE(light::test::read_text(dir + "/run/epoch-1.safetensors"), light::test::read_text(dir + "/run/epoch-2.safetensors"));
  // A training tile that is no image stops the run before it starts, with the tile's name, exit 1, no
  // run written.
  std::filesystem::create_directories(dir + "/broken");
  for (const auto& tile : light::maptext::read_maptext(gt, {light::maptext::Kind::GroundTruth}))
    light::test::write_text(dir + "/broken/" + std::filesystem::path(tile.image).filename().string(), "not a PNG");
  r = light::test::run_light(common + " --train " + light::test::q(gt) + " --train-images " + light::test::q(dir + "/broken") +
                             " --data-threads 2 --out " + light::test::q(dir + "/run2"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("broken"), std::string::npos) << r.err;
  EXPECT_FALSE(light::test::file_exists(dir + "/run2"));
}

}  // namespace

// Fine-tuning the spotter's text detector (DB, model/ppocr_det) on labelled map tiles (MapText ground
// truth and its images, e.g. `light synth` tiles): random crops, each tile scaled so that its median word
// is a random height the detector reads well, learn each word's shrunk region (data::detector_targets)
// with DB's probability-map losses (binary cross-entropy over the text and the hardest three times as
// many background pixels, plus the Dice loss). With `units` "words" the detector learns to find words,
// as MapText counts them; with "lines", each run of a phrase's words on one line (data::same_line_runs),
// as the released model finds text. Batch norm keeps its statistics. Each epoch is scored on fixed
// validation crops (loss; pixel F of the map above 0.3 against the kernels); the epoch of the best
// pixel F (the starting detector's, epoch 0, included), with the initial spotter's recogniser and
// dictionary, is a spotter folder.
#pragma once
#include <string>

namespace light::train {

struct DetectorTrainOptions {
  std::string train_json, train_images, val_json, val_images;
  std::string spotter_dir;  // the spotter to start from (detector.safetensors, recognizer.safetensors, keys.txt)
  std::string out_dir;      // the run: best/ (a spotter folder), last.safetensors, log.jsonl, state.json
  std::string units = "words";
  std::string learn = "all";  // all (every weight) | head (the neck and the DB head; the backbone held)
  // Kernels: shrunk so that the post-processing's growth by `kernel_unclip` x area / perimeter gives
  // the region back (data::unclip_inverse_distance: 1.5, the spotter's own growth, makes a long line's
  // kernel 0.4 of its height, as thick as the released detector draws; larger, thinner), or by DB's
  // own distance (0.2 of the height) where it is 0.
  double kernel_unclip = 0;
  // DB's threshold branch learnt beside the probability map, with PaddleOCR's whole DB loss
  // (train/detector_training.cpp db_losses); kept in the run, not in the spotter folder.
  bool threshold_branch = false;
  double threshold_lr = 0;    // the threshold branch's own learning rate (0: lr)
  int threshold_warmup = 0;   // the first steps learn the threshold branch alone, the detector held
  std::string device = "cpu";
  int data_threads = 1;       // threads making crops (1: in step with training, reproducible)
  bool keep_epochs = false;   // each epoch's detector kept as epoch-N.safetensors
  int epochs = 3, batch_size = 4, crop = 512, steps = 250, val_crops = 64, threads = 0, seed = 1;
  double lr = 1e-4;
  double min_word_height = 16, max_word_height = 48;  // a crop's median word height, px (even on a log scale)
  bool resume = false;
  bool progress = true;
};

struct DetectorScore {
  double loss = 0, pixel_f = 0;
};

// Runs the fine-tuning; returns the validation score of the best epoch (epoch 0: before training).
DetectorScore train_detector(const DetectorTrainOptions& options);

}  // namespace light::train

// Fine-tuning the spotter's recogniser on labelled map tiles (MapText ground truth and its images, e.g.
// `light synth` tiles): every line of legible words with transcriptions (or every word) is straightened
// from its polygon (data::straighten_word) and read with CTC's loss against its text, over the alphabet `light spot`
// reads with. Batch norm keeps its statistics (the model stays in eval mode; its weights learn). Each
// epoch is scored on the validation words (exact words, character accuracy); the best epoch's
// recogniser, with the initial spotter's detector and dictionary, is a spotter folder.
#pragma once
#include <string>

namespace light::train {

struct RecognizerTrainOptions {
  std::string train_json, train_images, val_json, val_images;
  std::string spotter_dir;  // the spotter to start from (detector.safetensors, recognizer.safetensors, keys.txt)
  std::string out_dir;      // the run: best/ (a spotter folder), last.safetensors, log.jsonl, options
  std::string alphabet = "latin";
  // What a training example is: "lines" (the words of a phrase on one line, read together with their
  // spaces, as the spotter reads a detected line) or "words" (each word alone).
  std::string units = "lines";
  // Classes added to the recogniser before training (a new run only): "latin" (every letter of
  // text::latin_letters() the dictionary lacks: â ê ô ç ñ ö ß æ œ ſ ...) or the letters themselves, each
  // one of those. Each starts as its plain letter's row (text::plain_letter), read as that letter until
  // trained; best/keys.txt holds them after the spotter's characters.
  std::string add_characters;
  // What learns: "all" (every weight) or "added" (the added classes' rows of the CTC head alone, with
  // add_characters: every other class scores each step as before).
  std::string learn = "all";
  int epochs = 3, batch_size = 32, threads = 0, max_words = 20000, seed = 1;
  double lr = 1e-4;
  bool resume = false;  // continue the run in out_dir after its last finished epoch
  bool progress = true;
};

struct RecognizerScore {
  size_t words = 0;
  double exact = 0, char_accuracy = 0;  // fractions of the validation words
};

// Runs the fine-tuning; returns the validation score of the best epoch (epoch 0: before training).
RecognizerScore train_recognizer(const RecognizerTrainOptions& options);

}  // namespace light::train

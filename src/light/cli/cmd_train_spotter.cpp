// `light train-spotter`: fine-tune the spotter's recogniser on labelled map tiles.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "light/cli/commands.h"
#include "light/spot/spotter.h"
#include "light/spot/spotter_config.h"
#include "light/train/detector_training.h"
#include "light/train/recognizer_training.h"
#include "light/error.h"
#include "light/util/fs.h"

namespace light::cli {

void add_train_spotter_command(CLI::App& app) {
  auto a = std::make_shared<train::RecognizerTrainOptions>();
  auto d = std::make_shared<train::DetectorTrainOptions>();
  auto part = std::make_shared<std::string>("recognizer");
  auto units = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("train-spotter", full_command_description("train-spotter"));
  cmd->add_option("--train", a->train_json, "Training ground truth (MapText JSON with transcriptions)")->required();
  cmd->add_option("--train-images", a->train_images, "Folder of the training tiles")->required();
  cmd->add_option("--val", a->val_json, "Validation ground truth")->required();
  cmd->add_option("--val-images", a->val_images, "Folder of the validation tiles")->required();
  cmd->add_option("--spotter", a->spotter_dir, "Spotter folder to start from (default: the bundled models/spotter)");
  cmd->add_option("--out", a->out_dir, "Run folder (new; best/ is the fine-tuned spotter)")->required();
  cmd->add_option("--alphabet", a->alphabet, "latin | all: the classes read and learnt")->capture_default_str();
  cmd->add_option("--add-characters", a->add_characters,
                  "Recogniser, a new run: letters given classes of their own before training, each started from its plain letter "
                  "(latin: every letter of Latin-1 and Latin Extended-A the dictionary lacks, â ê ô ç ñ ö ß æ œ ſ ...; or the letters)");
  cmd->add_option("--learn", a->learn,
                  "all (every weight) | added (the recogniser: the --add-characters classes alone, every other character read as before) "
                  "| head (the detector: its neck and DB head, the backbone held)")
      ->check(CLI::IsMember({"all", "added", "head"}))
      ->capture_default_str();
  cmd->add_option("--part", *part, "recognizer | detector: the model fine-tuned")
      ->check(CLI::IsMember({"recognizer", "detector"}))
      ->capture_default_str();
  cmd->add_option("--units", *units,
                  "words | lines (a phrase's words on one line): what the recogniser reads (default lines) or the detector finds (default words)")
      ->check(CLI::IsMember({"lines", "words"}));
  cmd->add_option("--kernel-unclip", d->kernel_unclip,
                  "Detector: kernels the post-processing's growth by R x area / perimeter turns back into the words "
                  "(1.5: the spotter's own, 0.4 of a line's height; larger, thinner); 0: DB's own (0.2)")
      ->capture_default_str();
  cmd->add_option("--data-threads", d->data_threads, "Detector: threads making training crops ahead of the steps (1: reproducible)")
      ->capture_default_str();
  cmd->add_flag("--threshold-branch", d->threshold_branch,
                "Detector: learn DB's threshold branch too (started at random), with DB's whole loss: its approximate binary map "
                "sharpens the probability map's edges");
  cmd->add_option("--threshold-lr", d->threshold_lr, "Detector: the threshold branch's own learning rate (0: --lr)")->capture_default_str();
  cmd->add_option("--threshold-warmup", d->threshold_warmup,
                  "Detector: the first N steps learn the threshold branch alone, the detector's weights held")
      ->capture_default_str();
  cmd->add_flag("--keep-epochs", d->keep_epochs, "Detector: keep each epoch's weights as epoch-N.safetensors");
  cmd->add_option("--device", d->device, "Detector: cpu | cuda")->capture_default_str();
  auto word_height = std::make_shared<std::string>();
  cmd->add_option("--word-height", *word_height,
                  "Detector: a crop's median word height in px, A-B, drawn per crop evenly on a log scale (default 16-48)");
  cmd->add_option("--crop", d->crop, "Detector: the side of a training crop, px (a multiple of 32)")->capture_default_str();
  cmd->add_option("--steps", d->steps, "Detector: steps an epoch (crops from random tiles)")->capture_default_str();
  cmd->add_option("--max-epochs", a->epochs, "Epochs")->capture_default_str();
  cmd->add_option("--batch-size", a->batch_size, "Examples per step (the detector: crops, default 4)")->capture_default_str();
  cmd->add_option("--lr", a->lr, "Adam's learning rate")->capture_default_str();
  cmd->add_option("--max-words", a->max_words, "At most this many training examples (a random choice; 0 = all; validation: a fifth)")
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "Random seed")->capture_default_str();
  cmd->add_option("--threads", a->threads, "LibTorch threads (0 = all cores)")->capture_default_str();
  cmd->add_flag("--resume", a->resume, "Continue the run in --out after its last finished epoch");
  cmd->add_flag_callback("-q,--quiet", [a] { a->progress = false; }, "No progress");
  cmd->callback([a, d, part, units, word_height, cmd] {
    // An option of the other part would be silently ignored (--device cuda training on the CPU).
    const bool detector = *part == "detector";
    for (const char* o : {"--kernel-unclip", "--data-threads", "--threshold-branch", "--threshold-lr", "--threshold-warmup", "--keep-epochs",
                          "--device", "--word-height", "--crop", "--steps"})
      if (!detector && cmd->count(o) > 0)
        throw Error(std::string(o) + ": the detector's option (--part detector); the recogniser is trained on the CPU without it");
    if (detector && a->learn == "added") throw Error("--learn added: the recogniser's (--part recognizer); the detector has no added classes");
    if (!detector && a->learn == "head") throw Error("--learn head: the detector's (--part detector)");
    if (detector && cmd->count("--add-characters") > 0)
      throw Error("--add-characters: the recogniser's option (--part recognizer); the detector has no classes to add");
    for (const char* o : {"--alphabet", "--max-words"})  // reading options: the detector's training goes on without them
      if (detector && cmd->count(o) > 0) std::fprintf(stderr, "note: %s is the recogniser's option (--part recognizer); the detector does not use it\n", o);
    if (a->max_words < 0) throw Error("--max-words: expected 0 (every example) or a count, got " + std::to_string(a->max_words));
    if (a->spotter_dir.empty()) a->spotter_dir = spot::default_spotter_dir();
    spot::spotter_settings(a->spotter_dir);  // its spotter.json, which the trained spotter carries, read whole before the run
    if (*part == "detector") {
      d->train_json = a->train_json, d->train_images = a->train_images, d->val_json = a->val_json, d->val_images = a->val_images;
      d->spotter_dir = a->spotter_dir, d->out_dir = a->out_dir, d->epochs = a->epochs;
      if (cmd->count("--batch-size") > 0) d->batch_size = a->batch_size;  // else the detector's own (4 crops)
      d->lr = a->lr, d->seed = a->seed, d->threads = a->threads, d->resume = a->resume, d->progress = a->progress;
      if (!units->empty()) d->units = *units;
      d->learn = a->learn;
      if (!word_height->empty()) parse_range(*word_height, "--word-height", 4, 200, d->min_word_height, d->max_word_height);
      const train::DetectorScore s = train::train_detector(*d);
      std::fprintf(stderr, "train-spotter: best validation: loss %.4f, pixel F %.3f -> %s/best\n", s.loss, s.pixel_f, a->out_dir.c_str());
      return;
    }
    if (!units->empty()) a->units = *units;
    const train::RecognizerScore s = train::train_recognizer(*a);
    std::fprintf(stderr, "train-spotter: best validation: %zu words, exact %.3f, characters %.3f -> %s/best\n", s.words, s.exact,
                 s.char_accuracy, a->out_dir.c_str());
  });
}

}  // namespace light::cli

// `light train-spotter`: fine-tune the spotter's recogniser on labelled map tiles.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/spot/spotter.h"
#include "light/train/recognizer_training.h"
#include "light/util/fs.h"

namespace light::cli {

void add_train_spotter_command(CLI::App& app) {
  auto a = std::make_shared<train::RecognizerTrainOptions>();
  CLI::App* cmd = app.add_subcommand("train-spotter", full_command_description("train-spotter"));
  cmd->add_option("--train", a->train_json, "Training ground truth (MapText JSON with transcriptions)")->required();
  cmd->add_option("--train-images", a->train_images, "Folder of the training tiles")->required();
  cmd->add_option("--val", a->val_json, "Validation ground truth")->required();
  cmd->add_option("--val-images", a->val_images, "Folder of the validation tiles")->required();
  cmd->add_option("--spotter", a->spotter_dir, "Spotter folder to start from (default: the bundled models/spotter)");
  cmd->add_option("--out", a->out_dir, "Run folder (new; best/ is the fine-tuned spotter)")->required();
  cmd->add_option("--alphabet", a->alphabet, "latin | all: the classes read and learnt")->capture_default_str();
  cmd->add_option("--max-epochs", a->epochs, "Epochs")->capture_default_str();
  cmd->add_option("--batch-size", a->batch_size, "Words per step")->capture_default_str();
  cmd->add_option("--lr", a->lr, "Adam's learning rate")->capture_default_str();
  cmd->add_option("--max-words", a->max_words, "At most this many training words (a random choice; 0 = all; validation: a fifth)")
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "Random seed")->capture_default_str();
  cmd->add_option("--threads", a->threads, "LibTorch threads (0 = all cores)")->capture_default_str();
  cmd->add_flag("--resume", a->resume, "Continue the run in --out after its last finished epoch");
  cmd->add_flag_callback("-q,--quiet", [a] { a->progress = false; }, "No progress");
  cmd->callback([a] {
    if (a->spotter_dir.empty()) a->spotter_dir = spot::default_spotter_dir();
    const train::RecognizerScore s = train::train_recognizer(*a);
    std::fprintf(stderr, "train-spotter: best validation: %zu words, exact %.3f, characters %.3f -> %s/best\n", s.words, s.exact,
                 s.char_accuracy, a->out_dir.c_str());
  });
}

}  // namespace light::cli

// `light train`: fine-tune LIGHT on annotated maps (see README "light train").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/train/distributed_options.h"
#include "light/train/trainer.h"

namespace light::cli {

void add_train_command(CLI::App& app) {
  auto o = std::make_shared<train::TrainOptions>();
  auto no_bidir = std::make_shared<bool>(false), no_focal = std::make_shared<bool>(false), quiet = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("train", full_command_description("train"));
  cmd->add_option("--train", o->train_json, "Training ground truth (MapText JSON)");
  cmd->add_option("--train-images", o->train_images, "Folder of the training tiles");
  cmd->add_option("--val", o->val_json, "Validation ground truth (MapText JSON)");
  cmd->add_option("--val-images", o->val_images, "Folder of the validation tiles");
  cmd->add_option("--out", o->out_dir, "Run folder (best/, last/, log.jsonl)");
  cmd->add_option("--tokenizer", o->tokenizer_dir, "Tokenizer folder (tokenizer.json, or vocab.json + merges.txt)");
  cmd->add_option("--init", o->init, "none | Hugging Face layoutlmv3 folder | LIGHT model folder or weights")->capture_default_str();
  cmd->add_option("--config", o->config, "small | base | tiny | a config.json")->capture_default_str();
  cmd->add_option("--modalities", o->modalities, "G | L | LI | LIG (the paper's ablation)")->capture_default_str();
  cmd->add_flag("--no-bidirection", *no_bidir, "Without the predecessor cross-entropy");
  cmd->add_flag("--no-focal", *no_focal, "Without the focal terms");
  CLI::Option* max_epochs = cmd->add_option("--max-epochs", o->max_epochs, "At most this many epochs")->capture_default_str();
  cmd->add_option("--batch-size", o->batch_size, "Tiles per step")->capture_default_str();
  cmd->add_option("--lr", o->lr, "AdamW learning rate")->capture_default_str();
  cmd->add_option("--relative-bias", o->relative_bias, "Relative-position bias tables: auto (trained from scratch only) | train | frozen (the reference)")->capture_default_str();
  cmd->add_option("--layout-init", o->layout_init, "2-D layout tables' start: auto (sinusoid from scratch only) | sinusoid | random (the reference)")
      ->check(CLI::IsMember({"auto", "sinusoid", "random"}))
      ->capture_default_str();
  cmd->add_option("--warmup-steps", o->warmup_steps, "Linear learning-rate warm-up over this many steps")->capture_default_str();
  cmd->add_option("--weight-decay", o->weight_decay, "AdamW weight decay")->capture_default_str();
  cmd->add_option("--seed", o->seed, "Random seed")->capture_default_str();
  cmd->add_option("--threads", o->threads, "LibTorch threads (0 = all cores)")->capture_default_str();
  cmd->add_option("--device", o->device, "cpu | cuda")->capture_default_str();
  cmd->add_option("--max-length", o->max_length, "Token window")->capture_default_str();
  add_distributed_options(cmd, o->distributed);
  auto resume = std::make_shared<std::string>();
  cmd->add_flag("--overwrite", o->overwrite, "Replace what an existing, non-empty --out folder holds (a new run)");
  cmd->add_option("--resume", *resume, "Continue the run in this folder from its last completed epoch (its options.json holds the rest)");
  cmd->add_flag("-q,--quiet", *quiet, "No progress");
  cmd->callback([o, no_bidir, no_focal, quiet, resume, max_epochs, cmd] {
    o->bidirection = !*no_bidir;
    o->focal = !*no_focal;
    o->progress = !*quiet;
    if (!resume->empty()) {
      for (const char* name : {"--train", "--train-images", "--val", "--val-images", "--tokenizer", "--init", "--config",
                               "--modalities", "--batch-size", "--lr", "--seed", "--warmup-steps", "--relative-bias", "--layout-init"})
        if (cmd->count(name) > 0)
          throw CLI::ValidationError(std::string(name) + ": not with --resume (the run's options.json holds it)");
      if (max_epochs->count() == 0) o->max_epochs = -1;
      train::read_options(*resume, *o);
    } else {
      for (const char* name : {"--train", "--train-images", "--val", "--val-images", "--out", "--tokenizer"})
        if (cmd->count(name) == 0) throw CLI::RequiredError(name);
    }
    const auto s = train::train(*o);
    if (o->distributed.rank != 0) return;
    std::fprintf(stderr, "train: %d epoch(s); best val loss %.4f at epoch %d (edges F %.3f) -> %s/best\n", s.epochs,
                 s.best_val_loss, s.best_epoch, s.best_edges_fscore, o->out_dir.c_str());
  });
}

}  // namespace light::cli

// `light train`'s options: one description serves the command line, the run's options.json and
// --resume (train/run_options.h). Kept apart from the training loop (trainer.cpp).
#include "light/train/run_options.h"
#include "light/train/trainer.h"

namespace light::train {

const std::vector<RunOption<TrainOptions>>& train_run_options() {
  using O = RunOption<TrainOptions>;
  using T = TrainOptions;
  static const std::vector<O> options = {
      O("--train", "train", &T::train_json, "Training ground truth (MapText JSON)").absolute().required(),
      O("--train-images", "train_images", &T::train_images, "Folder of the training tiles").absolute().required(),
      O("--val", "val", &T::val_json, "Validation ground truth (MapText JSON)").absolute().required(),
      O("--val-images", "val_images", &T::val_images, "Folder of the validation tiles").absolute().required(),
      O("--out", nullptr, &T::out_dir, "Run folder (best/, last/, log.jsonl)").local().required(),
      O("--tokenizer", "tokenizer", &T::tokenizer_dir, "Tokenizer folder (tokenizer.json, or vocab.json + merges.txt), or \"bytes\"")
          .absolute_or_name().required(),
      O("--init", "init", &T::init, "none | Hugging Face layoutlmv3 folder | LIGHT model folder or weights").absolute_or_name(),
      O("--config", "config", &T::config, "small | base | tiny | a config.json").absolute_or_name(),
      O("--modalities", "modalities", &T::modalities, "G | L | LI | LIG (the paper's ablation)"),
      O("--no-bidirection", "bidirection", &T::bidirection, "Without the predecessor cross-entropy").negate(),
      O("--no-focal", "focal", &T::focal, "Without the focal terms").negate(),
      O("--focal-self-target", "focal_self_target", &T::focal_self_target,
        "Focal terms with \"no successor\" as a phrase-final word's positive (the paper's: no positive)")
          .before("false"),
      O("--link-weights", "link_weights", &T::link_weights,
        "Loss weight of a link by where the next word lies, as spread=2,next_line=2,next_line_unaligned=3,above=3 (others 1)")
          .before("\"\""),
      O("--max-epochs", "max_epochs", &T::max_epochs, "At most this many epochs (a resumed run may be given more)").renewable(),
      O("--batch-size", "batch_size", &T::batch_size, "Tiles per step"),
      O("--max-length", "max_length", &T::max_length, "Token window"),
      O("--lr", "lr", &T::lr, "AdamW learning rate"),
      O("--relative-bias", "relative_bias", &T::relative_bias,
        "Relative-position bias tables: auto (trained from scratch only) | train | frozen (the reference)")
          .one_of({"auto", "train", "frozen"})
          .before("\"frozen\""),
      O("--layout-init", "layout_init", &T::layout_init,
        "2-D layout tables' start: auto (sinusoid from scratch only) | sinusoid | random (the reference)")
          .one_of({"auto", "sinusoid", "random"})
          .before("\"random\""),  // runs from before the option started random
      O("--warmup-steps", "warmup_steps", &T::warmup_steps, "Linear learning-rate warm-up over this many steps").before("0"),
      O("--weight-decay", "weight_decay", &T::weight_decay, "AdamW weight decay"),
      O("--lr-decay", "lr_decay", &T::lr_decay,
        "plateau (x0.1 after lr_patience epochs without improvement, the reference's) | cosine (to min_lr over --max-epochs)")
          .one_of({"plateau", "cosine"})
          .before("\"plateau\""),
      O("--head", "head", &T::head,
        "Successor head: bilinear (the paper's) | pairwise (+ each pair's geometry) | pairwise-context (+ alignment and distance "
        "ranks) | pairwise-lettering (+ how alike the two words are lettered) | pairwise-lines (+ where the two words' lines start and "
        "end); the last two with --init a pairwise model widen its head")
          .one_of({"bilinear", "pairwise", "pairwise-context", "pairwise-lettering", "pairwise-lines"})
          .before("\"bilinear\""),
      O("--head-hidden", "head_hidden", &T::head_hidden,
        "The pairwise head's hidden width (0: the config's, 64, or --init's); wider than --init's widens its head, which scores as "
        "before at first")
          .before("0"),
      O("--polygon-points", "polygon_points", &T::polygon_points,
        "Word polygons of other than 16 points: resample (16 points along the outline) | keep (the reference's first 16)")
          .one_of({"resample", "keep"})
          .before("\"keep\""),
      O("--window-word-height", "window_word_height", &T::window_word_height,
        "Scale windows: median word height as a fraction of a window's side (0: whole tiles, the paper's)")
          .before("0"),
      O("--scale-jitter", "scale_jitter", &T::scale_jitter, "Scale windows: each training window's side times exp(U(-J, J))")
          .before("0.35"),
      O("--polygon-noise", "polygon_noise", &T::polygon_noise,
        "Spotter-like noise on training polygons: each word's height times exp(N(0, S)), its length and place moved in "
        "proportion (0: exact; 0.15: the bundled spotter's spread)")
          .before("0"),
      O("--hand-noise", "hand_noise", &T::hand_noise,
        "Hand-box noise on training polygons: each word turned by N(0, 2 S) degrees, its height, length and place moved "
        "in proportion (0: exact; 1: the spread of boxes drawn by hand)")
          .before("0"),
      O(nullptr, "min_lr", &T::min_lr, "The learning rate's floor"),
      O(nullptr, "lr_patience", &T::lr_patience, "Epochs without improvement before the rate drops"),
      O(nullptr, "stop_patience", &T::stop_patience, "Epochs without improvement before the run stops"),
      O("--seed", "seed", &T::seed, "Random seed"),
      O("--threads", nullptr, &T::threads, "LibTorch threads (0 = all cores)").local(),
      O("--stop-after-epoch", nullptr, &T::stop_after_epoch,
        "Stop this call after this epoch (the run stays resumable; the schedule still spans --max-epochs)").local(),
      O("--device", nullptr, &T::device, "cpu | cuda").local(),
  };
  return options;
}

std::string options_to_json(const TrainOptions& o) { return run_options_json(o, train_run_options()); }

void read_options(const std::string& run_dir, TrainOptions& o) {
  read_run_options(run_dir, "training", train_run_options(), o, [&](const char*) { return o.max_epochs > 0; });
}

}  // namespace light::train

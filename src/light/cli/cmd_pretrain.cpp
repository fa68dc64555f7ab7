// `light pretrain`: pretrain LIGHT (MLM, MIM, WPA) on unlabelled tiles (see README "Pretraining").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/train/distributed_options.h"
#include "light/train/light_pretrain.h"

namespace light::cli {

void add_distributed_options(CLI::App* cmd, train::DistributedOptions& d) {
  cmd->add_option("--world-size", d.world_size, "Data-parallel processes in all (each takes --batch-size tiles a step)")->capture_default_str();
  cmd->add_option("--rank", d.rank, "This process's rank, 0..world-size-1 (rank 0 writes the run folder)")->capture_default_str();
  cmd->add_option("--store", d.store, "Where ranks meet: a fresh folder they all see, or host:port (rank 0 listens)");
}

void add_pretrain_command(CLI::App& app) {
  auto o = std::make_shared<train::LightPretrainOptions>();
  auto quiet = std::make_shared<bool>(false);
  auto resume = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("pretrain", full_command_description("pretrain"));
  cmd->add_option("--data", o->data, "MapText JSON (ground truth or spotter output), or a folder of per-image {\"annotations\": [{\"text\", \"pts\"}]} files");
  cmd->add_option("--images", o->images, "Folder of the tile images");
  cmd->add_option("--out", o->out_dir, "Run folder (options.json, image_tokenizer.safetensors, log.jsonl, curves.png, last/, final/)");
  cmd->add_option("--tokenizer", o->tokenizer, "Tokenizer folder (tokenizer.json, or vocab.json + merges.txt; needs <mask>), or \"bytes\"")->capture_default_str();
  cmd->add_option("--config", o->config, "small | base | tiny | a config.json")->capture_default_str();
  cmd->add_option("--init", o->init, "none | a Hugging Face layoutlmv3 folder | a LIGHT model or pretrain run")->capture_default_str();
  cmd->add_option("--init-poly", o->init_poly, "none | a pretrain-poly run or checkpoint (the polygon encoder)")->capture_default_str();
  cmd->add_option("--layout-init", o->layout_init, "2-D layout tables' start: auto (sinusoid when the transformer starts random) | sinusoid | random")
      ->check(CLI::IsMember({"auto", "sinusoid", "random"}))
      ->capture_default_str();
  cmd->add_option("--image-tokenizer", o->image_tokenizer,
                  "A Hugging Face BEiT folder (microsoft/beit-base-patch16-224-pt22k), or a patch codebook .safetensors (default: train one on this run's tiles)");
  cmd->add_option("--codebook-size", o->codebook_size, "Codes of the trained image tokenizer")->capture_default_str();
  cmd->add_option("--codebook-tiles", o->codebook_tiles, "Tiles it is trained on")->capture_default_str();
  cmd->add_option("--max-steps", o->max_steps, "Optimizer steps")->capture_default_str();
  cmd->add_option("--batch-size", o->batch_size, "Tiles per step (per rank)")->capture_default_str();
  cmd->add_option("--max-length", o->max_length, "Tokens per tile (words beyond are left out of that step)")->capture_default_str();
  cmd->add_option("--lr", o->lr, "Peak AdamW learning rate (linear warm-up, then linear decay to 0)")->capture_default_str();
  cmd->add_option("--warmup-ratio", o->warmup_ratio, "Share of the steps spent warming up")->capture_default_str();
  cmd->add_option("--weight-decay", o->weight_decay, "AdamW weight decay")->capture_default_str();
  cmd->add_option("--log-every", o->log_every, "Steps per log.jsonl line")->capture_default_str();
  cmd->add_option("--checkpoint-every", o->checkpoint_every, "Steps between checkpoints (last/)")->capture_default_str();
  cmd->add_option("--seed", o->seed, "Random seed")->capture_default_str();
  cmd->add_option("--threads", o->threads, "LibTorch threads (0 = all cores)")->capture_default_str();
  cmd->add_option("--device", o->device, "cpu | cuda")->capture_default_str();
  add_distributed_options(cmd, o->distributed);
  cmd->add_flag("--overwrite", o->overwrite, "Replace what an existing, non-empty --out folder holds (a new run)");
  cmd->add_option("--resume", *resume, "Continue the run in this folder from its last checkpoint (its options.json holds the rest)");
  cmd->add_flag("-q,--quiet", *quiet, "No progress");
  cmd->callback([o, quiet, resume, cmd] {
    o->progress = !*quiet;
    if (!resume->empty()) {
      for (const char* name : {"--data", "--images", "--tokenizer", "--config", "--init", "--init-poly", "--layout-init", "--image-tokenizer", "--codebook-size",
                               "--codebook-tiles", "--max-steps", "--batch-size", "--max-length", "--lr", "--warmup-ratio", "--weight-decay",
                               "--log-every", "--checkpoint-every", "--seed"})
        if (cmd->count(name) > 0) throw CLI::ValidationError(std::string(name) + ": not with --resume (the run's options.json holds it)");
      train::read_light_pretrain_options(*resume, *o);
    } else {
      for (const char* name : {"--data", "--images", "--out"})
        if (cmd->count(name) == 0) throw CLI::RequiredError(name);
    }
    const auto s = train::light_pretrain(*o);
    if (o->distributed.rank == 0) {
      std::fprintf(stderr, "pretrain: %ld step(s) over %zu tile(s); loss %.4f -> %.4f -> %s/final\n", s.steps, s.tiles, s.first_loss,
                   s.last_loss, o->out_dir.c_str());
      if (s.left_out_words > 0)
        std::fprintf(stderr, "pretrain: %zu word draw(s) did not fit --max-length %d and were left out of their step\n", s.left_out_words,
                     o->max_length);
    }
  });
}

}  // namespace light::cli

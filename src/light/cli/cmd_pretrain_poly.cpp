// `light pretrain-poly`: pretrain the polygon encoder on word polygons (see README "Pretraining").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/train/distributed_options.h"
#include "light/train/poly_pretrain.h"

namespace light::cli {

void add_pretrain_poly_command(CLI::App& app) {
  auto o = std::make_shared<train::PolyPretrainOptions>();
  auto quiet = std::make_shared<bool>(false);
  auto resume = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("pretrain-poly", full_command_description("pretrain-poly"));
  cmd->add_option("--data", o->data, "MapText JSON (ground truth or spotter output), or a folder of per-image {\"annotations\": [{\"pts\"}]} files");
  cmd->add_option("--images", o->images, "Folder of the tile images (their sizes normalise the coordinates)");
  cmd->add_option("--out", o->out_dir, "Run folder (options.json, log.jsonl, curves.png, last/, final/)");
  cmd->add_option("--config", o->config, "small | base | tiny | a config.json (its poly_encoder section)")->capture_default_str();
  cmd->add_option("--init", o->init, "none | a pretrain-poly run or checkpoint (also the reference's .pth) | a LIGHT model")->capture_default_str();
  cmd->add_option("--max-steps", o->max_steps, "Optimizer steps")->capture_default_str();
  cmd->add_option("--batch-size", o->batch_size, "Tiles per step")->capture_default_str();
  cmd->add_option("--lr", o->lr, "Peak AdamW learning rate (linear warm-up, then linear decay to 0)")->capture_default_str();
  cmd->add_option("--warmup-ratio", o->warmup_ratio, "Share of the steps spent warming up")->capture_default_str();
  cmd->add_option("--weight-decay", o->weight_decay, "AdamW weight decay")->capture_default_str();
  cmd->add_option("--loss-weights", o->loss_weights,
                  "name=value,... over reconstruct, angle, center_x, center_y, distance, closest, contrastive (default: all 1, as the reference's code)");
  cmd->add_option("--max-polygons", o->max_polygons, "Polygons per tile and step (a random subset beyond)")->capture_default_str();
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
      for (const char* name : {"--data", "--images", "--config", "--init", "--max-steps", "--batch-size", "--lr", "--warmup-ratio",
                               "--weight-decay", "--loss-weights", "--max-polygons", "--log-every", "--checkpoint-every", "--seed"})
        if (cmd->count(name) > 0) throw CLI::ValidationError(std::string(name) + ": not with --resume (the run's options.json holds it)");
      train::read_poly_pretrain_options(*resume, *o);
    } else {
      for (const char* name : {"--data", "--images", "--out"})
        if (cmd->count(name) == 0) throw CLI::RequiredError(name);
    }
    const auto s = train::poly_pretrain(*o);
    if (o->distributed.rank != 0) return;
    std::fprintf(stderr, "pretrain-poly: %ld step(s) over %zu tile(s); loss %.4f -> %.4f -> %s/final\n", s.steps, s.tiles,
                 s.first_loss, s.last_loss, o->out_dir.c_str());
    if (s.skipped_polygons > 0) std::fprintf(stderr, "pretrain-poly: %zu polygon(s) with fewer than 3 points left out\n", s.skipped_polygons);
  });
}

}  // namespace light::cli

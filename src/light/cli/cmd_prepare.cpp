// `light prepare`: what the model sees, tile by tile (see docs/commands.md, "light prepare").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/data/prepare.h"
#include "light/error.h"
#include "light/util/fs.h"

namespace light::cli {

void add_prepare_command(CLI::App& app) {
  struct Args {
    std::string words, images, tokenizer, out, polygon_points = "resample";
    int max_length = 1000, image_size = 224, threads = 0;
    bool quiet = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("prepare", full_command_description("prepare"));
  cmd->add_option("--words", a->words, "MapText JSON")->required();
  cmd->add_option("--images", a->images, "Folder holding the tiles (image key, or its basename)")->required();
  cmd->add_option("--tokenizer", a->tokenizer, "Folder with tokenizer.json, or vocab.json + merges.txt")->required();
  cmd->add_option("-o,--out", a->out, "Output .safetensors")->required();
  cmd->add_option("--max-length", a->max_length, "Token window length L")->capture_default_str();
  cmd->add_option("--image-size", a->image_size, "Side of pixel_values, the model's input_size")->capture_default_str();
  cmd->add_option("--polygon-points", a->polygon_points,
                  "Word polygons of other than 16 points: resample (16 points along the outline) | keep (the reference's first 16)")
      ->check(CLI::IsMember({"resample", "keep"}))
      ->capture_default_str();
  cmd->add_option("--threads", a->threads, "Worker threads (0 = all cores)")->capture_default_str();
  cmd->add_flag("-q,--quiet", a->quiet, "No progress line");
  cmd->callback([a] {
    if (a->max_length < 3 || a->max_length > 1022) throw Error("--max-length: expected 3 to 1022 (position ids go up to L+1 < 1024)");
    if (a->image_size < 1 || a->image_size > 4096) throw Error("--image-size: expected 1 to 4096 pixels, got " + std::to_string(a->image_size));
    check_output_is_not_input("-o/--out", a->out, {{"--words", a->words}, {"--images", a->images}, {"--tokenizer", a->tokenizer}});
    const auto tok = text::BpeTokenizer::from_folder(a->tokenizer);
    const auto data = maptext::read_maptext(a->words, {maptext::Kind::Predictions, false});
    data::PrepareOptions opt;
    opt.max_length = a->max_length;
    opt.image_size = a->image_size;
    opt.threads = a->threads;
    opt.progress = !a->quiet;
    opt.polygon_points = data::parse_polygon_points(a->polygon_points, "--polygon-points");
    opt.source = a->words;
    const auto report = data::prepare(data, a->images, tok, a->out, opt);
    for (const auto& n : report.notes) std::fprintf(stderr, "note: %s\n", n.c_str());
    std::fprintf(stderr, "prepare: %zu of %zu tiles -> %s\n", report.tiles_written, data.size(), a->out.c_str());
  });
}

}  // namespace light::cli

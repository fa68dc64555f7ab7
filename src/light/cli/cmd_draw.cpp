// `light draw`: MapText annotations drawn over their tiles (see README "light draw").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "light/cli/commands.h"
#include "light/image/draw.h"
#include "light/maptext/maptext.h"
#include "light/util/error.h"

namespace light::cli {

void add_draw_command(CLI::App& app) {
  struct Args {
    std::string words, images, out;
    double scale = 0.5;
    int limit = 0;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("draw", "Draw word polygons and phrase links over the tile images");
  cmd->add_option("--words", a->words, "MapText JSON (ground truth or predictions)")->required();
  cmd->add_option("--images", a->images, "Folder holding the tiles (image key, or its basename)")->required();
  cmd->add_option("--out", a->out, "Output folder for the drawings (PNG)")->required();
  cmd->add_option("--scale", a->scale, "Scale of the drawings")->capture_default_str();
  cmd->add_option("--limit", a->limit, "Draw only the first N tiles (0 = all)")->capture_default_str();
  cmd->callback([a] {
    if (!(a->scale > 0 && a->scale <= 4)) throw Error("--scale: expected a number in (0, 4]");
    const auto data = maptext::read_maptext(a->words, {maptext::Kind::Predictions, false});
    std::error_code ec;
    std::filesystem::create_directories(a->out, ec);
    if (ec) throw Error(a->out + ": cannot create the output folder: " + ec.message());
    size_t n = 0;
    for (const auto& tile : data) {
      if (a->limit > 0 && n >= static_cast<size_t>(a->limit)) break;
      const std::string src = image::find_tile_image(a->images, tile.image);
      const std::string dst = (std::filesystem::path(a->out) / std::filesystem::path(tile.image).filename()).replace_extension(".png").string();
      image::draw_tile(tile, src, dst, a->scale);
      ++n;
    }
    std::fprintf(stderr, "draw: %zu tile(s) -> %s\n", n, a->out.c_str());
  });
}

}  // namespace light::cli

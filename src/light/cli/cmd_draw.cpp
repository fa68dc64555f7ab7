// `light draw`: MapText annotations drawn over their tiles (see docs/commands.md, "light draw").
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "light/cli/commands.h"
#include "light/data/tile_image.h"
#include "light/image/draw.h"
#include "light/maptext.h"
#include "light/error.h"
#include "light/util/fs.h"
#include <set>
#include <sys/stat.h>

namespace light::cli {

void add_draw_command(CLI::App& app) {
  struct Args {
    std::string words, images, out;
    double scale = 0.5;
    int limit = 0;
    bool jpeg = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("draw", full_command_description("draw"));
  cmd->add_option("--words", a->words, "MapText JSON (ground truth or predictions)")->required();
  cmd->add_option("--images", a->images, "Folder holding the tiles (image key, or its basename)")->required();
  cmd->add_option("--out", a->out, "Output folder for the drawings (PNG, or JPEG with --jpeg)")->required();
  cmd->add_option("--scale", a->scale, "Scale of the drawings")->capture_default_str();
  cmd->add_option("--limit", a->limit, "Draw only the first N tiles (0 = all)")->capture_default_str();
  cmd->add_flag("--jpeg", a->jpeg, "Write JPEG (quality 85) instead of PNG: a tenth of the size, for documents");
  cmd->callback([a] {
    if (!(a->scale > 0 && a->scale <= 4)) throw Error("--scale: expected a number in (0, 4]");
    check_output_is_not_input("--out", a->out, {{"--images", a->images}, {"--words", a->words}});
    const auto data = maptext::read_maptext(a->words, {maptext::Kind::Predictions, false});
    // Every source first: a drawing never replaces a tile (or the words file), whatever the names.
    std::vector<std::pair<std::string, std::string>> jobs;
    std::set<std::pair<dev_t, ino_t>> sources;
    // A drawing is named after its key's file name; when two keys share one ("a/x.png", "b/x.png"),
    // every drawing is named after its whole key instead, folders joined by "_" ("a_x.png").
    std::set<std::string> names;
    bool flatten = false;
    for (size_t k = 0; k < data.size() && !(a->limit > 0 && k >= static_cast<size_t>(a->limit)); ++k)
      flatten |= !names.insert(std::filesystem::path(data[k].image).filename().string()).second;
    names.clear();
    for (const auto& tile : data) {
      if (a->limit > 0 && jobs.size() >= static_cast<size_t>(a->limit)) break;
      const std::string src = data::find_tile_image(a->images, tile.image);
      std::string name = std::filesystem::path(tile.image).filename().string();
      if (flatten) {
        name.clear();
        for (const auto& part : std::filesystem::path(tile.image).lexically_normal().relative_path())
          if (part != ".." && part != "." && !part.empty()) name += (name.empty() ? "" : "_") + part.string();
      }
      const std::string dst = (std::filesystem::path(a->out) / name).replace_extension(a->jpeg ? ".jpg" : ".png").string();
      if (!names.insert(dst).second) throw Error("--words: two tiles would both be drawn as " + dst + " (image \"" + tile.image + "\")");
      jobs.emplace_back(src, dst);
      struct stat st {};
      if (::stat(src.c_str(), &st) == 0) sources.emplace(st.st_dev, st.st_ino);
    }
    for (const auto& [src, dst] : jobs) {
      struct stat st {};
      if (::stat(dst.c_str(), &st) == 0 && sources.count({st.st_dev, st.st_ino}))
        throw Error(dst + " (--out): is one of the tiles of --images; write the drawings elsewhere");
      check_output_is_not_input("--out", dst, {{"--words", a->words}});
    }
    std::error_code ec;
    std::filesystem::create_directories(a->out, ec);
    if (ec) throw Error(a->out + ": cannot create the output folder: " + ec.message());
    size_t n = 0;
    for (const auto& [src, dst] : jobs) image::draw_tile(data[n++], src, dst, a->scale);
    std::fprintf(stderr, "draw: %zu tile(s) -> %s\n", n, a->out.c_str());
  });
}

}  // namespace light::cli

// `light spot`: the words of map images (MapText predictions with text and a score), read by the
// bundled spotter (models/spotter) or another spotter folder.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "light/cli/commands.h"
#include "light/error.h"
#include "light/image/resize.h"
#include "light/spot/spotter.h"
#include "light/util/fs.h"
#include "light/util/progress.h"

namespace light::cli {

namespace fs = std::filesystem;

namespace {
bool is_image_name(const fs::path& p) {
  std::string ext = p.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* e : {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".webp", ".jp2"})
    if (ext == e) return true;
  return false;
}

// (image key, path) of every image: a file alone (key: its name), or a folder's images (keys: paths
// relative to it), sorted.
std::vector<std::pair<std::string, std::string>> list_images(const std::string& images) {
  std::vector<std::pair<std::string, std::string>> out;
  if (fs::is_regular_file(images)) {
    out.emplace_back(fs::path(images).filename().string(), images);
    return out;
  }
  if (!fs::is_directory(images)) throw Error(images + " (--images): no such file or folder");
  for (const auto& e : fs::recursive_directory_iterator(images))
    if (e.is_regular_file() && is_image_name(e.path()))
      out.emplace_back(fs::relative(e.path(), images).generic_string(), e.path().string());
  std::sort(out.begin(), out.end());
  if (out.empty()) throw Error(images + " (--images): no image files (.png, .jpg, .tif, ...) in it");
  return out;
}
}  // namespace

void add_spot_command(CLI::App& app) {
  struct Args {
    std::string images, out, spotter, device = "cpu";
    int threads = 0;
    bool quiet = false;
    spot::SpotOptions options;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("spot", full_command_description("spot"));
  cmd->add_option("--images", a->images, "A map image, or a folder of them")->required();
  cmd->add_option("-o,--out", a->out, "MapText predictions to write (words with text and score, one group each)")->required();
  cmd->add_option("--spotter", a->spotter, "Spotter folder (default: the bundled models/spotter)");
  cmd->add_option("--alphabet", a->options.alphabet, "latin (letters with diacritics, digits, punctuation) | all")->capture_default_str();
  cmd->add_option("--min-score", a->options.min_score, "Drop words whose characters' mean probability is below")->capture_default_str();
  cmd->add_option("--window", a->options.window, "Detector window side in pixels (a multiple of 32)")->capture_default_str();
  cmd->add_option("--threads", a->threads, "LibTorch threads (0 = all cores)")->capture_default_str();
  cmd->add_option("--device", a->device, "cpu | cuda")->capture_default_str();
  cmd->add_flag("-q,--quiet", a->quiet, "No progress");
  cmd->callback([a] {
    check_output_is_not_input("--out", a->out, {{"--images", a->images}});
    const auto images = list_images(a->images);
    for (const auto& [key, path] : images)
      if (same_file(path, a->out)) throw Error(a->out + " (--out): is one of the images; write the output elsewhere");
    model::PredictorOptions runtime;
    runtime.threads = a->threads;
    runtime.device = a->device;
    spot::Spotter spotter(a->spotter.empty() ? spot::default_spotter_dir() : a->spotter, runtime, a->options);
    maptext::Dataset data;
    Progress progress("spot", images.size(), "maps");
    if (a->quiet) progress.finish();
    size_t words = 0;
    for (const auto& [key, path] : images) {
      const image::RgbImage img = image::read_rgb(path);
      maptext::Tile tile;
      tile.image = key;
      for (const spot::SpottedWord& w : spotter.spot(img)) {
        maptext::Word word;
        word.vertices = w.polygon;
        word.text = w.text;
        word.extra = nlohmann::json{{"score", std::round(w.score * 1e4) / 1e4}}.dump();
        tile.groups.push_back({word});
        ++words;
      }
      const size_t found = tile.groups.size();
      data.push_back(std::move(tile));
      if (!a->quiet) progress.add(1, found, "words");
    }
    if (!a->quiet) progress.finish();
    maptext::write_maptext(a->out, data);
    std::fprintf(stderr, "spot: %zu map(s), %zu words -> %s\n", images.size(), words, a->out.c_str());
  });
}

}  // namespace light::cli

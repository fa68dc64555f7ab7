// Each `light` subcommand registers itself on the CLI11 app. Commands are thin: they parse
// options, call the library, print, and let light::Error reach run_app (app.h) for a clean exit.
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace light::geo {
class ReadConfusions;
}

namespace light::cli {

void add_eval_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_link_command(CLI::App& app);
void add_synth_command(CLI::App& app);
void add_draw_command(CLI::App& app);
void add_prepare_command(CLI::App& app);
void add_forward_command(CLI::App& app);
void add_train_command(CLI::App& app);
void add_pretrain_poly_command(CLI::App& app);
void add_pretrain_command(CLI::App& app);
void add_curves_command(CLI::App& app);
void add_search_command(CLI::App& app);
void add_gazetteer_command(CLI::App& app);
void add_place_command(CLI::App& app);
void add_georef_command(CLI::App& app);
// The default gazetteer index (geo::default_gazetteer from this executable's folder).
std::string default_gazetteer();
// A spotter's confusions table: --confusions FILE, "none", or "" for the bundled spotter's (nullptr
// when it has none).
std::shared_ptr<const geo::ReadConfusions> read_confusions(const std::string& option);
void add_view_command(CLI::App& app);
void add_import_ppocr_command(CLI::App& app);
void add_spot_command(CLI::App& app);
void add_train_spotter_command(CLI::App& app);


// The subcommands of `light-full` alone, with their one-line descriptions. The `light` binary has
// eval and the heuristic `link` only, without LibTorch, OpenCV or Pango (it starts in milliseconds),
// and hands these (and `link --model`) to `light-full` beside it, which has every command;
// `light --help` still lists them.
struct FullCommand {
  const char* name;
  const char* description;
};
inline constexpr FullCommand kFullCommands[] = {
    {"synth", "Make labelled synthetic map tiles (PNG + MapText ground truth)"},
    {"draw", "Draw word polygons and phrase links over the tile images"},
    {"prepare", "Write every tile's model inputs (tokens, boxes, polygons, pixels) to safetensors"},
    {"forward", "Run a model on prepared inputs and write its intermediate outputs"},
    {"train", "Fine-tune LIGHT on MapText-annotated tiles"},
    {"pretrain-poly", "Pretrain the polygon encoder on word polygons (no labels needed)"},
    {"pretrain", "Pretrain LIGHT on unlabelled tiles: masked language and image modelling, word-patch alignment"},
    {"view", "Write a web page of the linked phrases over their maps: deep zoom, links, hover, search"},
    {"curves", "Compare training or pretraining runs: their curves in one PNG, a summary"},
    {"spot", "Find and read the words on map images: MapText predictions with text and scores"},
    {"train-spotter", "Fine-tune the spotter's recogniser on labelled map tiles (MapText ground truth)"},
    {"import-ppocr", "Import PaddleOCR's released PP-OCRv4 detector and recogniser (ONNX) as a spotter folder"},
    {"info", "Show versions, threads, devices and the BLAS kernel in use"},
};
const char* full_command_description(const std::string& name);
// An option's "A-B" (a range, drawn per tile or per crop) or "A", each from lo to hi and A <= B; false
// for a single value. Throws light::Error naming the option (defined in cmd_synth.cpp).
bool parse_range(const std::string& s, const std::string& option, double lo, double hi, double& a, double& b);
// Whether this command line is light-full's: one of kFullCommands, `link` with --georef (GDAL), or `link` without `--method`
// (a model links: --model, else the bundled default).
bool needs_full(const std::vector<std::string>& args);

// `light link --model`: defined in cmd_link_model.cpp (light-full); the `light` binary has a stand-in
// that is never reached (it hands such a command line to light-full before parsing).
struct LinkArgs;
void run_link_with_model(const LinkArgs& args);

}  // namespace light::cli

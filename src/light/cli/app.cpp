#include "light/cli/app.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <new>

#include "light/cli/commands.h"
#include "light/error.h"
#include "light/util/interrupt.h"

namespace light::cli {

const char* full_command_description(const std::string& name) {
  for (const auto& c : kFullCommands)
    if (name == c.name) return c.description;
  return "";
}

namespace {
bool manifest_names_georef(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream in(path);
  std::string line;
  for (int n = 0; n < 100000 && std::getline(in, line); ++n)
    if (line.find("georef") != std::string::npos) return true;
  return false;
}
}  // namespace

bool needs_full(const std::vector<std::string>& args) {
  if (args.empty()) return false;
  for (const auto& c : kFullCommands)
    if (args[0] == c.name) return true;
  if (args[0] != "link") return false;
  // Georeferencing needs GDAL, which only light-full links.
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--georef" && args[i + 1] != "none") return true;
  for (const auto& a : args)
    if (a.rfind("--georef=", 0) == 0 && a != "--georef=none") return true;
  // So does a manifest that names georeferencing for its maps (a "georef" column or key).
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--collection" && manifest_names_georef(args[i + 1])) return true;
  // A model links unless a heuristic is asked for (--method); --help is answered where --model is.
  for (const auto& a : args)
    if (a == "--method" || a.rfind("--method=", 0) == 0) return false;
  return true;
}

int run_app(int argc, char** argv, const std::function<void(CLI::App&)>& add_full_commands) {
  CLI::App app{"light: link the words found on historical maps into place names (LIGHT, in C++)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "light 0.1.0");
  add_link_command(app);
  add_eval_command(app);
  add_search_command(app);
  if (add_full_commands) {
    add_full_commands(app);
  } else {  // listed for --help; such a command line goes to light-full before parsing
    for (const auto& c : kFullCommands) app.add_subcommand(c.name, c.description)->allow_extras();
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "light: error: out of memory\n");
    return 1;
  } catch (const light::Interrupted& e) {
    std::fprintf(stderr, "\nlight: %s; what this run had made is removed\n", e.what());
    end_by_signal(e.signal);
  } catch (const light::Error& e) {
    std::fprintf(stderr, "light: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "light: internal error: %s\n", e.what());
    return 3;
  }
  return 0;
}

}  // namespace light::cli

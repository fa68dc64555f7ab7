#include "light/cli/app.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <exception>
#include <filesystem>
#include <fstream>
#include <new>

#include "light/cli/commands.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/parallel.h"
#include "light/util/utf8.h"
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

// What every command takes alike, checked before parsing (light::Error naming the option):
// - an empty argument ("-o ''", "--words $UNSET") is refused: no option of light's means anything by
//   an empty value, and read as "not given" it would do something else than asked;
// - --threads: a negative count is refused; more than the cores are that many, with a note (OpenMP
//   threads beyond the cores only wait on each other).
// Returns the arguments to parse (argv with --threads clamped).
std::vector<std::string> checked_arguments(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  for (size_t i = 1; i < args.size(); ++i) {
    std::string option = args[i - 1], value = args[i];
    const size_t eq = args[i].find('=');
    const bool joined = args[i].rfind("--", 0) == 0 && eq != std::string::npos;
    if (joined) option = args[i].substr(0, eq), value = args[i].substr(eq + 1);
    if (value.empty()) {
      if (joined || option.rfind("-", 0) == 0)
        throw Error(option + ": an empty value (an unset shell variable?); give one, or leave the option out");
      throw Error("an empty argument after \"" + option + "\" (an unset shell variable?)");
    }
    if (option != "--threads") continue;
    char* end = nullptr;
    errno = 0;
    const long n = std::strtol(value.c_str(), &end, 10);
    if (end == value.c_str() || *end != '\0') continue;  // not a number: CLI11 says so
    if (n < 0 || errno == ERANGE)
      throw Error("--threads: expected 0 (every core) or a count of threads, got " + value);
    if (n > core_count()) {
      std::fprintf(stderr, "note: --threads %s: this machine has %d core(s); %d threads used\n", value.c_str(), core_count(), core_count());
      const std::string clamped = std::to_string(core_count());
      args[i] = joined ? "--threads=" + clamped : clamped;
    }
  }
  return args;
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
  record_inputs();  // every file a command reads is kept from being its output (check_output_is_not_input)
  CLI::App app{"light: link the words found on historical maps into place names (LIGHT, in C++)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "light 0.1.0");
  add_link_command(app);
  add_eval_command(app);
  add_search_command(app);
  add_gazetteer_command(app);
  add_place_command(app);
  add_georef_command(app);
  if (add_full_commands) {
    add_full_commands(app);
  } else {  // listed for --help; such a command line goes to light-full before parsing
    for (const auto& c : kFullCommands) app.add_subcommand(c.name, c.description)->allow_extras();
  }
  try {
    std::vector<std::string> args;
    try {
      args = checked_arguments(argc, argv);
    } catch (const light::Error& e) {
      std::fprintf(stderr, "light: error: %s\n", e.what());
      return 1;
    }
    std::vector<char*> argp;
    for (std::string& s : args) argp.push_back(s.data());
    app.parse(static_cast<int>(argp.size()), argp.data());
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
  } catch (const std::filesystem::filesystem_error& e) {  // the file system said no: a path to name, not a bug
    std::fprintf(stderr, "light: error: %s%s%s: %s\n", shown_bytes(e.path1().string()).c_str(), e.path2().empty() ? "" : " -> ",
                 shown_bytes(e.path2().string()).c_str(), e.code().message().c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "light: internal error: %s\n", e.what());
    return 3;
  }
  return 0;
}

}  // namespace light::cli

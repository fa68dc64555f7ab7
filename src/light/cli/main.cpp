// `light`: links the words of historical maps into phrases, and measures how well. This binary has
// eval and heuristic linking, without LibTorch, OpenCV or Pango, so that they start in milliseconds;
// every other command runs in `light-full` beside it, to which this one hands the command line.
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

#include "light/cli/app.h"
#include "light/cli/commands.h"
#include "light/cli/link_args.h"
#include "light/error.h"

namespace light::cli {
// Never reached here: a `link --model` command line goes to light-full before parsing.
void run_link_with_model(const LinkArgs&) { throw Error("link --model: this binary has no LibTorch; run light-full"); }
output::GeoreferenceFor georeference_for(const LinkArgs&, const maptext::Dataset&) {
  throw Error("link --georef: this binary has no GDAL; run light-full");
}
WordLikelihoodsFor reread_likelihoods(const LinkArgs&) { throw Error("link --reread: this binary has no LibTorch; run light-full"); }
}  // namespace light::cli

namespace {
// light-full, beside this binary (symbolic links to `light` followed).
std::string light_full_path() {
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return "light-full";
  self[n] = '\0';
  std::string dir(self);
  dir = dir.substr(0, dir.rfind('/') + 1);
  return dir + "light-full";
}
}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (light::cli::needs_full(args)) {
    const std::string path = light_full_path();
    ::execv(path.c_str(), argv);
    std::fprintf(stderr, "light: error: %s: cannot start it (%s); `light %s` runs there\n", path.c_str(), std::strerror(errno),
                 args[0].c_str());
    return 1;
  }
  return light::cli::run_app(argc, argv);
}

// How long a `light` command takes from exec to exit, wall time, on the bundled example: the
// LibTorch-free `light` (--version, eval, heuristic link) and a command handed to `light-full`
// (info, which loads LibTorch). Each iteration spawns the process and waits for it.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

extern char** environ;

namespace {

const std::string kLight = LIGHT_BINARY;
const std::string kExample = std::string(LIGHT_SOURCE_DIR) + "/data/maptext-example/";

void run(benchmark::State& state, std::vector<std::string> args) {
  args.insert(args.begin(), kLight);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  for (auto _ : state) {
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
      state.SkipWithError("cannot start light");
      break;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("light failed");
      break;
    }
  }
  posix_spawn_file_actions_destroy(&actions);
}

void BM_Version(benchmark::State& s) { run(s, {"--version"}); }
void BM_EvalDet(benchmark::State& s) {
  run(s, {"eval", "--gt", kExample + "example_gt.json", "--pred", kExample + "example_pred.json", "--task", "det"});
}
void BM_LinkDistance(benchmark::State& s) {
  run(s, {"link", "--method", "distance", "--words", kExample + "example_pred.json", "-o", "/dev/null", "-q"});
}
void BM_InfoViaLightFull(benchmark::State& s) { run(s, {"info", "--threads", "1"}); }

}  // namespace

BENCHMARK(BM_Version)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EvalDet)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LinkDistance)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_InfoViaLightFull)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);
BENCHMARK_MAIN();

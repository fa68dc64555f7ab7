// An example of light's C++ API, built against the installed package (find_package(light)):
// reads words (MapText JSON), links them with the minimum-spanning-tree heuristic, writes the
// phrases, and, given ground truth, scores them with the MapText metrics.
//
//   link_and_score WORDS.json OUT.json [GROUND_TRUTH.json]
#include <light/light.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s WORDS.json OUT.json [GROUND_TRUTH.json]\n", argv[0]);
    return 2;
  }
  try {
    const auto words = light::maptext::read_maptext(argv[1], {light::maptext::Kind::Predictions});
    const auto linked = light::link_by_heuristic(words);  // method "mst", phrases along the links
    light::maptext::write_maptext(argv[2], linked);
    size_t phrases = 0, n = 0;
    for (const auto& tile : linked) phrases += tile.groups.size(), n += tile.word_count();
    std::printf("light %s: %zu words in %zu tiles linked into %zu phrases -> %s\n", light::version(), n, linked.size(), phrases, argv[2]);
    if (argc > 3) {
      const auto gt = light::maptext::read_maptext(argv[3], {light::maptext::Kind::GroundTruth});
      light::EvalOptions eo;
      eo.task = "detedges";
      for (const auto& [name, value] : light::evaluate(gt, linked, eo).overall) std::printf("%s %.4f\n", name.c_str(), value);
    }
  } catch (const light::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}

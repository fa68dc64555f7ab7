// `light link`'s options, shared by the heuristic path (cmd_link.cpp) and the model path
// (cmd_link_model.cpp, in light-full only).
#pragma once
#include <string>
#include <vector>

namespace light::cli {

struct LinkArgs {
  std::string method, model, images, tokenizer, device = "cpu", words, out, order = "path";
  std::string polygon_points;  // "" = the model config's
  int max_length = 1000;
  double no_successor_bias = 0;
  std::vector<double> weights{1.0, 1.0, 1.0};
  int threads = 0;
  bool quiet = false;
};

}  // namespace light::cli

#include "light/link/forward_outputs.h"

#include <cstdio>
#include <cstring>

#include "light/data/prepare.h"
#include "light/io/safetensors.h"
#include "light/model/config.h"
#include "light/error.h"

namespace light::link {

namespace {
using model::ModelConfig;

// One tile's inputs checked against the model before they reach it: dtypes, shapes, the mask (a prefix
// of ones), ids, boxes and first-token indices in range. Errors name the file and the tensor.
void check_tile_inputs(const io::SafeTensorsFile& f, const std::string& p, const ModelConfig& c) {
  const auto fail = [&](const std::string& name, const std::string& why) { throw Error(f.path() + ": tensor \"" + p + name + "\": " + why); };
  const auto get = [&](const std::string& name, io::DType dtype, size_t rank) -> const io::TensorView& {
    const auto& v = f.at(p + name);
    if (v.dtype != dtype) fail(name, std::string("expected dtype ") + io::dtype_name(dtype) + ", got " + io::dtype_name(v.dtype));
    if (v.shape.size() != rank) fail(name, "expected " + std::to_string(rank) + " dimension(s), got " + std::to_string(v.shape.size()));
    return v;
  };
  const auto i64 = [](const io::TensorView& v, int64_t k) {
    int64_t x;
    std::memcpy(&x, v.data + 8 * k, 8);
    return x;
  };
  const auto& ids = get("input_ids", io::DType::I64, 1);
  const int64_t L = ids.shape[0];
  const auto& mask = get("attention_mask", io::DType::I64, 1);
  const auto& bbox = get("bbox", io::DType::I64, 2);
  const auto& poly = get("polygons", io::DType::F32, 2);
  const auto& pix = get("pixel_values", io::DType::F32, 3);
  const auto& first = get("first_token_indices", io::DType::I64, 1);
  const auto& labels = get("labels", io::DType::I64, 1);
  if (mask.shape[0] != L) fail("attention_mask", "expected " + std::to_string(L) + " values (as input_ids)");
  if (bbox.shape[0] != L || bbox.shape[1] != 4) fail("bbox", "expected shape [" + std::to_string(L) + ", 4]");
  if (poly.shape[0] != L || poly.shape[1] != c.poly.num_coords)
    fail("polygons", "expected shape [" + std::to_string(L) + ", " + std::to_string(c.poly.num_coords) + "]");
  const int64_t S = c.layoutlmv3.input_size;
  if (pix.shape[0] != 3 || pix.shape[1] != S || pix.shape[2] != S)
    fail("pixel_values", "expected shape [3, " + std::to_string(S) + ", " + std::to_string(S) + "] (the model's input_size)");
  if (labels.shape[0] != L) fail("labels", "expected " + std::to_string(L) + " values (one a token, as input_ids)");
  int64_t T = 0;
  while (T < L && i64(mask, T) == 1) ++T;
  for (int64_t k = T; k < L; ++k)
    if (i64(mask, k) != 0) fail("attention_mask", "expected ones then zeros");
  if (T == 0) fail("attention_mask", "no token attended (all zero)");
  model::check_max_length(static_cast<int>(std::min<int64_t>(T, INT32_MAX)), c, f.path() + ": tensor \"" + p + "attention_mask\" (tokens)");
  for (int64_t k = 0; k < T; ++k) {
    const int64_t id = i64(ids, k);
    if (id < 0 || id >= c.layoutlmv3.vocab_size)
      fail("input_ids", "id " + std::to_string(id) + " at " + std::to_string(k) + " outside the vocabulary of " + std::to_string(c.layoutlmv3.vocab_size));
    const int64_t x0 = i64(bbox, 4 * k), y0 = i64(bbox, 4 * k + 1), x1 = i64(bbox, 4 * k + 2), y1 = i64(bbox, 4 * k + 3);
    const int64_t most = c.layoutlmv3.max_2d_position_embeddings - 1;
    if (x0 < 0 || y0 < 0 || x1 < x0 || y1 < y0 || x1 > most || y1 > most)
      fail("bbox", "box " + std::to_string(k) + " [" + std::to_string(x0) + ", " + std::to_string(y0) + ", " + std::to_string(x1) + ", " +
                       std::to_string(y1) + "] is not 0 <= x0 <= x1 <= " + std::to_string(most) + " (and the same for y)");
  }
  int64_t words = 0;
  for (int64_t k = 0; k < first.shape[0]; ++k) {
    const int64_t t = i64(first, k);
    if (t == -999) continue;
    if (t < 0 || t >= T) fail("first_token_indices", "index " + std::to_string(t) + " outside the " + std::to_string(T) + " attended tokens");
    ++words;
  }
  if (words == 0) fail("first_token_indices", "no word (every entry is -999)");
}

}  // namespace

size_t write_forward_outputs(const std::string& model_dir, const std::string& inputs_path, const std::string& out_path,
                             const model::PredictorOptions& options) {
  model::Predictor predictor(model_dir, options);
  const io::SafeTensorsFile in(inputs_path);
  std::vector<std::string> tiles;
  const std::string suffix = ".input_ids";
  for (const auto& kv : in.tensors())
    if (kv.first.size() > suffix.size() && kv.first.compare(kv.first.size() - suffix.size(), suffix.size(), suffix) == 0)
      tiles.push_back(kv.first.substr(0, kv.first.size() - suffix.size()));
  if (tiles.empty()) throw Error(inputs_path + ": no \"<tile>.input_ids\" tensors");
  // Inputs prepared with other polygons than the model was trained on: said, not refused (parity runs
  // feed released checkpoints the reference's inputs on purpose).
  if (const auto m = in.metadata().find("polygon_points"); m != in.metadata().end()) {
    const std::string trained = data::polygon_points_name(predictor.config().polygon_points);
    if (m->second != trained)
      std::fprintf(stderr, "note: %s: prepared with --polygon-points %s; the model was trained with %s\n", inputs_path.c_str(),
                   m->second.c_str(), trained.c_str());
  }
  std::map<std::string, io::Tensor> out;
  for (const auto& t : tiles) {
    const std::string p = t + ".";
    check_tile_inputs(in, p, predictor.config());
    const data::PreparedTile tile = data::read_prepared_tile(in, p);
    for (auto& [name, tensor] : predictor.outputs(tile.inputs, tile.pixels)) out[p + name] = std::move(tensor);
  }
  io::write_safetensors(out_path, out, {{"format", "light-forward"}});
  return tiles.size();
}

}  // namespace light::link

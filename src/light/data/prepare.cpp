#include "light/data/prepare.h"

#include <cstring>

#include "light/data/inputs.h"
#include "light/data/tile_image.h"
#include "light/io/safetensors.h"
#include "light/error.h"
#include "light/util/parallel.h"
#include "light/util/progress.h"

namespace light::data {

PrepareReport prepare(const maptext::Dataset& data, const std::string& images_dir, const text::BpeTokenizer& tok,
                      const std::string& out_path, const PrepareOptions& opt) {
  const SpecialIds special = tok.special_ids();
  const Tokenize tokenize = [&](const std::string& w) { return tok.encode_word(w); };
  const int S = opt.image_size;
  const size_t n = data.size();
  std::vector<std::map<std::string, io::Tensor>> parts(n);
  std::vector<std::string> notes(n);
  std::vector<PolygonReport> polygon_reports(n);
  Progress bar("prepare", n, "tiles");
  parallel_for(n, opt.threads, [&](size_t t, int) {
    const maptext::Tile tile = model_polygons(data[t], opt.polygon_points, opt.source, &polygon_reports[t]);
    TileImage img = load_tile_image(images_dir, tile.image, S);
    const auto words = select_words(tile, img.width, img.height, {});
    if (words.empty()) {
      notes[t] = "image \"" + tile.image + "\": no usable word (all illegible, truncated or without area); skipped";
    } else {
      const TileInputs in = layout_tokens(words, tokenize, opt.max_length, 0, SIZE_MAX, special);
      if (!in.beyond_window.empty())
        notes[t] = "image \"" + tile.image + "\": " + std::to_string(in.beyond_window.size()) + " of " +
                   std::to_string(words.size()) + " words do not fit in " + std::to_string(opt.max_length) +
                   " tokens; written: the first window (as the reference); linking covers every word with windows";
      const std::string p = std::to_string(t) + ".";
      const int64_t L = in.length;
      auto& m = parts[t];
      m[p + "input_ids"] = io::Tensor::i64({L}, in.input_ids);
      m[p + "bbox"] = io::Tensor::i64({L, 4}, in.bbox);
      m[p + "attention_mask"] = io::Tensor::i64({L}, in.attention_mask);
      m[p + "labels"] = io::Tensor::i64({L}, in.labels);
      m[p + "first_token_indices"] = io::Tensor::i64({L}, in.first_token_indices);
      m[p + "polygons"] = io::Tensor::f32({L, kPolygonValues}, in.polygons);
      m[p + "pixel_values"] = io::Tensor::f32({3, S, S}, std::move(img.pixels));
      std::vector<int64_t> sources;
      for (const auto& w : in.words) sources.push_back(static_cast<int64_t>(w.source));
      m[p + "word_sources"] = io::Tensor::i64({static_cast<int64_t>(sources.size())}, sources);
    }
    if (opt.progress) bar.add();
  });
  if (opt.progress) bar.finish();
  PrepareReport report;
  PolygonReport polygons;
  for (const auto& r : polygon_reports) {
    polygons.words += r.words, polygons.resampled += r.resampled, polygons.degenerate += r.degenerate;
    for (const auto& e : r.examples)
      if (polygons.examples.size() < 5) polygons.examples.push_back(e);
  }
  if (const std::string note = degenerate_note(polygons); !note.empty()) report.notes.push_back(note);
  std::map<std::string, io::Tensor> all;
  for (size_t t = 0; t < n; ++t) {
    if (!notes[t].empty()) report.notes.push_back(notes[t]);
    if (!parts[t].empty()) ++report.tiles_written;
    for (auto& kv : parts[t]) all.emplace(kv.first, std::move(kv.second));
  }
  io::write_safetensors(out_path, all, {{"format", "light-inputs"}, {"max_length", std::to_string(opt.max_length)},
                                           {"polygon_points", polygon_points_name(opt.polygon_points)}});
  return report;
}

PreparedTile read_prepared_tile(const io::SafeTensorsFile& file, const std::string& prefix) {
  const auto values = [&](const std::string& name, auto zero) {  // copied: the data need not be aligned
    const io::TensorView& v = file.at(prefix + name);
    std::vector<decltype(zero)> out(static_cast<size_t>(v.numel()));
    if (!out.empty()) std::memcpy(out.data(), v.data, out.size() * sizeof(zero));
    return out;
  };
  const auto i64 = [&](const std::string& name) { return values(name, int64_t{0}); };
  const auto f32 = [&](const std::string& name) { return values(name, 0.0f); };
  PreparedTile t;
  TileInputs& in = t.inputs;
  in.input_ids = i64("input_ids");
  in.attention_mask = i64("attention_mask");
  in.labels = i64("labels");
  in.first_token_indices = i64("first_token_indices");
  in.bbox = i64("bbox");
  in.polygons = f32("polygons");
  in.length = static_cast<int>(in.input_ids.size());
  while (in.real_tokens < in.length && in.attention_mask[static_cast<size_t>(in.real_tokens)] == 1) ++in.real_tokens;
  t.pixels = f32("pixel_values");
  return t;
}

}  // namespace light::data

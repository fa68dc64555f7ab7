#include "light/link/model_linking.h"

#include <cmath>

#include "light/data/inputs.h"
#include "light/data/tile_image.h"
#include "light/link/decode.h"
#include "light/link/paths.h"
#include "light/model/predictor.h"
#include "light/text/bpe.h"
#include "light/error.h"
#include "light/util/progress.h"

namespace light::link {

maptext::Dataset link_with_model(const maptext::Dataset& data, const std::string& model_dir, const std::string& images_dir,
                                 const ModelLinkOptions& opt, ModelLinkReport* report) {
  model::Predictor model(model_dir, {opt.device, opt.threads});
  const model::ModelConfig& config = model.config();
  model::check_max_length(opt.max_length, config);
  const text::BpeTokenizer tok = text::BpeTokenizer::from_folder(opt.tokenizer_dir.empty() ? model_dir : opt.tokenizer_dir);
  const int64_t vocab = config.layoutlmv3.vocab_size;
  const data::SpecialIds special = tok.special_ids();
  const data::Tokenize tokenize = [&](const std::string& w) {
    std::vector<int64_t> ids = tok.encode_word(w);
    for (int64_t id : ids)
      if (id < 0 || id >= vocab)
        throw Error("the tokenizer gives id " + std::to_string(id) + " for \"" + w + "\", outside the model's vocabulary of " +
                    std::to_string(vocab) + ": wrong tokenizer for this model");
    return ids;
  };
  ModelLinkReport r;
  maptext::Dataset out;
  Progress bar("link", data.size(), "tiles");
  for (const maptext::Tile& tile : data) {
    r.words += tile.word_count();
    const data::TileImage img = data::load_tile_image(images_dir, tile.image, config.layoutlmv3.input_size);
    const auto words = data::select_words(tile, img.width, img.height, {});
    const int64_t n = static_cast<int64_t>(words.size());
    r.model_words += words.size();
    std::vector<size_t> sources;
    for (const auto& w : words) sources.push_back(w.source);
    // Each word's rows come from the window in which it is most central.
    std::vector<float> P(static_cast<size_t>(n * n), 0.0f), Q(P.size(), 0.0f);
    if (n > 0) {
      std::vector<size_t> tokens;
      for (const auto& w : words) tokens.push_back(tokenize(w.text).size());
      const auto windows = data::plan_windows(tokens, opt.max_length);
      if (windows.size() > 1) ++r.windowed_tiles;
      std::vector<double> best_centrality(static_cast<size_t>(n), -1.0);
      for (const auto& w : windows) {
        const data::TileInputs in = data::layout_tokens(words, tokenize, opt.max_length, w.begin, w.end, special);
        std::vector<int64_t> index;  // window word -> model word
        for (const auto& mw : in.words)
          for (int64_t k = static_cast<int64_t>(w.begin); k < static_cast<int64_t>(w.end); ++k)
            if (words[k].source == mw.source) index.push_back(k);
        const model::SuccessorProbs s = model.successors(in, img.pixels);
        const int64_t m = static_cast<int64_t>(index.size());
        for (int64_t a = 0; a < m; ++a) {
          const double centre = 1.0 - std::abs((a + 0.5) / m - 0.5);
          if (centre <= best_centrality[index[a]]) continue;
          best_centrality[index[a]] = centre;
          for (int64_t c = 0; c < n; ++c) P[index[a] * n + c] = Q[index[a] * n + c] = 0.0f;
          for (int64_t c = 0; c < m; ++c) {
            P[index[a] * n + index[c]] = s.probs[a * m + c];
            Q[index[a] * n + index[c]] = s.bi_probs[a * m + c];
          }
        }
      }
      for (int64_t i = 0; i < n; ++i)  // a word no window could hold (longer than a window) ends alone
        if (best_centrality[i] < 0) P[i * n + i] = Q[i * n + i] = 1.0f;
    }
    int cycles = 0;
    out.push_back(link_tile(tile, sources, std::move(P), std::move(Q), &cycles));
    r.cycles_broken += static_cast<size_t>(cycles);
    ++r.tiles;
    if (opt.progress) bar.add();
  }
  if (opt.progress) bar.finish();
  if (report) *report = r;
  return out;
}

}  // namespace light::link

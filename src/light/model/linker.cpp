#include "light/model/linker.h"

#include <torch/torch.h>

#include <filesystem>

#include "light/data/inputs.h"
#include "light/data/tile_image.h"
#include "light/image/resize.h"
#include "light/link/decode.h"
#include "light/link/paths.h"
#include "light/model/checkpoint.h"
#include "light/model/light.h"
#include "light/model/runtime.h"
#include "light/text/bpe.h"
#include "light/util/error.h"
#include "light/util/progress.h"

namespace light::model {

namespace {

// Runs one window of words and returns its probs / bi_probs (n x n, CPU, row-major).
void run_window(LightTextLinking& model, const data::TileInputs& in, const torch::Tensor& pixels, torch::Device dev,
                std::vector<float>& probs, std::vector<float>& bi) {
  const int64_t T = in.real_tokens;
  const auto i64 = torch::TensorOptions().dtype(torch::kInt64);
  Batch b;
  b.input_ids = torch::from_blob(const_cast<int64_t*>(in.input_ids.data()), {1, T}, i64).to(dev);
  b.bbox = torch::from_blob(const_cast<int64_t*>(in.bbox.data()), {1, T, 4}, i64).to(dev);
  b.attention_mask = torch::ones({1, T}, i64.device(dev));
  b.polygons = torch::from_blob(const_cast<float*>(in.polygons.data()), {1, T, data::kPolygonValues}).to(dev);
  b.pixel_values = pixels;
  const int64_t n = static_cast<int64_t>(in.words.size());
  b.first_token_indices.push_back(torch::from_blob(const_cast<int64_t*>(in.first_token_indices.data()), {n}, i64).to(dev));
  const Outputs o = model->forward(b);
  const torch::Tensor p = o.tiles[0].probs.to(torch::kCPU).contiguous(), q = o.tiles[0].bi_probs.to(torch::kCPU).contiguous();
  probs.assign(p.data_ptr<float>(), p.data_ptr<float>() + p.numel());
  bi.assign(q.data_ptr<float>(), q.data_ptr<float>() + q.numel());
}

}  // namespace

maptext::Dataset link_with_model(const maptext::Dataset& data, const std::string& model_dir, const std::string& images_dir,
                                 const ModelLinkOptions& opt, ModelLinkReport* report) {
  set_threads(opt.threads);
  torch::NoGradGuard no_grad;
  const torch::Device dev = pick_device(opt.device);
  LightTextLinking model = load_model(model_dir);
  check_max_length(opt.max_length, model->config);
  model->to(dev);
  const text::BpeTokenizer tok = text::BpeTokenizer::from_folder(opt.tokenizer_dir.empty() ? model_dir : opt.tokenizer_dir);
  const int64_t vocab = model->config.layoutlmv3.vocab_size;
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
    const auto all = link::flatten(tile);
    r.words += all.size();
    const image::RgbImage img = image::read_rgb(data::find_tile_image(images_dir, tile.image));
    const auto words = data::select_words(tile, img.width, img.height, {});
    const int64_t n = static_cast<int64_t>(words.size());
    r.model_words += words.size();
    std::vector<std::vector<int>> phrases;  // in source indices
    std::vector<char> placed(all.size(), 0);
    if (n > 0) {
      const int s = model->config.layoutlmv3.input_size;
      const std::vector<float> pv = image::pixel_values(image::pil_resize_bilinear(img, s, s));
      const torch::Tensor pixels = torch::from_blob(const_cast<float*>(pv.data()), {1, 3, s, s}).to(dev);
      std::vector<size_t> tokens;
      for (const auto& w : words) tokens.push_back(tokenize(w.text).size());
      const auto windows = data::plan_windows(tokens, opt.max_length);
      if (windows.size() > 1) ++r.windowed_tiles;
      // Each word's rows come from the window in which it is most central.
      std::vector<float> P(static_cast<size_t>(n * n), 0.0f), Q(P.size(), 0.0f);
      std::vector<double> best_centrality(static_cast<size_t>(n), -1.0);
      for (const auto& w : windows) {
        const data::TileInputs in = data::layout_tokens(words, tokenize, opt.max_length, w.begin, w.end, special);
        std::vector<int64_t> index;  // window word -> model word
        for (const auto& mw : in.words)
          for (int64_t k = static_cast<int64_t>(w.begin); k < static_cast<int64_t>(w.end); ++k)
            if (words[k].source == mw.source) index.push_back(k);
        std::vector<float> p, q;
        run_window(model, in, pixels, dev, p, q);
        const int64_t m = static_cast<int64_t>(index.size());
        for (int64_t a = 0; a < m; ++a) {
          const double centre = 1.0 - std::abs((a + 0.5) / m - 0.5);
          if (centre <= best_centrality[index[a]]) continue;
          best_centrality[index[a]] = centre;
          for (int64_t c = 0; c < n; ++c) P[index[a] * n + c] = Q[index[a] * n + c] = 0.0f;
          for (int64_t c = 0; c < m; ++c) {
            P[index[a] * n + index[c]] = p[a * m + c];
            Q[index[a] * n + index[c]] = q[a * m + c];
          }
        }
      }
      for (int64_t i = 0; i < n; ++i)  // a word no window could hold (longer than a window) ends alone
        if (best_centrality[i] < 0) P[i * n + i] = Q[i * n + i] = 1.0f;
      const link::Decoded d = link::decode_successors(P, Q, static_cast<int>(n));
      r.cycles_broken += d.cycles_broken;
      for (const auto& g : d.groups) {
        std::vector<int> phrase;
        for (int k : g) {
          phrase.push_back(static_cast<int>(words[k].source));
          placed[words[k].source] = 1;
        }
        phrases.push_back(std::move(phrase));
      }
    }
    for (size_t k = 0; k < all.size(); ++k)  // words the model does not see stay, alone
      if (!placed[k]) phrases.push_back({static_cast<int>(k)});
    out.push_back(link::regroup(tile, phrases));
    ++r.tiles;
    if (opt.progress) bar.add();
  }
  if (opt.progress) bar.finish();
  if (report) *report = r;
  return out;
}

}  // namespace light::model

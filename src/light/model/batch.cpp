#include "light/model/light.h"

#include "light/error.h"
#include "light/geometry/line_chains.h"
#include "light/geometry/polygon.h"
#include "light/image/ink.h"
#include "light/text/letter_case.h"

#include <algorithm>
#include <array>

namespace light::model {

namespace {
// The mean colour (RGB, 0-1) of the darkest fifth of the pixels in a word's box (0-1000 of the
// window) of a window's pixel values ([3, S, S], normalised to -1..1); mid grey for a box off it.
std::array<float, 3> window_ink(const std::vector<float>& pixels, int64_t S, const std::array<int64_t, 4>& box) {
  const auto at = [S](int64_t v) { return std::clamp<int64_t>(v * S / 1000, 0, S); };
  int64_t x0 = at(box[0]), y0 = at(box[1]), x1 = std::max(at(box[2]), x0 + 1), y1 = std::max(at(box[3]), y0 + 1);
  x1 = std::min(x1, S), y1 = std::min(y1, S), x0 = std::min(x0, S - 1), y0 = std::min(y0, S - 1);
  const size_t plane = static_cast<size_t>(S * S);
  std::vector<std::pair<float, size_t>> px;  // (luminance, offset in a plane)
  for (int64_t y = y0; y < y1; ++y)
    for (int64_t x = x0; x < x1; ++x) {
      const size_t o = static_cast<size_t>(y * S + x);
      px.emplace_back(0.299f * pixels[o] + 0.587f * pixels[plane + o] + 0.114f * pixels[2 * plane + o], o);
    }
  if (px.empty()) return {0.5f, 0.5f, 0.5f};
  const auto [sum, dark] = image::darkest_fifth_sum(px, [&](size_t o, int c) { return pixels[static_cast<size_t>(c) * plane + o]; });
  std::array<float, 3> ink{};
  for (size_t c = 0; c < 3; ++c) ink[c] = static_cast<float>(0.5 * sum[c] / static_cast<double>(dark) + 0.5);
  return ink;
}
}  // namespace

Batch make_batch(const std::vector<const data::TileInputs*>& tiles, const std::vector<const std::vector<float>*>& pixels,
                 const ModelConfig& config, torch::Device device, const BatchOptions& options) {
  if (tiles.empty() || tiles.size() != pixels.size())
    throw Error("make_batch: expected one pixel array a tile, and at least one tile");
  const int64_t S = config.layoutlmv3.input_size, P = config.poly.num_coords;
  int64_t T = std::max<int64_t>(1, options.pad_to);
  for (const data::TileInputs* in : tiles) T = std::max<int64_t>(T, in->real_tokens);
  const auto i64 = torch::TensorOptions().dtype(torch::kInt64);
  Batch b;
  std::vector<torch::Tensor> ids, boxes, masks, polys, pix;
  for (size_t k = 0; k < tiles.size(); ++k) {
    const data::TileInputs& in = *tiles[k];
    const auto L = static_cast<int64_t>(in.input_ids.size());
    if (L < T || static_cast<int64_t>(in.attention_mask.size()) != L || static_cast<int64_t>(in.labels.size()) != L ||
        static_cast<int64_t>(in.bbox.size()) != 4 * L)
      throw Error("make_batch: tile " + std::to_string(k) + " holds " + std::to_string(L) + " token slots, fewer than the batch's " +
                  std::to_string(T) + " or unequal across its inputs");
    if (static_cast<int64_t>(in.polygons.size()) != L * P)
      throw Error("make_batch: tile " + std::to_string(k) + ": " + std::to_string(in.polygons.size()) + " polygon values, expected " +
                  std::to_string(L) + " x " + std::to_string(P) + " (the model's num_coords)");
    if (static_cast<int64_t>(pixels[k]->size()) != 3 * S * S)
      throw Error("make_batch: tile " + std::to_string(k) + ": " + std::to_string(pixels[k]->size()) + " pixel values, expected 3 x " +
                  std::to_string(S) + " x " + std::to_string(S) + " (the model's input_size)");
    ids.push_back(torch::from_blob(const_cast<int64_t*>(in.input_ids.data()), {T}, i64).clone());
    boxes.push_back(torch::from_blob(const_cast<int64_t*>(in.bbox.data()), {T, 4}, i64).clone());
    masks.push_back(torch::from_blob(const_cast<int64_t*>(in.attention_mask.data()), {T}, i64).clone());
    polys.push_back(torch::from_blob(const_cast<float*>(in.polygons.data()), {T, P}).clone());
    pix.push_back(torch::from_blob(const_cast<float*>(pixels[k]->data()), {3, S, S}).clone());
    std::vector<int64_t> first, labels, next_out, prev_out;
    for (int64_t t : in.first_token_indices)
      if (t != -999) {
        first.push_back(t);
        if (options.labels) labels.push_back(in.labels.at(static_cast<size_t>(t)));
      }
    b.first_token_indices.push_back(torch::tensor(first, torch::kInt64).to(device));
    if (options.labels) {
      b.word_labels.push_back(torch::tensor(labels, torch::kInt64));
      if (in.words.size() == first.size()) {
        for (const auto& w : in.words) next_out.push_back(w.next_outside), prev_out.push_back(w.prev_outside);
        b.next_outside.push_back(torch::tensor(next_out, torch::kInt64));
        b.prev_outside.push_back(torch::tensor(prev_out, torch::kInt64));
        if (!config.link_weights.neutral()) {
          data::link_row_weights(in, config.link_weights, b.next_weight.emplace_back(), b.prev_weight.emplace_back());
        }
      }
    }
    if (config.head == SuccessorHead::Pairwise) {
      if (in.words.size() != first.size())
        throw Error("make_batch: tile " + std::to_string(k) + ": a pairwise head needs each word's polygon (" +
                    std::to_string(in.words.size()) + " words for " + std::to_string(first.size()) + " first tokens)");
      std::vector<float> frames;
      const std::vector<geometry::ReadingFrame> word_frames = data::window_frames(in);
      for (const geometry::ReadingFrame& f : word_frames)
        frames.insert(frames.end(), {static_cast<float>(f.start.x), static_cast<float>(f.start.y), static_cast<float>(f.end.x),
                                     static_cast<float>(f.end.y), static_cast<float>(f.height)});
      b.word_frames.push_back(torch::tensor(frames).view({static_cast<int64_t>(in.words.size()), 5}).to(device));
      if (config.pair_lines) {
        std::vector<float> ends;
        for (const geometry::LineEnds& e : geometry::line_ends(word_frames))
          ends.insert(ends.end(), {static_cast<float>(e.start.x), static_cast<float>(e.start.y), static_cast<float>(e.end.x),
                                   static_cast<float>(e.end.y)});
        b.word_lines.push_back(torch::tensor(ends).view({static_cast<int64_t>(in.words.size()), 4}).to(device));
      }
      if (config.pair_lettering) {
        std::vector<float> letters;
        for (const auto& w : in.words) {
          const std::array<float, 3> ink = window_ink(*pixels[k], S, w.bbox);
          letters.insert(letters.end(), {ink[0], ink[1], ink[2], static_cast<float>(text::letter_case(w.text == "NaN" ? "" : w.text))});
        }
        b.word_lettering.push_back(torch::tensor(letters).view({static_cast<int64_t>(in.words.size()), 4}).to(device));
      }
    }
  }
  b.input_ids = torch::stack(ids).to(device);
  b.bbox = torch::stack(boxes).to(device);
  b.attention_mask = torch::stack(masks).to(device);
  b.polygons = torch::stack(polys).to(device);
  b.pixel_values = torch::stack(pix).to(device);
  return b;
}

}  // namespace light::model

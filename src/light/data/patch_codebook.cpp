#include "light/data/patch_codebook.h"

#include <limits>
#include <opencv2/core.hpp>

#include "light/io/safetensors.h"
#include "light/error.h"

namespace light::data {

PatchCodebook::PatchCodebook(int patch, int dim, std::vector<float> centres) : patch_(patch), dim_(dim), centres_(std::move(centres)) {
  if (dim <= 0 || centres_.empty() || centres_.size() % static_cast<size_t>(dim) != 0)
    throw Error("patch codebook: centres do not form a K x " + std::to_string(dim) + " table");
}

std::vector<std::vector<float>> image_patches(const std::vector<float>& px, int channels, int size, int patch) {
  if (patch <= 0 || size % patch != 0) throw Error("image_patches: image size " + std::to_string(size) + " is not a multiple of the patch size");
  if (px.size() != static_cast<size_t>(channels) * size * size) throw Error("image_patches: pixel count does not match channels x size x size");
  const int g = size / patch;
  std::vector<std::vector<float>> out;
  for (int py = 0; py < g; ++py)
    for (int px_ = 0; px_ < g; ++px_) {
      std::vector<float> v;
      v.reserve(static_cast<size_t>(channels) * patch * patch);
      for (int c = 0; c < channels; ++c)
        for (int y = py * patch; y < (py + 1) * patch; ++y)
          for (int x = px_ * patch; x < (px_ + 1) * patch; ++x) v.push_back(px[(static_cast<size_t>(c) * size + y) * size + x]);
      out.push_back(std::move(v));
    }
  return out;
}

std::vector<int> PatchCodebook::encode(const std::vector<float>& pixels, int channels, int image_size) const {
  std::vector<int> ids;
  for (const auto& v : image_patches(pixels, channels, image_size, patch_)) {
    if (static_cast<int>(v.size()) != dim_) throw Error("patch codebook: patches of " + std::to_string(v.size()) + " values, codebook of " + std::to_string(dim_));
    int best = 0;
    double bd = std::numeric_limits<double>::infinity();
    for (int k = 0; k < size(); ++k) {
      const float* c = &centres_[static_cast<size_t>(k) * dim_];
      double d = 0;
      for (int i = 0; i < dim_; ++i) d += (v[i] - c[i]) * static_cast<double>(v[i] - c[i]);
      if (d < bd) bd = d, best = k;
    }
    ids.push_back(best);
  }
  return ids;
}

void PatchCodebook::save(const std::string& path) const {
  io::write_safetensors(path, {{"centres", io::Tensor::f32({size(), dim_}, centres_)}}, {{"patch", std::to_string(patch_)}});
}

PatchCodebook PatchCodebook::load(const std::string& path) {
  const io::SafeTensorsFile f(path);
  if (!f.contains("centres")) throw Error(path + ": not a patch codebook (no \"centres\" tensor)");
  const auto& t = f.at("centres");
  if (t.dtype != io::DType::F32 || t.shape.size() != 2) throw Error(path + ": \"centres\" must be a float32 K x D table");
  const auto it = f.metadata().find("patch");
  if (it == f.metadata().end()) throw Error(path + ": metadata \"patch\" missing");
  const int patch = std::stoi(it->second);
  const auto* d = t.as<float>();
  return PatchCodebook(patch, static_cast<int>(t.shape[1]), std::vector<float>(d, d + t.numel()));
}

PatchCodebook train_codebook(const std::vector<std::vector<float>>& images, int channels, int size, int patch, int codes,
                             int iterations, uint64_t seed) {
  std::vector<std::vector<float>> all;
  for (const auto& img : images)
    for (auto& p : image_patches(img, channels, size, patch)) all.push_back(std::move(p));
  if (all.size() < static_cast<size_t>(codes))
    throw Error("patch codebook: " + std::to_string(all.size()) + " patches for " + std::to_string(codes) + " codes");
  const int dim = channels * patch * patch;
  cv::Mat samples(static_cast<int>(all.size()), dim, CV_32F);
  for (size_t i = 0; i < all.size(); ++i) std::copy(all[i].begin(), all[i].end(), samples.ptr<float>(static_cast<int>(i)));
  cv::theRNG().state = seed ? seed : 1;
  cv::Mat labels, centres;
  cv::kmeans(samples, codes, labels, cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, iterations, 1e-4), 1,
             cv::KMEANS_PP_CENTERS, centres);
  return PatchCodebook(patch, dim, std::vector<float>(centres.ptr<float>(0), centres.ptr<float>(0) + static_cast<size_t>(codes) * dim));
}

}  // namespace light::data

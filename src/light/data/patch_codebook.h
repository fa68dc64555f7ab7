// A built-in image tokenizer for masked image modelling when no BEiT checkpoint is at hand: k-means
// (OpenCV) over the 16 x 16 RGB patches of the model's 224 x 224 pixel values; a patch's visual token
// is its nearest centre. `light` trains it on the user's own tiles. Stored as safetensors
// ("centres": [K, 3·patch·patch] float32; metadata "patch").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace light::data {

class PatchCodebook {
 public:
  PatchCodebook() = default;
  PatchCodebook(int patch, int dim, std::vector<float> centres);
  int size() const { return dim_ ? static_cast<int>(centres_.size() / static_cast<size_t>(dim_)) : 0; }
  int patch() const { return patch_; }
  // The visual token of every patch of CHW pixel values (channels x image_size x image_size), row-major.
  std::vector<int> encode(const std::vector<float>& pixels, int channels, int image_size) const;
  void save(const std::string& path) const;
  // Throws light::Error naming the file and what is wrong.
  static PatchCodebook load(const std::string& path);
  const std::vector<float>& centres() const { return centres_; }

 private:
  int patch_ = 16, dim_ = 0;
  std::vector<float> centres_;
};

// The flattened patches (channel-major within a patch) of CHW pixel values.
std::vector<std::vector<float>> image_patches(const std::vector<float>& pixels, int channels, int image_size, int patch);

// k-means with k-means++ seeding (OpenCV), seeded, over the patches of `images` (CHW pixel values).
PatchCodebook train_codebook(const std::vector<std::vector<float>>& images, int channels, int image_size, int patch, int codes,
                             int iterations, uint64_t seed);

}  // namespace light::data

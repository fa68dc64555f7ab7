// `light prepare`: every tile of a MapText file turned into LIGHT's model inputs and written to one
// safetensors file, tensors named "<tile index>.<name>" as in tests/data/parity/model/inputs.safetensors.
#pragma once
#include <string>
#include <vector>

#include "light/data/inputs.h"
#include "light/data/model_polygons.h"
#include "light/io/safetensors.h"
#include "light/maptext.h"
#include "light/text/bpe.h"

namespace light::data {

struct PrepareOptions {
  int max_length = 1000;
  int image_size = 224;  // pixel_values are [3, image_size, image_size]: the model's input_size
  int threads = 0;
  bool progress = false;
  // How word polygons reach the model (data/model_polygons.h); recorded in the file's metadata.
  PolygonPoints polygon_points = PolygonPoints::Resample;
  std::string source = "words";  // the words file, named in notes on degenerate polygons
};

struct PrepareReport {
  size_t tiles_written = 0;
  std::vector<std::string> notes;  // tiles skipped (no usable word) or longer than one window
};

PrepareReport prepare(const maptext::Dataset& data, const std::string& images_dir, const text::BpeTokenizer& tokenizer,
                      const std::string& out_path, const PrepareOptions& options);

// One tile of a prepared inputs file (tensors "<prefix>input_ids", "<prefix>bbox", ...: prepare's, or
// the parity fixtures'), read back as model inputs (without words; real_tokens counts the leading ones
// of the attention mask) and pixel values. Types and shapes are the caller's to check first.
struct PreparedTile {
  TileInputs inputs;
  std::vector<float> pixels;
};
PreparedTile read_prepared_tile(const io::SafeTensorsFile& file, const std::string& prefix);

}  // namespace light::data

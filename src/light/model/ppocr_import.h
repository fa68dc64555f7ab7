// Importing PaddleOCR's released PP-OCRv4 inference models (ONNX) into a spotter folder that `light
// spot` reads without ONNX: each model's weights as .safetensors under PaddleOCR's module names, with
// the source file's name and SHA-256 in the file's metadata.
#pragma once
#include <string>

namespace light::model {

struct ImportOptions {
  std::string detector_onnx;    // ch_PP-OCRv4_det_infer.onnx
  std::string recognizer_onnx;  // ch_PP-OCRv4_rec_infer.onnx
  std::string keys;             // ppocr_keys_v1.txt: class k (k >= 1) is line k; the last class is a space
  std::string out_dir;          // created: detector.safetensors, recognizer.safetensors, keys.txt
};

struct ImportReport {
  std::string detector_sha256, recognizer_sha256;
  size_t detector_tensors = 0, recognizer_tensors = 0, classes = 0;
};

// Throws light::Error naming the file when it is not the model the importer reads, or when `out_dir`
// already holds a spotter's file (nothing is overwritten); writes nothing then.
ImportReport import_ppocr(const ImportOptions& options);

}  // namespace light::model

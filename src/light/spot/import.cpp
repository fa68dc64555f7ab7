#include "light/spot/import.h"

#include <filesystem>

#include "light/error.h"
#include "light/io/onnx.h"
#include "light/model/checkpoint.h"
#include "light/model/ppocr_det.h"
#include "light/model/ppocr_rec.h"
#include "light/util/fs.h"

namespace light::spot {

namespace {
std::map<std::string, std::string> source_metadata(const io::OnnxModel& m) {
  return {{"source", std::filesystem::path(m.path).filename().string()}, {"source_sha256", m.sha256}};
}

// The dictionary's lines (without their line ends), checked to be UTF-8 text.
std::vector<std::string> read_keys(const std::string& path) {
  const std::string text = read_file(path);
  std::vector<std::string> keys;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    keys.push_back(line);
    start = end + 1;
  }
  if (keys.empty()) throw Error(path + ": an empty dictionary");
  return keys;
}
}  // namespace

ImportReport import_ppocr(const ImportOptions& o) {
  ImportReport r;
  const io::OnnxModel det = io::read_onnx_model(o.detector_onnx);
  model::TextDetector detector;
  model::import_onnx_weights(detector->ordered_tensors(), det);
  const io::OnnxModel rec = io::read_onnx_model(o.recognizer_onnx);
  if (rec.weights.empty() || rec.weights.back().shape.size() != 1)
    throw Error(o.recognizer_onnx + ": its last learned tensor is not the CTC head's bias (not a PP-OCRv4 recogniser)");
  const int64_t classes = rec.weights.back().shape[0];
  const std::vector<std::string> keys = read_keys(o.keys);
  // Class 0 is the CTC blank, classes 1..n the dictionary's lines, and one more a space.
  if (static_cast<int64_t>(keys.size()) + 2 != classes)
    throw Error(o.keys + ": " + std::to_string(keys.size()) + " characters; the recogniser " + o.recognizer_onnx + " has " +
                std::to_string(classes) + " classes (expected the characters + blank + space)");
  model::TextRecognizer recognizer(classes);
  model::import_onnx_weights(recognizer->ordered_tensors(), rec);
  std::filesystem::create_directories(o.out_dir);
  model::write_state(*detector, o.out_dir + "/detector.safetensors", source_metadata(det));
  model::write_state(*recognizer, o.out_dir + "/recognizer.safetensors", source_metadata(rec));
  std::string text;
  for (const std::string& k : keys) text += k + "\n";
  write_file_atomic(o.out_dir + "/keys.txt", text);
  r.detector_sha256 = det.sha256;
  r.recognizer_sha256 = rec.sha256;
  r.detector_tensors = det.weights.size();
  r.recognizer_tensors = rec.weights.size();
  r.classes = static_cast<size_t>(classes);
  return r;
}

}  // namespace light::spot

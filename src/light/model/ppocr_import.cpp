#include "light/model/ppocr_import.h"

#include <filesystem>

#include "light/error.h"
#include "light/io/onnx.h"
#include "light/model/checkpoint.h"
#include "light/model/ppocr_det.h"
#include "light/model/ppocr_rec.h"
#include "light/text/ctc_dictionary.h"
#include "light/util/fs.h"

namespace light::model {

namespace {
std::map<std::string, std::string> source_metadata(const io::OnnxModel& m) {
  return {{"source", std::filesystem::path(m.path).filename().string()}, {"source_sha256", m.sha256}};
}

}  // namespace

ImportReport import_ppocr(const ImportOptions& o) {
  ImportReport r;
  check_can_make_folder("--out", o.out_dir);
  for (const char* f : {"detector.safetensors", "recognizer.safetensors", "keys.txt", "spotter.json"})
    if (std::filesystem::exists(std::filesystem::path(o.out_dir) / f))
      throw Error(o.out_dir + " (--out): already holds " + f + "; import into a new folder");
  const io::OnnxModel det = io::read_onnx_model(o.detector_onnx);
  TextDetector detector;
  import_onnx_weights(detector->ordered_tensors(), det);
  const io::OnnxModel rec = io::read_onnx_model(o.recognizer_onnx);
  if (rec.weights.empty() || rec.weights.back().shape.size() != 1)
    throw Error(o.recognizer_onnx + ": its last learned tensor is not the CTC head's bias (not a PP-OCRv4 recogniser)");
  const int64_t classes = rec.weights.back().shape[0];
  // The recogniser first (another model given as --rec is named as such), then its dictionary:
  // class 0 is the CTC blank, classes 1..n the dictionary's lines, and one more a space (checked).
  TextRecognizer recognizer(classes);
  import_onnx_weights(recognizer->ordered_tensors(), rec);
  const text::Dictionary keys(o.keys, static_cast<int>(classes));
  make_folder("--out", o.out_dir);
  write_state(*detector, o.out_dir + "/detector.safetensors", source_metadata(det));
  write_state(*recognizer, o.out_dir + "/recognizer.safetensors", source_metadata(rec));
  std::string text;
  for (int k = 1; k < keys.space(); ++k) text += keys.text(k) + "\n";
  write_file_atomic(o.out_dir + "/keys.txt", text);
  r.detector_sha256 = det.sha256;
  r.recognizer_sha256 = rec.sha256;
  r.detector_tensors = det.weights.size();
  r.recognizer_tensors = rec.weights.size();
  r.classes = static_cast<size_t>(classes);
  return r;
}

}  // namespace light::model

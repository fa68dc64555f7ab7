// `light import-ppocr`: PaddleOCR's released PP-OCRv4 inference models (ONNX) into a spotter folder.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "light/cli/commands.h"
#include "light/error.h"
#include "light/model/ppocr_import.h"
#include "light/spot/spotter_config.h"
#include "light/util/fs.h"

namespace light::cli {

void add_import_ppocr_command(CLI::App& app) {
  auto a = std::make_shared<model::ImportOptions>();
  CLI::App* cmd = app.add_subcommand("import-ppocr", full_command_description("import-ppocr"));
  cmd->add_option("--det", a->detector_onnx, "The released detector (ch_PP-OCRv4_det_infer.onnx)")->required();
  cmd->add_option("--rec", a->recognizer_onnx, "The released recogniser (ch_PP-OCRv4_rec_infer.onnx)")->required();
  cmd->add_option("--keys", a->keys, "Its dictionary (ppocr_keys_v1.txt)")->required();
  cmd->add_option("-o,--out", a->out_dir, "Spotter folder to write (detector.safetensors, recognizer.safetensors, keys.txt, spotter.json)")->required();
  cmd->callback([a] {
    check_output_is_not_input("--out", a->out_dir, {{"--det", a->detector_onnx}, {"--rec", a->recognizer_onnx}, {"--keys", a->keys}});
    const model::ImportReport r = model::import_ppocr(*a);
    spot::write_spotter_config(a->out_dir, spot::SpotOptions{});  // the default stages and settings, said in full
    std::fprintf(stderr, "import-ppocr: detector %zu tensors (sha256 %s), recogniser %zu tensors, %zu classes (sha256 %s) -> %s\n",
                 r.detector_tensors, r.detector_sha256.c_str(), r.recognizer_tensors, r.classes, r.recognizer_sha256.c_str(),
                 a->out_dir.c_str());
  });
}

}  // namespace light::cli

// What every training command writes into its run folder, done one way: parameters as safetensors,
// folders swapped in whole (a run killed at any moment leaves a complete folder), LibTorch's random
// state, and the log lines of the steps or epochs a checkpoint covers.
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "light/model/config.h"
#include "light/model/light.h"
#include "light/text/bpe.h"

namespace light::train {

// Replaces folder `dir` by the complete folder `tmp` (via dir.old).
void swap_in(const std::string& tmp, const std::string& dir);
// `dir`, or dir.old when a swap was interrupted between its two renames; "" when neither holds `marker`.
std::string completed_folder(const std::string& dir, const std::string& marker);

// The weights file --init names: a file itself; in a folder, the first of model.safetensors,
// best_model.pth, final_model.pth, model.pth; a `light pretrain-poly` run folder (no config.json)
// stands for its final/, else its last completed checkpoint.
std::string resolve_weights_file(const std::string& init);

// options.json paths: absolute (an empty path stays empty); a preset name that is no file stays a name.
std::string absolute_path(const std::string& path);
std::string path_or_name(const std::string& path);
// A run resumes with the --world-size it was started with (`saved`, from `options_path`), or not at all.
void check_resume_world_size(int saved, int now, const std::string& options_path);

// A run's --tokenizer: a folder, or "bytes", the byte-level vocabulary, which the run keeps in
// RUN/tokenizer (a resumed run reads its own copy). Reading writes nothing; run_tokenizer_folder, called
// once the run folder exists, writes RUN/tokenizer for "bytes" and returns the folder that the run's
// model folders copy the tokenizer files from.
text::BpeTokenizer read_run_tokenizer(const std::string& tokenizer, const std::string& out_dir, bool resume);
std::string run_tokenizer_folder(const std::string& tokenizer, const std::string& out_dir);

// LibTorch's default CPU generator (dropout, permutations) to and from a file.
void save_cpu_rng(const std::string& path);
void load_cpu_rng(const std::string& path);

// Throws light::Error naming `option` unless `value` is a finite number in [lo, hi].
void check_range(double value, double lo, double hi, const std::string& option);
// The optimiser's numbers: --lr, --weight-decay and a warm-up ratio, each in [0, 1].
void check_optimiser(double lr, double weight_decay, double warmup_ratio = 0);
// Throws light::Error (the run stops; its last checkpoint stays the last good one) when a loss is not
// finite: "WHAT: the loss is VALUE at STEP; the run stops (lower --lr?) and keeps its last checkpoint".
void check_finite_loss(double loss, const std::string& what, const std::string& at);

// The first `count` lines of `text` (the log lines a checkpoint covers).
std::string first_lines(const std::string& text, long count);

// RUN/curves.png of a step-based run from its log lines: the total ("loss", first of `names`) in one
// panel, the other losses in a second titled `parts_title`; log scale.
void draw_loss_curves(const std::string& log_text, const std::vector<std::string>& names, const std::string& parts_title,
                      const std::string& path);

// A training command's run folder (--out). A new run refuses a folder that exists and holds anything,
// naming --resume and --overwrite, before anything is read; nothing is written into it until create(),
// which the setup calls once every input has been read and checked (with --overwrite, the old contents
// go only then). A setup that fails after create() leaves the folder as create() made it: removed when
// this run made it, else empty. keep() once training starts. A resumed run's folder is left alone.
class RunFolder {
 public:
  // Only the root rank (`root`) empties an overwritten folder or removes a failed one. Construct it
  // before the data-parallel ranks meet, so that every rank checks a folder no rank has written to.
  RunFolder(std::string dir, bool resume, bool overwrite, bool root = true);
  ~RunFolder();
  RunFolder(const RunFolder&) = delete;
  RunFolder& operator=(const RunFolder&) = delete;
  void create();
  void keep() { active_ = false; }

 private:
  std::string dir_;
  bool resume_, overwrite_, root_, made_ = false, active_ = true;
};

// The tiles of a step-based run (both pretraining loops): the g-th tile drawn is order[g % n] of epoch
// g / n's seeded shuffle, so any step's tiles follow from the seed alone (resuming, data-parallel ranks).
class TileOrder {
 public:
  TileOrder(size_t tiles, uint64_t seed) : n_(tiles), seed_(seed) {}
  size_t operator()(uint64_t g);

 private:
  size_t n_;
  uint64_t seed_, epoch_ = UINT64_MAX;
  std::vector<size_t> order_;
};

// The global index of sample k of `rank`'s share of step `step` (batch B per rank, `world` ranks).
inline uint64_t sample_index(long step, size_t batch, size_t world, int rank, size_t k) {
  return static_cast<uint64_t>(step) * batch * world + static_cast<uint64_t>(rank) * batch + k;
}
// Seeds LibTorch's generators (dropout) for one step of one rank.
void seed_step(uint64_t seed, long step, size_t world, int rank);
// The learning-rate factor of a linear warm-up over `warmup` steps, then a linear decay to 0 at `total`.
double warmup_decay(long step, long warmup, long total);

// What --init names, read once: nothing, a Hugging Face LayoutLMv3 folder (the backbone), a LIGHT
// model or weights file (fine-tuned, a `light pretrain` run, or a pretraining checkpoint's "light."
// part), or a polygon-pretraining checkpoint or `light pretrain-poly` run (light's or the
// reference's), whose trunk initialises the polygon encoder.
struct InitWeights {
  enum Kind { None, HuggingFace, Light, Poly } kind = None;
  std::string path;
  std::map<std::string, torch::Tensor> state;
};
InitWeights read_init(const std::string& init);

// Copies the weights into `net` by parameter name (a Hugging Face backbone into its LIGHT trunk
// `light`); shapes must agree. A polygon trunk must place every tensor; other weights at least one.
void initialise(torch::nn::Module& net, model::LightModelImpl& light, const model::ModelConfig& config, const InitWeights& w);
// Whether the 2-D layout tables start as sinusoids (model::init_layout_tables_sinusoid): "sinusoid",
// "random" (Hugging Face's N(0, 0.02), the reference's), or "auto" (sinusoid when the transformer
// starts from random weights: no --init, or a polygon-encoder checkpoint alone). Throws for another
// value, naming `option`.
bool sinusoid_layout(const std::string& choice, const InitWeights& w, const std::string& option);

}  // namespace light::train

// A training command's run folder: made only once every input has been read, swapped in whole (a run
// killed at any moment leaves a complete folder), resumed from its last completed checkpoint; the
// run's own tokenizer; the log lines a checkpoint covers.
#pragma once
#include <string>

#include "light/text/bpe.h"

namespace light::train {

// Replaces folder `dir` by the complete folder `tmp` (via dir.old).
void swap_in(const std::string& tmp, const std::string& dir);
// `dir`, or dir.old when a swap was interrupted between its two renames; "" when neither holds `marker`.
std::string completed_folder(const std::string& dir, const std::string& marker);

// A run's --tokenizer: a folder, or "bytes", the byte-level vocabulary, which the run keeps in
// RUN/tokenizer (a resumed run reads its own copy). Reading writes nothing; run_tokenizer_folder, called
// once the run folder exists, writes RUN/tokenizer for "bytes" and returns the folder that the run's
// model folders copy the tokenizer files from.
text::BpeTokenizer read_run_tokenizer(const std::string& tokenizer, const std::string& out_dir, bool resume);
std::string run_tokenizer_folder(const std::string& tokenizer, const std::string& out_dir);

// The first `count` lines of `text` (the log lines a checkpoint covers).
std::string first_lines(const std::string& text, long count);

// A training command's run folder (--out). A new run refuses a folder that exists and holds anything,
// naming --resume and --overwrite, before anything is read; nothing is written into it until create(),
// which the setup calls once every input has been read and checked. With --overwrite, create() sets the
// old run aside (DIR.overwritten.tmp.PID) and keep() removes it once training starts: a setup that fails
// at any point before keep() leaves the old run as it was. A folder this run made is removed on such a
// failure, an empty one given as --out left empty. A resumed run's folder is left alone.
class RunFolder {
 public:
  // Only the root rank (`root`) empties an overwritten folder or removes a failed one. Construct it
  // before the data-parallel ranks meet, so that every rank checks a folder no rank has written to.
  RunFolder(std::string dir, bool resume, bool overwrite, bool root = true);
  ~RunFolder();
  RunFolder(const RunFolder&) = delete;
  RunFolder& operator=(const RunFolder&) = delete;
  void create();
  void keep();

 private:
  std::string dir_, aside_;
  bool resume_, overwrite_, root_, made_ = false, created_ = false, active_ = true;
};

}  // namespace light::train

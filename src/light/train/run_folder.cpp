#include "light/train/run_folder.h"

#include <filesystem>
#include <sstream>

#include <unistd.h>

#include "light/error.h"
#include "light/util/fs.h"

namespace light::train {

namespace fs = std::filesystem;

void swap_in(const std::string& tmp, const std::string& dir) {
  const std::string old = dir + ".old";
  remove_tree(old);
  if (fs::exists(dir)) fs::rename(dir, old);
  fs::rename(tmp, dir);
  remove_tree(old);
}

std::string completed_folder(const std::string& dir, const std::string& marker) {
  if (fs::exists(fs::path(dir) / marker)) return dir;
  if (fs::exists(fs::path(dir + ".old") / marker)) return dir + ".old";
  return "";
}


namespace {
bool byte_level(const std::string& tokenizer) { return tokenizer == "bytes" && !fs::exists(tokenizer); }
}  // namespace

text::BpeTokenizer read_run_tokenizer(const std::string& tokenizer, const std::string& out_dir, bool resume) {
  if (!byte_level(tokenizer)) return text::BpeTokenizer::from_folder(tokenizer);
  const std::string own = out_dir + "/tokenizer";
  return resume && fs::exists(own + "/vocab.json") ? text::BpeTokenizer::from_folder(own) : text::BpeTokenizer::byte_level();
}

std::string run_tokenizer_folder(const std::string& tokenizer, const std::string& out_dir) {
  if (!byte_level(tokenizer)) return tokenizer;
  const std::string own = out_dir + "/tokenizer";
  return fs::exists(own + "/vocab.json") ? own : text::BpeTokenizer::write_byte_level(own);
}

std::string first_lines(const std::string& text, long count) {
  std::istringstream in(text);
  std::string line, out;
  for (long k = 0; k < count && std::getline(in, line); ++k) out += line + "\n";
  return out;
}

RunFolder::RunFolder(std::string dir, bool resume, bool overwrite, bool root)
    : dir_(std::move(dir)), resume_(resume), overwrite_(overwrite), root_(root) {
  if (dir_.empty()) throw Error("--out: a run folder is required");
  if (resume_ && overwrite_) throw Error("--overwrite: not with --resume (a resumed run keeps its folder)");
  // Every rank checks, before the ranks meet (the training loops construct this first), so no rank
  // has written into the folder yet.
  if (!resume_) check_new_output_folder("--out", dir_, overwrite_, "continue the run with --resume " + dir_);
}

void RunFolder::create() {
  if (resume_) return;
  made_ = !fs::exists(dir_);
  created_ = true;
  std::error_code ec;
  if (overwrite_ && root_ && !made_) {
    // The old run is set aside, not removed: a setup that fails after this puts it back; keep()
    // removes it once training starts.
    aside_ = dir_ + ".overwritten.tmp." + std::to_string(::getpid());
    remove_tree(aside_);
    fs::rename(dir_, aside_, ec);
    if (ec) {
      aside_.clear();
      throw Error(dir_ + " (--out): cannot set the old run aside: " + ec.message());
    }
  }
  fs::create_directories(dir_, ec);
  if (ec) throw Error(dir_ + " (--out): cannot create the run folder: " + ec.message());
}

void RunFolder::keep() {
  active_ = false;
  if (!aside_.empty()) {
    try {
      remove_tree(aside_);
    } catch (const std::exception&) {
    }
    aside_.clear();
  }
}

RunFolder::~RunFolder() {
  if (!active_ || resume_ || !root_ || !created_) return;  // before create() nothing was written
  try {  // the setup's own error is the one to report
    if (made_ || !aside_.empty()) remove_tree(dir_);
    else clear_output_folder(dir_);  // an empty folder given as --out stays, empty
    if (!aside_.empty()) fs::rename(aside_, dir_);
  } catch (const std::exception&) {
  }
}

}  // namespace light::train

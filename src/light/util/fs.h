// Small file helpers: whole-file reads with clear errors, atomic writes, and the guards that keep a
// command from writing over its own inputs or over an existing run or data set.
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace light {

// The folder holding the running executable (symbolic links followed), with a trailing '/'.
std::string executable_dir();

// Reads a whole file; throws light::Error("PATH: cannot read: REASON") on failure.
std::string read_file(const std::string& path);

// Writes `content` to `path` so that a reader never sees half of it:
// - a regular file (or a new one) is replaced whole: the content goes to an unnamed temporary file
//   beside it (O_TMPFILE; else a named `PATH.tmp.PID`, removed again on SIGINT/SIGTERM/SIGHUP), is
//   flushed, then renamed over `path`; an existing file keeps its permission bits;
// - a symbolic link is written through: its final target is replaced, the link stays;
// - a device, FIFO or socket is written directly (nothing to rename over); "-" is standard output.
// On any failure nothing is left behind, `path` is untouched and light::Error names `path`.
void write_file_atomic(const std::string& path, const std::string& content);

// Removes `path` and, for a folder, everything in it (symbolic links themselves, never what they
// point to); nothing when it does not exist. Written with directory iteration rather than
// std::filesystem::remove_all: PyTorch's pip LibTorch exports its own copy of that function, which the
// dynamic linker may bind instead of libstdc++'s, and that copy crashes (seen with torch 2.11).
void remove_tree(const std::string& path);

// Whether two paths name the same existing file or folder (same device and inode, links followed).
bool same_file(const std::string& a, const std::string& b);

// An input of a command, for the output guards: the option that named it and its path.
struct NamedPath {
  std::string option;
  std::string path;
};

// Throws light::Error when `output` (named by `output_option`) is, by inode, one of `inputs`, or one
// of the files this process has noted as read (note_input): "OUTPUT (--out): is the input --words
// (PATH); write the output elsewhere". Empty paths are skipped. Every command calls it before its
// work and again just before it writes, so a file it read (an image, a model's config.json, a
// spotter's keys.txt, through any path, hard or symbolic link) is never written over.
void check_output_is_not_input(const std::string& output_option, const std::string& output,
                               const std::vector<NamedPath>& inputs = {});

// The files a command reads, by identity (device and inode), for check_output_is_not_input. Every
// reader of a user's file notes it (read_file, the safetensors and .pth readers, the image decoders,
// the listing of --images); nothing is kept until record_inputs() is called, which the command line
// does: a library or Python user who reads a file and writes it back is not stopped. `what` says
// what the file is in the refusal ("the image", "the model").
void record_inputs();
void note_input(const std::string& path, const char* what = "a file this command reads");

// A folder a command fills from scratch (a training run, a synthetic set, drawings): refused with a
// message naming `option` when it exists and is not empty, unless `overwrite` (then its old contents
// are removed by clear_output_folder once the command's setup has succeeded). `resume_hint`, when not
// empty, is added to the message (e.g. "continue it with --resume RUN").
void check_new_output_folder(const std::string& option, const std::string& dir, bool overwrite,
                             const std::string& resume_hint = "");
// Whether `path` lies inside `dir` (or is it), by their absolute, lexically normal paths: no symbolic
// link followed ("DIR/../x" is outside, "DIR/" is DIR).
bool lies_inside(const std::string& dir, const std::string& path);
// Throws light::Error when one of `inputs` lies inside `dir`, a folder the command empties
// (--overwrite): "--gazetteer (PATH): lies inside --out DIR, which --overwrite empties; ...".
void check_inputs_outside(const std::string& option, const std::string& dir, const std::vector<NamedPath>& inputs);
// Empties `dir` (keeps the folder itself); nothing when it does not exist.
void clear_output_folder(const std::string& dir);
// Throws light::Error naming `option` when the folder `dir` cannot be made: a regular file where it or
// one of the folders above it would be ("plainfile/run"). Checked before any work.
void check_can_make_folder(const std::string& option, const std::string& dir);
// std::filesystem::create_directories, failing with light::Error naming `option` and the reason.
void make_folder(const std::string& option, const std::string& dir);
// Whether `dir` exists and holds anything.
bool folder_has_entries(const std::string& dir);

namespace detail {
// Test hook: called with the temporary file's path after the content is written and before it is
// renamed into place (empty when the temporary file has no name yet).
extern std::function<void(const std::string&)> after_temp_written;
// Test switch: never use O_TMPFILE (exercise the named temporary file and its signal clean-up).
extern bool force_named_temp;
}  // namespace detail

}  // namespace light

#include "light/util/fs.h"

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <vector>

#include <cerrno>
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <climits>

#include "light/error.h"

namespace light {

namespace detail {
std::function<void(const std::string&)> after_temp_written;
bool force_named_temp = false;
}  // namespace detail

namespace {
// The files noted as read: (device, inode) -> what it is and the path it was read through.
std::mutex g_inputs_mutex;
std::atomic<bool> g_recording{false};
std::map<std::pair<dev_t, ino_t>, std::pair<std::string, std::string>> g_inputs;
}  // namespace

void record_inputs() { g_recording = true; }

void note_input(const std::string& path, const char* what) {
  if (!g_recording || path.empty() || path == "-") return;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  const std::lock_guard<std::mutex> lock(g_inputs_mutex);
  g_inputs.emplace(std::make_pair(st.st_dev, st.st_ino), std::make_pair(std::string(what), path));
}

std::string read_file(const std::string& path) {
  note_input(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot read: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Error(path + ": read error");
  return ss.str();
}

namespace {

// Named temporary files alive right now, removed by the signal handler when SIGINT, SIGTERM or
// SIGHUP ends the process mid-write. Fixed slots of malloc'd strings: the handler only loads and unlinks.
constexpr int kTempSlots = 64;
std::atomic<char*> g_temps[kTempSlots];
struct sigaction g_previous[3];
constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};

void remove_temps_and_reraise(int sig) {
  for (auto& slot : g_temps)
    if (char* p = slot.load()) ::unlink(p);
  for (int k = 0; k < 3; ++k)
    if (kSignals[k] == sig) ::sigaction(sig, &g_previous[k], nullptr);
  ::raise(sig);
}

void install_handlers_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int k = 0; k < 3; ++k) {
      struct sigaction old {};
      ::sigaction(kSignals[k], nullptr, &old);
      g_previous[k] = old;
      if (old.sa_handler == SIG_IGN) continue;  // e.g. SIGHUP under nohup: stays ignored
      struct sigaction sa {};
      sa.sa_handler = remove_temps_and_reraise;
      sigemptyset(&sa.sa_mask);
      ::sigaction(kSignals[k], &sa, nullptr);
    }
  });
}

// Registers a temporary path for removal on a fatal signal for as long as it lives.
class TempRegistration {
 public:
  explicit TempRegistration(const std::string& path) {
    install_handlers_once();
    char* copy = ::strdup(path.c_str());
    for (auto& s : g_temps) {
      char* expected = nullptr;
      if (s.compare_exchange_strong(expected, copy)) {
        slot_ = &s;
        return;
      }
    }
    std::free(copy);  // every slot busy: no clean-up on a signal for this one
  }
  ~TempRegistration() {
    if (slot_) std::free(slot_->exchange(nullptr));
  }
  TempRegistration(const TempRegistration&) = delete;
  TempRegistration& operator=(const TempRegistration&) = delete;

 private:
  std::atomic<char*>* slot_ = nullptr;
};

// The final target of a chain of symbolic links (the path itself when it is none).
std::string follow_links(const std::string& path) {
  std::string p = path;
  for (int k = 0; k < 40; ++k) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::read_symlink(p, ec);
    if (ec) throw Error(path + ": cannot write: cannot read the link: " + ec.message());
    p = target.is_absolute() ? target.string() : (std::filesystem::path(p).parent_path() / target).string();
  }
  throw Error(path + ": cannot write: too many levels of symbolic links");
}

bool write_all(int fd, const std::string& content) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

[[noreturn]] void fail_write(const std::string& path, int err) {
  throw Error(path + ": cannot write: " + std::strerror(err));
}

// A device, FIFO or socket: written in place.
void write_in_place(const std::string& shown, const std::string& target, const std::string& content, bool append) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | (append ? O_APPEND : 0));
  if (fd < 0) fail_write(shown, errno);
  const bool ok = write_all(fd, content);
  const int err = errno;
  if (::close(fd) != 0 && ok) fail_write(shown, errno);
  if (!ok) fail_write(shown, err);
}

}  // namespace

namespace {
// The content into `fd`, flushed, with the replaced file's permissions (and owner, where allowed).
// Closes `fd` on failure; returns errno then, else 0.
int fill(int fd, const std::string& content, const struct stat* keep) {
  int err = 0;
  if (!write_all(fd, content)) err = errno;
  if (!err && keep) {
    ::fchmod(fd, keep->st_mode & 07777);
    [[maybe_unused]] const int not_ours_to_give = ::fchown(fd, keep->st_uid, keep->st_gid);
  }
  if (!err && ::fsync(fd) != 0) err = errno;
  if (err) ::close(fd);
  return err;
}

// The content in an unnamed file in `dir` (O_TMPFILE), then linked as `tmp`: a kill at any moment
// before the link leaves nothing. False where the system cannot (old kernel, some file systems, no /proc).
bool write_unnamed(const std::string& path, const std::string& dir, const std::string& tmp, const std::string& content,
                   const struct stat* keep) {
#ifdef O_TMPFILE
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0) return false;
  if (const int err = fill(fd, content, keep)) fail_write(path, err);
  ::unlink(tmp.c_str());
  const std::string proc = "/proc/self/fd/" + std::to_string(fd);
  const bool linked = ::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) == 0;
  const int err = linked && ::close(fd) != 0 ? errno : 0;
  if (!linked) ::close(fd);
  if (err) {
    ::unlink(tmp.c_str());
    fail_write(path, err);
  }
  return linked;
#else
  (void)path, (void)dir, (void)tmp, (void)content, (void)keep;
  return false;
#endif
}

void write_named(const std::string& path, const std::string& tmp, const std::string& content, const struct stat* keep) {
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail_write(path, errno);
  int err = fill(fd, content, keep);
  if (!err && ::close(fd) != 0) err = errno;
  if (err) {
    ::unlink(tmp.c_str());
    fail_write(path, err);
  }
}
}  // namespace

void write_file_atomic(const std::string& path, const std::string& content) {
  if (path == "-") {
    if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() || std::fflush(stdout) != 0)
      throw Error("standard output: cannot write: " + std::string(std::strerror(errno)));
    return;
  }
  struct stat st {};
  bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw Error(path + ": cannot write: it is a folder, not a file");
  // Devices, FIFOs, sockets, and the open files /dev/stdout, /dev/fd/N, /proc/self/fd/N stand for:
  // written where they are (appending to a regular file, as a shell's >> would be kept).
  const bool open_file = path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
  if (exists && (!S_ISREG(st.st_mode) || open_file)) return write_in_place(path, path, content, S_ISREG(st.st_mode));
  const std::string target = follow_links(path);
  exists = ::stat(target.c_str(), &st) == 0;
  std::string dir = std::filesystem::path(target).parent_path().string();
  if (dir.empty()) dir = ".";
  const std::string tmp = target + ".tmp." + std::to_string(::getpid());
  const TempRegistration registration(tmp);  // whichever way, the name is removed on a fatal signal
  const struct stat* keep = exists ? &st : nullptr;
  if (detail::force_named_temp || !write_unnamed(path, dir, tmp, content, keep)) write_named(path, tmp, content, keep);
  if (detail::after_temp_written) detail::after_temp_written(tmp);
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    throw Error(path + ": cannot write (rename failed): " + std::strerror(e));
  }
}

void remove_tree(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  if (ec || !fs::exists(st)) return;
  if (fs::is_directory(st)) {
    std::vector<std::string> children;
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) children.push_back(it->path().string());
    if (ec) throw Error(path + ": cannot list the folder: " + ec.message());
    for (const auto& c : children) remove_tree(c);
  }
  if (!fs::remove(path, ec) || ec) throw Error(path + ": cannot remove: " + (ec ? ec.message() : "unknown reason"));
}

bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void check_output_is_not_input(const std::string& output_option, const std::string& output,
                               const std::vector<NamedPath>& inputs) {
  if (output.empty() || output == "-") return;
  for (const NamedPath& in : inputs)
    if (same_file(output, in.path))
      throw Error(output + " (" + output_option + "): is the input " + in.option + " (" + in.path +
                  "); write the output elsewhere");
  struct stat st {};
  if (::stat(output.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  const std::lock_guard<std::mutex> lock(g_inputs_mutex);
  if (const auto it = g_inputs.find({st.st_dev, st.st_ino}); it != g_inputs.end())
    throw Error(output + " (" + output_option + "): is " + it->second.first + " (" + it->second.second + "); write the output elsewhere");
}

void check_can_make_folder(const std::string& option, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path full = fs::absolute(dir, ec).lexically_normal();
  for (fs::path p = full; !p.empty(); p = p.parent_path()) {
    const fs::file_status st = fs::status(p, ec);
    if (fs::exists(st)) {
      if (!fs::is_directory(st))
        throw Error(dir + " (" + option + "): cannot be made a folder: " + (p == full ? std::string("it") : p.string()) + " is a file");
      return;
    }
    if (p == p.parent_path()) return;
  }
}

void make_folder(const std::string& option, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error(dir + " (" + option + "): cannot make the folder: " + ec.message());
}

bool folder_has_entries(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return false;
  return !std::filesystem::is_empty(dir, ec) && !ec;
}

void check_new_output_folder(const std::string& option, const std::string& dir, bool overwrite,
                             const std::string& resume_hint) {
  std::error_code ec;
  const auto st = std::filesystem::status(dir, ec);
  if (std::filesystem::exists(st) && !std::filesystem::is_directory(st))
    throw Error(dir + " (" + option + "): exists and is not a folder");
  if (overwrite || !folder_has_entries(dir)) return;
  throw Error(dir + " (" + option + "): already exists and is not empty; " +
              (resume_hint.empty() ? "" : resume_hint + ", ") +
              "choose a new folder, or pass --overwrite to replace what it holds");
}

bool lies_inside(const std::string& dir, const std::string& path) {
  namespace fs = std::filesystem;
  fs::path d = fs::absolute(dir).lexically_normal();
  const fs::path p = fs::absolute(path).lexically_normal();
  if (d.filename().empty()) d = d.parent_path();  // "DIR/"
  return std::mismatch(d.begin(), d.end(), p.begin(), p.end()).first == d.end();
}

void check_inputs_outside(const std::string& option, const std::string& dir, const std::vector<NamedPath>& inputs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path folder = fs::weakly_canonical(fs::absolute(dir), ec);  // links followed: where the files really are
  if (ec) return;
  for (const auto& in : inputs) {
    if (in.path.empty()) continue;
    const fs::path p = fs::weakly_canonical(fs::absolute(in.path), ec);
    if (!ec && lies_inside(folder.string(), p.string()))
      throw Error(in.option + " (" + in.path + "): lies inside " + option + " " + dir + ", which --overwrite empties; move it out first");
  }
}

void clear_output_folder(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  std::vector<std::string> children;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) children.push_back(it->path().string());
  if (ec) throw Error(dir + ": cannot list the folder: " + ec.message());
  for (const auto& c : children) remove_tree(c);
}

std::string executable_dir() {
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return "./";
  self[n] = '\0';
  const std::string path(self);
  return path.substr(0, path.rfind('/') + 1);
}

}  // namespace light

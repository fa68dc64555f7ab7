// Careless and hostile input (issue 18): no data lost, no crash, a clear message naming the file or
// option, exit 1, and every existing file left as it was.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "light/baselines/features.h"
#include "light/baselines/heuristic_links.h"
#include "light/eval/evaluator.h"
#include "light/image/resize.h"
#include "light/io/safetensors.h"
#include "light/link/heuristic_linking.h"
#include "light/maptext.h"
#include "light/text/bpe.h"
#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/json.h"
#include "test_util.h"

using namespace light::test;
namespace fs = std::filesystem;

namespace {
const std::string kGt = example_path("example_gt.json");
const std::string kPred = example_path("example_pred.json");

// A synthetic set of two 600-pixel tiles (train and validation data for the tiny model).
std::string synth_set(const std::string& dir) {
  const RunResult r = run_light("synth --out " + q(dir + "/syn") + " --count 2 --size 600 --threads 1 -q");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return dir + "/syn";
}

std::string train_args(const std::string& syn) {
  return "train --train " + q(syn + "/annotations.json") + " --train-images " + q(syn) + " --val " + q(syn + "/annotations.json") +
         " --val-images " + q(syn) + " --tokenizer bytes --config tiny --threads 1 -q";
}

// A word box at (x, y), w x h px.
light::maptext::Word sized_word(double x, double y, double w, double h, const std::string& text) { return box_word(text, x, y, x + w, y + h); }
}  // namespace

// ---------------------------------------------------------------------------------------------
// Silent data loss
// ---------------------------------------------------------------------------------------------

TEST(Robustness, ANewRunRefusesAFolderThatHoldsAnythingAndOverwriteReplacesIt) {
  const std::string dir = temp_dir();
  const std::string syn = synth_set(dir), run = dir + "/run";
  RunResult r = run_light(train_args(syn) + " --out " + q(run) + " --max-epochs 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto before = snapshot(run);
  ASSERT_TRUE(before.count("options.json") && before.count("log.jsonl") && before.count("best/model.safetensors"));
  // Twice into the same folder; --max-epochs 0 (which used to rewrite options.json alone).
  r = run_light(train_args(syn) + " --out " + q(run) + " --max-epochs 1");
  expect_error(r, run + " (--out): already exists and is not empty; continue the run with --resume " + run);
  EXPECT_NE(r.err.find("--overwrite"), std::string::npos) << r.err;
  r = run_light(train_args(syn) + " --out " + q(run) + " --max-epochs 0");
  expect_error(r, "--max-epochs: expected at least 1, got 0");
  r = run_light(train_args(syn) + " --out " + q(run) + " --stop-after-epoch -2");
  expect_error(r, "--stop-after-epoch: expected 0 (none) or an epoch, got -2");
  for (const char* cmd : {"pretrain-poly --data ", "pretrain --tokenizer bytes --data "}) {
    r = run_light(std::string(cmd) + q(syn + "/annotations.json") + " --images " + q(syn) + " --out " + q(run) + " -q");
    expect_error(r, run + " (--out): already exists and is not empty");
  }
  EXPECT_EQ(snapshot(run), before);
  // --overwrite replaces the run (and --overwrite with --resume is refused).
  r = run_light("train --resume " + q(run) + " --overwrite");
  expect_error(r, "--overwrite: not with --resume");
  write_text(run + "/stale.txt", "old");
  r = run_light(train_args(syn) + " --out " + q(run) + " --max-epochs 1 --overwrite");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(file_exists(run + "/stale.txt"));
  EXPECT_TRUE(file_exists(run + "/best/model.safetensors"));
  fs::remove_all(dir);
}

TEST(Robustness, SynthRefusesAnExistingSetUnlessToldToReplaceIt) {
  const std::string dir = temp_dir();
  const std::string syn = synth_set(dir);
  const auto before = snapshot(syn);
  RunResult r = run_light("synth --out " + q(syn) + " --count 1 --size 300 --threads 1 -q");
  expect_error(r, syn + " (--out): already exists and is not empty");
  EXPECT_EQ(snapshot(syn), before);
  r = run_light("synth --out " + q(syn) + " --count 1 --size 300 --threads 1 -q --overwrite");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto after = snapshot(syn);
  EXPECT_EQ(after.size(), 2u) << "the older set's second tile is gone";
  fs::remove_all(dir);
}

TEST(Robustness, DrawingsNeverReplaceTheTilesOrTheWords) {
  const std::string dir = temp_dir();
  const std::string syn = synth_set(dir);
  const auto before = snapshot(syn);
  RunResult r = run_light("draw --words " + q(syn + "/annotations.json") + " --images " + q(syn + "/images") + " --out " + q(syn + "/images"));
  expect_error(r, "is the input --images");
  // Another path to the same folder, and a folder holding a hard link to a tile.
  fs::create_directory_symlink(syn + "/images", dir + "/alias");
  r = run_light("draw --words " + q(syn + "/annotations.json") + " --images " + q(syn + "/images") + " --out " + q(dir + "/alias"));
  expect_error(r, "is the input --images");
  fs::create_directory(dir + "/out");
  const std::string tile = fs::directory_iterator(syn + "/images")->path().filename().string();
  fs::create_hard_link(syn + "/images/" + tile, dir + "/out/" + tile);
  r = run_light("draw --words " + q(syn + "/annotations.json") + " --images " + q(syn + "/images") + " --out " + q(dir + "/out"));
  expect_error(r, "is one of the tiles of --images");
  EXPECT_EQ(snapshot(syn), before);
  fs::remove_all(dir);
}

TEST(Robustness, AnOutputThatIsAnInputByAnyNameIsRefused) {
  const std::string dir = temp_dir();
  const std::string g = dir + "/g.json", text = read_text(kGt);
  write_text(g, text);
  fs::create_hard_link(g, dir + "/hard.json");
  fs::create_symlink(g, dir + "/soft.json");
  for (const std::string out : {g, dir + "/hard.json", dir + "/soft.json", dir + "/./g.json"}) {
    RunResult r = run_light("link --method distance --words " + q(g) + " -o " + q(out));
    expect_error(r, "(-o/--out): is the input --words");
    r = run_light("eval --gt " + q(g) + " --pred " + q(kPred) + " --task det --per-image " + q(out));
    expect_error(r, "(--per-image): is the input --gt");
  }
  const RunResult r = run_light("eval --gt " + q(kGt) + " --pred " + q(g) + " --task det --per-image " + q(dir + "/hard.json"));
  expect_error(r, "(--per-image): is the input --pred");
  EXPECT_EQ(read_text(g), text);
  EXPECT_TRUE(fs::is_symlink(dir + "/soft.json"));
  fs::remove_all(dir);
}

TEST(FileWrite, ReplacesWholeKeepsTheModeAndWritesThroughLinksAndPipes) {
  const std::string dir = temp_dir();
  const std::string a = dir + "/a.json";
  write_text(a, "old");
  ::chmod(a.c_str(), 0640);
  light::write_file_atomic(a, "new");
  EXPECT_EQ(read_text(a), "new");
  struct stat st {};
  ::stat(a.c_str(), &st);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  // A symbolic link stays a link; its target gets the content (relative links too, and dangling ones).
  fs::create_directory(dir + "/sub");
  fs::create_symlink("../a.json", dir + "/sub/link.json");
  light::write_file_atomic(dir + "/sub/link.json", "through the link");
  EXPECT_TRUE(fs::is_symlink(dir + "/sub/link.json"));
  EXPECT_EQ(read_text(a), "through the link");
  fs::create_symlink("made.json", dir + "/dangling.json");
  light::write_file_atomic(dir + "/dangling.json", "made");
  EXPECT_TRUE(fs::is_symlink(dir + "/dangling.json"));
  EXPECT_EQ(read_text(dir + "/made.json"), "made");
  // A FIFO is written into, not replaced.
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = read_text(fifo); });
  light::write_file_atomic(fifo, "into the pipe");
  reader.join();
  EXPECT_EQ(got, "into the pipe");
  ::lstat(fifo.c_str(), &st);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  // Devices stay devices: /dev/null takes the content, /dev/full reports that it is full.
  light::write_file_atomic("/dev/null", "gone");
  EXPECT_THROW(light::write_file_atomic("/dev/full", "no room"), light::Error);
  for (const char* dev : {"/dev/null", "/dev/full"}) {
    ASSERT_EQ(::lstat(dev, &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << dev;
  }
  // A folder is not a file; and nothing temporary is left anywhere.
  EXPECT_THROW(light::write_file_atomic(dir + "/sub", "x"), light::Error);
  for (const auto& e : fs::recursive_directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
  fs::remove_all(dir);
}

TEST(FileWrite, ASignalDuringAWriteLeavesTheFileAndNoTemporaryOne) {
  for (const bool named : {false, true}) {
    const std::string dir = temp_dir();
    const std::string a = dir + "/out.json";
    write_text(a, "old");
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      light::detail::force_named_temp = named;
      light::detail::after_temp_written = [](const std::string&) { ::raise(SIGTERM); };
      light::write_file_atomic(a, std::string(1 << 20, 'x'));
      ::_exit(0);  // not reached: SIGTERM ends the child
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << (named ? "named" : "unnamed");
    EXPECT_EQ(read_text(a), "old");
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    EXPECT_EQ(names, std::vector<std::string>{"out.json"}) << (named ? "named" : "unnamed");
    fs::remove_all(dir);
  }
}

// ---------------------------------------------------------------------------------------------
// Crashes and hangs
// ---------------------------------------------------------------------------------------------

TEST(Robustness, DeepNestingHugeNumbersAndRepeatedKeysAreClearErrors) {
  const std::string dir = temp_dir();
  const std::string text = read_text(kGt);
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto with = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto p = t.find(from);
    EXPECT_NE(p, std::string::npos) << from;
    return t.replace(p, from.size(), to);
  };
  const std::vector<std::pair<std::string, std::string>> cases{
      {with("\"truncated\": false", "\"truncated\": false, \"score\": " + deep), "image entry 0: JSON nested deeper than 256 levels"},
      {"[" + deep + "]", "image entry 0: JSON nested deeper than 256 levels"},
      {with("139.0", "1e309"), "image entry 0: a number out of range"},
      {with("139.0", "1" + std::string(400, '0')), "image entry 0: a number out of range"},
      {with("\"image\": \"sample", "\"image\": \"x.png\", \"image\": \"sample"), "image entry 0: duplicate key \"image\""},
      {with("\"text\": ", "\"text\": \"a\", \"text\": "), "image entry 0: duplicate key \"text\""},
  };
  const std::string f = dir + "/in.json";
  for (const auto& [json, message] : cases) {
    write_text(f, json);
    expect_error(run_light("eval --gt " + q(f) + " --pred " + q(kPred) + " --task det"), f + ": " + message);
    expect_error(run_light("link --method distance --words " + q(f) + " -o " + q(dir + "/out.json")), f + ": " + message);
    EXPECT_FALSE(file_exists(dir + "/out.json"));
  }
  fs::remove_all(dir);
}

TEST(Robustness, GtRegexRunsInLinearTimeWithPythonsMatchSemantics) {
  const std::string dir = temp_dir();
  const std::string key(200000, 'a');
  const std::string tile = "[{\"image\": \"" + key + "\", \"groups\": [[{\"vertices\": [[0,0],[10,0],[10,5]], \"text\": \"x\", "
                           "\"illegible\": false, \"truncated\": false}]]}]";
  write_text(dir + "/g.json", tile);
  RunResult r = run_light("eval --gt " + q(dir + "/g.json") + " --pred " + q(dir + "/g.json") + " --task det --gt-regex 'a*'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"fscore\": 1.0"), std::string::npos) << r.out;
  write_text(dir + "/g30.json", "[{\"image\": \"" + std::string(30, 'a') + "\", \"groups\": []}]");
  r = run_light("eval --gt " + q(dir + "/g30.json") + " --pred " + q(dir + "/g30.json") + " --task det --gt-regex '(a*)*b'");
  expect_error(r, "no ground-truth images to evaluate (after --gt-regex)");
  // re.match: anchored at the start, not at the end.
  r = run_light("eval --gt " + q(dir + "/g30.json") + " --pred " + q(dir + "/g30.json") + " --task det --gt-regex 'aa'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_light("eval --gt " + q(dir + "/g30.json") + " --pred " + q(dir + "/g30.json") + " --task det --gt-regex 'b|(a'");
  expect_error(r, "--gt-regex: invalid regular expression");
  fs::remove_all(dir);
}

TEST(Robustness, BadModelConfigsNameTheFileAndTheField) {
  const std::string dir = temp_dir();
  const std::string fixture = std::string(LIGHT_FIXTURES_DIR) + "/model";
  const std::string base = read_text(fixture + "/config.json");
  write_byte_level_tokenizer(dir + "/tok");
  struct Case {
    std::string from, to, message;
  };
  const std::vector<Case> cases{
      {"\"num_attention_heads\": 4,\n  \"intermediate_size\": 128", "\"num_attention_heads\": 0,\n  \"intermediate_size\": 128",
       "layoutlmv3.num_attention_heads: expected a positive integer"},
      {"\"num_attention_heads\": 4,\n  \"intermediate_size\": 128", "\"num_attention_heads\": 3,\n  \"intermediate_size\": 128",
       "layoutlmv3.num_attention_heads: expected a divisor of hidden_size (64), got 3"},
      {"\"max_position_embeddings\": 1024", "\"max_position_embeddings\": -5", "layoutlmv3.max_position_embeddings"},
      {"\"num_coords\": 32", "\"num_coords\": -32", "poly_encoder.num_coords"},
      {"\"patch_size\": 16", "\"patch_size\": 0", "layoutlmv3.patch_size"},
      {"\"patch_size\": 16", "\"patch_size\": 17", "layoutlmv3.patch_size: expected a divisor of input_size (224), got 17"},
      {"\"rel_pos_bins\": 32", "\"rel_pos_bins\": 0", "layoutlmv3.rel_pos_bins"},
      {"\"layer_norm_eps\": 1e-05", "\"layer_norm_eps\": 0", "layoutlmv3.layer_norm_eps"},
      {"\"input_size\": 224", "\"input_size\": 4294967296", "layoutlmv3.input_size: 4294967296 is out of range"},
  };
  for (const Case& c : cases) {
    std::string text = base;
    const auto p = text.find(c.from);
    ASSERT_NE(p, std::string::npos) << c.from;
    text.replace(p, c.from.size(), c.to);
    const std::string model = dir + "/model";
    fs::remove_all(model);
    fs::create_directories(model);
    write_text(model + "/config.json", text);
    fs::copy_file(fixture + "/model.safetensors", model + "/model.safetensors");
    expect_error(run_light("link --model " + q(model) + " --tokenizer " + q(dir + "/tok") + " --images " + q(dir) + " --words " + q(kGt) +
                           " -o " + q(dir + "/out.json")),
                 model + "/config.json: " + c.message);
    expect_error(run_light("train --train " + q(kGt) + " --train-images " + q(dir) + " --val " + q(kGt) + " --val-images " + q(dir) +
                           " --tokenizer bytes --config " + q(model + "/config.json") + " --out " + q(dir + "/run") + " -q"),
                 c.message);
    EXPECT_FALSE(file_exists(dir + "/out.json"));
  }
  EXPECT_FALSE(file_exists(dir + "/run")) << "a failed setup left its run folder";
  fs::remove_all(dir);
}

TEST(Robustness, BadOptionsAreClearErrorsAndWriteNothing) {
  const std::string dir = temp_dir();
  const std::string syn = synth_set(dir), run = dir + "/run", T = train_args(syn) + " --out " + q(run);
  const std::vector<std::pair<std::string, std::string>> cases{
      {T + " --lr nan", "--lr: expected a number from 0 to 1, got nan"},
      {T + " --lr -1", "--lr: expected"},
      {T + " --lr inf", "--lr: expected"},
      {T + " --lr 1e30", "--lr: expected"},
      {T + " --weight-decay nan", "--weight-decay: expected"},
      {T + " --max-epochs -1", "--max-epochs: expected at least 1"},
      {T + " --batch-size 0", "--batch-size: expected at least 1, got 0"},
      {T + " --batch-size -3", "--batch-size: expected at least 1, got -3"},
      {T + " --max-length 0", "--max-length: expected 3 to 1022 tokens"},
      {T + " --max-length 2000", "--max-length: expected 3 to 1022 tokens"},
      {T + " --max-length 2000000000", "--max-length: expected 3 to 1022 tokens"},
      {"pretrain-poly --data " + q(syn + "/annotations.json") + " --images " + q(syn) + " --out " + q(run) + " --lr nan -q", "--lr: expected"},
      {"pretrain-poly --data " + q(syn + "/annotations.json") + " --images " + q(syn) + " --out " + q(run) + " --loss-weights angle=nan -q",
       "--loss-weights: \"angle\": expected a finite number >= 0, got \"nan\""},
      {"eval --gt " + q(kGt) + " --pred " + q(kPred) + " --task det --iou-threshold nan", "--iou-threshold: expected a number in [0, 1)"},
      {"eval --gt " + q(kGt) + " --pred " + q(kPred) + " --task det --iou-threshold 2", "--iou-threshold: expected a number in [0, 1)"},
      {"eval --gt " + q(kGt) + " --pred " + q(kPred) + " --task det --iou-threshold -1", "--iou-threshold: expected a number in [0, 1)"},
      {"link --method mst --weights nan,1,1 --words " + q(kGt) + " -o " + q(run + ".json"), "--weights: expected three numbers"},
  };
  for (const auto& [args, message] : cases) {
    expect_error(run_light(args), message);
    EXPECT_FALSE(file_exists(run)) << args;
    EXPECT_FALSE(file_exists(run + ".json")) << args;
  }
  fs::remove_all(dir);
}

TEST(Robustness, ImagesClaimingTooManyPixelsAreRefusedBeforeDecoding) {
  const std::string dir = temp_dir();
  // A PNG signature and an IHDR chunk claiming 100000 x 100000 pixels, then nothing.
  std::string png = "\x89PNG\r\n\x1a\n";
  png += std::string("\0\0\0\x0dIHDR", 8);
  png += std::string("\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x02\x00\x00\x00", 13);
  png += std::string(4, '\0');
  write_text(dir + "/huge.png", png);
  try {
    light::image::image_size(dir + "/huge.png");
    ADD_FAILURE() << "no error";
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("claims 100000 x 100000 pixels"), std::string::npos) << e.what();
  }
  EXPECT_THROW(light::image::read_rgb(dir + "/huge.png"), light::Error);
  EXPECT_THROW(light::image::decode_rgb(png, "huge.png"), light::Error);
  write_text(dir + "/g.json", "[{\"image\": \"huge.png\", \"groups\": [[{\"vertices\": [[0,0],[10,0],[10,5]]}]]}]");
  const RunResult r = run_light("draw --words " + q(dir + "/g.json") + " --images " + q(dir) + " --out " + q(dir + "/drawn"));
  expect_error(r, dir + "/huge.png: cannot read the image");
  fs::remove_all(dir);
}

TEST(Robustness, OnlyMapImageFormatsReachTheDecoders) {
  // Found by fuzz_png: not quite a PNG signature, "DICM" at byte 128. OpenCV handed it to Debian's
  // DICOM decoder (GDCM), which aborted the process on an assertion.
  const std::string hostile = read_text(source_path("tests/data/hostile/dicom-marker.png"));
  try {
    light::image::decode_rgb(hostile, "dicom-marker.png");
    ADD_FAILURE() << "decoded";
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("dicom-marker.png: cannot read the image: not a PNG, JPEG, TIFF, BMP, WebP or JPEG 2000 file"),
              std::string::npos)
        << e.what();
  }
  const std::string dir = temp_dir();
  write_text(dir + "/t.png", hostile);
  write_text(dir + "/g.json", "[{\"image\": \"t.png\", \"groups\": [[{\"vertices\": [[0,0],[10,0],[10,5]]}]]}]");
  expect_error(run_light("draw --words " + q(dir + "/g.json") + " --images " + q(dir) + " --out " + q(dir + "/drawn")),
               dir + "/t.png: cannot read the image: not a PNG");
  EXPECT_THROW(light::image::read_rgb(dir + "/t.png"), light::Error);
  // The formats maps come in still decode.
  const auto png = light::image::decode_rgb(read_text(source_path("fuzz/corpus/png/rgb8x8")), "rgb8x8.png");
  EXPECT_EQ(png.width, 8);
  fs::remove_all(dir);
}

TEST(Robustness, AJpeg2000SignatureDoesNotCarryADicomMarkToItsDecoder) {
  // Found by fuzz_png: a JPEG 2000 signature, then "DICM" at byte 128. OpenCV asks its DICOM decoder
  // before its JPEG 2000 ones, and GDCM aborted the process.
  const std::string hostile = read_text(source_path("tests/data/hostile/dicom-marker-after-jp2.jp2"));
  ASSERT_EQ(hostile.compare(0, 8, std::string("\0\0\0\x0cjP  ", 8)), 0);
  ASSERT_EQ(hostile.compare(128, 4, "DICM"), 0);
  try {
    light::image::decode_rgb(hostile, "m.jp2");
    ADD_FAILURE() << "decoded";
  } catch (const light::Error& e) {
    EXPECT_NE(std::string(e.what()).find("m.jp2: cannot read the image: bytes 128-131 read \"DICM\""), std::string::npos) << e.what();
  }
  const std::string dir = temp_dir();
  write_text(dir + "/t.jp2", hostile);
  EXPECT_THROW(light::image::read_rgb(dir + "/t.jp2"), light::Error);
  write_text(dir + "/g.json", "[{\"image\": \"t.jp2\", \"groups\": [[{\"vertices\": [[0,0],[10,0],[10,5]]}]]}]");
  expect_error(run_light("draw --words " + q(dir + "/g.json") + " --images " + q(dir) + " --out " + q(dir + "/drawn")),
               dir + "/t.jp2: cannot read the image: bytes 128-131");
  fs::remove_all(dir);
}

TEST(Robustness, SafetensorsShapesWhoseBytesOverflowAreRefused) {
  auto file = [](const std::string& header) {
    std::string bytes(8, '\0');
    uint64_t n = header.size();
    for (int k = 0; k < 8; ++k) bytes[k] = static_cast<char>((n >> (8 * k)) & 0xff);
    return bytes + header + std::string(64, '\0');
  };
  const std::vector<std::pair<std::string, std::string>> cases{
      {R"({"t": {"dtype": "F32", "shape": [4611686018427387968], "data_offsets": [0, 0]}})", "needs more than 2^64 bytes"},
      {R"({"t": {"dtype": "F32", "shape": [1099511627776, 1099511627776], "data_offsets": [0, 0]}})", "needs more than 2^64 bytes"},
      {R"({"t": {"dtype": "F32", "shape": [18446744073709551615], "data_offsets": [0, 0]}})", "bad shape"},
      {R"({"t": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}})", "bad shape"},
      {R"({"t": {"dtype": "F32", "shape": [2], "data_offsets": [0, 4]}})", "need 8 bytes, data_offsets give 4"},
      {R"({"t": 1, "t": 2})", "duplicate key"},
  };
  for (const auto& [header, message] : cases) {
    try {
      light::io::SafeTensorsFile f("x.safetensors", file(header));
      ADD_FAILURE() << header;
    } catch (const light::Error& e) {
      EXPECT_NE(std::string(e.what()).find("x.safetensors: "), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
  const light::io::SafeTensorsFile ok("x.safetensors", file(R"({"t": {"dtype": "F32", "shape": [2, 8], "data_offsets": [0, 64]}})"));
  EXPECT_EQ(ok.at("t").numel(), 16);
}

TEST(Robustness, TokenizerIdsOutsideAnEmbeddingTableAreRefused) {
  EXPECT_THROW(light::text::BpeTokenizer::from_vocab_merges_text(R"({"a": -1})", "#version: 0.2\n", "vocab.json", "merges.txt"),
               light::Error);
  EXPECT_THROW(light::text::BpeTokenizer::from_vocab_merges_text(R"({"a": 99999999999})", "#version: 0.2\n", "vocab.json", "merges.txt"),
               light::Error);
  EXPECT_THROW(light::text::BpeTokenizer::from_tokenizer_json_text(R"({"model": {"vocab": {"a": 0}, "merges": 5}})", "t.json"), light::Error);
  EXPECT_THROW(light::text::BpeTokenizer::from_tokenizer_json_text(
                   R"({"model": {"vocab": {"a": 0}, "merges": []}, "added_tokens": [{"content": 3, "id": 1}]})", "t.json"),
               light::Error);
  const auto t = light::text::BpeTokenizer::byte_level();
  EXPECT_EQ(t.token_id("<mask>"), 259);
}

// ---------------------------------------------------------------------------------------------
// Memory in proportion to the pairs that matter
// ---------------------------------------------------------------------------------------------

TEST(Eval, MatchingOnlyTheTouchingPairsGivesTheFullMatrixsNumbers) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  for (int round = 0; round < 12; ++round) {
    light::maptext::Tile gt, pred;
    gt.image = pred.image = "t.png";
    // Words in lines, crossing each other; predictions jittered, missing, re-read and doubled (a
    // second, slightly shifted copy). Exact ties (two identical copies) may be resolved differently:
    // any of the equally good matchings is the evaluator's answer then.
    for (int g = 0; g < 30; ++g) {
      light::maptext::Group group;
      const double x = u(rng) * 400, y = u(rng) * 400;
      const int n = 1 + static_cast<int>(u(rng) * 4);
      for (int k = 0; k < n; ++k) group.push_back(sized_word(x + 35 * k, y, 30, 10, "w" + std::to_string(k)));
      gt.groups.push_back(group);
      light::maptext::Group p;
      for (const auto& w : group) {
        if (u(rng) < 0.1) continue;
        auto v = w;
        for (auto& pt : v.vertices) pt.x += (u(rng) - 0.5) * 8, pt.y += (u(rng) - 0.5) * 4;
        if (u(rng) < 0.3) v.text = "other";
        p.push_back(v);
        if (u(rng) < 0.1) {
          auto c = w;
          for (auto& pt : c.vertices) pt.x += u(rng) * 3, pt.y += u(rng);
          p.push_back(c);
        }
      }
      if (!p.empty()) pred.groups.push_back(p);
    }
    gt.groups[0][0].illegible = true;
    for (const auto task : {light::eval::Task::DetRecEdges, light::eval::Task::DetEdges}) {
      light::eval::Options dense, sparse;
      dense.task = sparse.task = task;
      dense.threads = sparse.threads = 1;
      sparse.dense_pairs = 0;
      const auto a = light::eval::evaluate({gt}, {pred}, dense), b = light::eval::evaluate({gt}, {pred}, sparse);
      EXPECT_EQ(a.overall, b.overall) << "round " << round;
      EXPECT_EQ(a.warnings, b.warnings);
    }
  }
}

TEST(Baselines, DistanceLinksCutInBoundedMemoryEqualTheFullCut) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  for (int round = 0; round < 40; ++round) {
    std::vector<light::maptext::Word> words;
    const int n = 2 + static_cast<int>(u(rng) * 60);
    for (int k = 0; k < n; ++k) {
      const bool pile = u(rng) < 0.3;  // piles give many links of equal cost
      words.push_back(sized_word(pile ? 50 : u(rng) * 300, pile ? 50 : u(rng) * 120, 20 + u(rng) * 30, 8 + u(rng) * 6,
                               std::string(1 + static_cast<int>(u(rng) * 6), 'a')));
    }
    std::vector<light::baselines::WordFeatures> f;
    for (const auto& w : words) f.push_back(light::baselines::word_features(w.vertices, *w.text));
    std::vector<light::baselines::Edge> full = light::baselines::distance_edges(f);
    light::baselines::cut_to_degree_two(n, full);
    const auto bounded = light::baselines::distance_edges_cut_to_degree_two(f);
    ASSERT_EQ(full.size(), bounded.size()) << "round " << round;
    for (size_t k = 0; k < full.size(); ++k) {
      EXPECT_EQ(full[k].u, bounded[k].u);
      EXPECT_EQ(full[k].v, bounded[k].v);
      EXPECT_EQ(full[k].cost, bounded[k].cost);
    }
  }
}

namespace {
// Runs `work` in a child process limited to `bytes` of address space; true when it finished cleanly.
bool runs_within(size_t bytes, const std::function<void()>& work) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    rlimit lim{bytes, bytes};
    ::setrlimit(RLIMIT_AS, &lim);
    try {
      work();
    } catch (...) {
      ::_exit(2);
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
}  // namespace

TEST(Robustness, FiftyThousandWordsAreEvaluatedAndLinkedWithinTwoGigabytes) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space for its shadow: a 2 GB cap cannot apply";
#endif
  light::maptext::Tile gt, pred;
  gt.image = pred.image = "big.png";
  for (int k = 0; k < 50000; ++k) {
    const double x = (k % 250) * 40.0, y = (k / 250) * 16.0;
    gt.groups.push_back({sized_word(x, y, 32, 10, "w")});
    pred.groups.push_back({sized_word(x + 1, y + 0.5, 32, 10, "w")});
  }
  constexpr size_t kTwoGigabytes = size_t{2} << 30;
  EXPECT_TRUE(runs_within(kTwoGigabytes, [&] {
    light::eval::Options opt;
    opt.task = light::eval::Task::DetEdges;
    opt.threads = 1;
    const auto report = light::eval::evaluate({gt}, {pred}, opt);
    if (report.overall[0].second != 1.0) ::_exit(3);  // every word found again
  }));
  EXPECT_TRUE(runs_within(kTwoGigabytes, [&] {
    light::link::HeuristicOptions opt;
    opt.method = light::baselines::Method::Distance;
    opt.threads = 1;
    light::link::link_heuristic({gt}, opt);
  }));
  // 20,000 words piled on one spot: 2·10^8 links before the cut.
  light::maptext::Tile pile;
  pile.image = "pile.png";
  for (int k = 0; k < 20000; ++k) pile.groups.push_back({sized_word(10 + (k % 7), 10 + (k % 5), 30, 10, "pile")});
  EXPECT_TRUE(runs_within(kTwoGigabytes, [&] {
    light::link::HeuristicOptions opt;
    opt.method = light::baselines::Method::Distance;
    opt.threads = 1;
    const auto linked = light::link::link_heuristic({pile}, opt);
    if (linked[0].word_count() != 20000) ::_exit(3);
  }));
}

// ---------------------------------------------------------------------------------------------
// Model inputs, checkpoints and run states
// ---------------------------------------------------------------------------------------------

TEST(Robustness, ForwardChecksEveryInputTensorAgainstTheModel) {
  const std::string dir = temp_dir();
  const std::string model = std::string(LIGHT_FIXTURES_DIR) + "/model";
  using light::io::Tensor;
  // One valid tile of 6 tokens (2 words), padded to 8; then one thing wrong at a time.
  auto tile = [&](const std::function<void(std::map<std::string, Tensor>&)>& spoil) {
    std::map<std::string, Tensor> t;
    t["t.input_ids"] = Tensor::i64({8}, {0, 10, 11, 12, 13, 2, 1, 1});
    t["t.attention_mask"] = Tensor::i64({8}, {1, 1, 1, 1, 1, 1, 0, 0});
    std::vector<int64_t> boxes;
    for (int k = 0; k < 8; ++k) boxes.insert(boxes.end(), {10, 10, 100, 40});
    t["t.bbox"] = Tensor::i64({8, 4}, boxes);
    t["t.polygons"] = Tensor::f32({8, 32}, std::vector<float>(8 * 32, 0.1f));
    t["t.pixel_values"] = Tensor::f32({3, 224, 224}, std::vector<float>(3 * 224 * 224, 0.0f));
    t["t.first_token_indices"] = Tensor::i64({8}, {1, 3, -999, -999, -999, -999, -999, -999});
    t["t.labels"] = Tensor::i64({8}, {0, 10001, 0, 10002, 0, 0, 0, 0});
    spoil(t);
    light::io::write_safetensors(dir + "/in.safetensors", t);
    return run_light("forward --model " + q(model) + " --inputs " + q(dir + "/in.safetensors") + " --out " + q(dir + "/out.safetensors") +
                     " --threads 1");
  };
  RunResult r = tile([](auto&) {});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::filesystem::remove(dir + "/out.safetensors");
  const std::vector<std::pair<std::function<void(std::map<std::string, Tensor>&)>, std::string>> cases{
      {[](auto& t) { t["t.input_ids"] = Tensor::i64({8}, {0, 10, 11, 5000, 13, 2, 1, 1}); }, "\"t.input_ids\": id 5000 at 3 outside the vocabulary of 1000"},
      {[](auto& t) { t["t.input_ids"] = Tensor::i64({8}, {0, -4, 11, 12, 13, 2, 1, 1}); }, "\"t.input_ids\": id -4"},
      {[](auto& t) { t["t.attention_mask"] = Tensor::i64({8}, {0, 0, 0, 0, 0, 0, 0, 0}); }, "\"t.attention_mask\": no token attended"},
      {[](auto& t) { t["t.attention_mask"] = Tensor::i64({8}, {1, 0, 1, 0, 0, 0, 0, 0}); }, "\"t.attention_mask\": expected ones then zeros"},
      {[](auto& t) { t["t.first_token_indices"] = Tensor::i64({8}, {1, 7, -999, -999, -999, -999, -999, -999}); },
       "\"t.first_token_indices\": index 7 outside the 6 attended tokens"},
      {[](auto& t) { t["t.first_token_indices"] = Tensor::i64({8}, {1, -5, -999, -999, -999, -999, -999, -999}); }, "\"t.first_token_indices\": index -5"},
      {[](auto& t) {
         std::vector<int64_t> b(32, 10);
         b[4] = 2000;
         t["t.bbox"] = Tensor::i64({8, 4}, b);
       },
       "\"t.bbox\": box 1 [2000, 10, 10, 10] is not 0 <= x0 <= x1 <= 1023"},
      {[](auto& t) { t["t.pixel_values"] = Tensor::f32({3, 100, 100}, std::vector<float>(30000, 0.0f)); }, "\"t.pixel_values\": expected shape [3, 224, 224]"},
      {[](auto& t) { t["t.polygons"] = Tensor::f32({8, 4}, std::vector<float>(32, 0.0f)); }, "\"t.polygons\": expected shape [8, 32]"},
      {[](auto& t) { t["t.input_ids"] = Tensor::f32({8}, std::vector<float>(8, 1.0f)); }, "\"t.input_ids\": expected dtype I64, got F32"},
  };
  for (const auto& [spoil, message] : cases) {
    expect_error(tile(spoil), dir + "/in.safetensors: tensor " + message);
    EXPECT_FALSE(file_exists(dir + "/out.safetensors"));
  }
  fs::remove_all(dir);
}

TEST(Robustness, NonFiniteWeightsAndAWindowBeyondThePositionTableAreRefused) {
  const std::string dir = temp_dir();
  const std::string fixture = std::string(LIGHT_FIXTURES_DIR) + "/model";
  write_byte_level_tokenizer(dir + "/tok");
  const std::string link = "link --tokenizer " + q(dir + "/tok") + " --images " + q(dir) + " --words " + q(kGt) + " -o " + q(dir + "/out.json");
  expect_error(run_light(link + " --model " + q(fixture) + " --max-length 2000"), "--max-length: expected 3 to 1022 tokens");
  expect_error(run_light(link + " --model " + q(fixture) + " --max-length 2000000000"), "--max-length: expected 3 to 1022 tokens");
  // One NaN among the weights.
  fs::create_directories(dir + "/model");
  fs::copy_file(fixture + "/config.json", dir + "/model/config.json");
  {
    const light::io::SafeTensorsFile f(fixture + "/model.safetensors");
    std::map<std::string, light::io::Tensor> t;
    std::string spoilt;
    for (const auto& [name, v] : f.tensors()) {
      light::io::Tensor c{v.dtype, v.shape, std::vector<unsigned char>(v.data, v.data + v.nbytes)};
      if (spoilt.empty() && v.dtype == light::io::DType::F32 && v.nbytes >= 4) {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        std::memcpy(c.bytes.data(), &nan, 4);
        spoilt = name;
      }
      t[name] = c;
    }
    light::io::write_safetensors(dir + "/model/model.safetensors", t);
    expect_error(run_light(link + " --model " + q(dir + "/model")),
                 dir + "/model/model.safetensors: tensor \"" + spoilt + "\" holds NaN or infinite values");
  }
  EXPECT_FALSE(file_exists(dir + "/out.json"));
  fs::remove_all(dir);
}

TEST(Robustness, AResumeFromAnEditedStateIsRefusedAndChangesNothing) {
  const std::string dir = temp_dir();
  const std::string syn = synth_set(dir), run = dir + "/run";
  ASSERT_EQ(run_light(train_args(syn) + " --out " + q(run) + " --max-epochs 1").exit_code, 0);
  std::string state = read_text(run + "/last/state.json");
  const auto p = state.find("\"epoch\": 1");
  ASSERT_NE(p, std::string::npos) << state;
  write_text(run + "/last/state.json", state.replace(p, 10, "\"epoch\": -3"));
  const auto before = snapshot(run);
  expect_error(run_light("train --resume " + q(run) + " --max-epochs 2 -q --threads 1"),
               run + "/last/state.json: not a state this run can have written (epoch -3");
  EXPECT_EQ(snapshot(run), before);
  fs::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// The thread pool every per-tile stage uses
// ---------------------------------------------------------------------------------------------
#include <atomic>

#include "light/util/parallel.h"

TEST(ThreadPool, EveryItemRunsOnceAndTheFailureALoopWouldMeetFirstIsRethrown) {
  std::vector<std::atomic<int>> runs(1000);
  light::parallel_for(runs.size(), 4, [&](size_t k, int worker) {
    EXPECT_GE(worker, 0);
    EXPECT_LT(worker, 4);
    ++runs[k];
  });
  for (size_t k = 0; k < runs.size(); ++k) EXPECT_EQ(runs[k].load(), 1) << k;
  // Items 300 and 700 fail (700 may fail first on another thread): the error is item 300's, and
  // items claimed after a failure never start.
  std::atomic<int> started{0};
  try {
    light::parallel_for(1000, 4, [&](size_t k, int) {
      ++started;
      if (k == 700 || k == 300) throw light::Error("item " + std::to_string(k));
    });
    FAIL() << "no error";
  } catch (const light::Error& e) {
    EXPECT_STREQ(e.what(), "item 300");
  }
  EXPECT_LT(started.load(), 1000);
  int calls = 0;
  light::parallel_for(0, 0, [&](size_t, int) { ++calls; });
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(light::thread_count(8, 3), 3);
  EXPECT_EQ(light::thread_count(2, 0), 1);
}

// The public API's loaded models (include/light/light.h): Linker over link::ModelLinker, Spotter over
// spot::Spotter. Options translated, nothing else.
#include <utility>

#include "light/data/tile_image.h"
#include "light/image/resize.h"
#include "light/light.h"
#include "light/link/default_model.h"
#include "light/link/model_linking.h"
#include "light/model/cpu_allocator.h"
#include "light/model/decoding_settings.h"
#include "light/spot/spotter.h"
#include "light/spot/spotter_config.h"
#include "light/util/blas.h"
#include "light/util/fs.h"
#include "light/util/parallel.h"

namespace light {

namespace {
link::ModelLinkOptions model_link_options(const LinkByModelOptions& options) {
  link::ModelLinkOptions o;
  o.tokenizer_dir = options.tokenizer_dir;
  o.device = options.device;
  o.threads = checked_threads(options.threads);
  o.max_length = options.max_length;
  o.decoding = options.decoding;
  o.words_from = options.words_from;
  o.split_repeats = !options.keep_repeated_words;
  return o;
}

}  // namespace

std::vector<DecodingSettingInfo> decoding_settings() {
  std::vector<DecodingSettingInfo> out;
  for (const model::DecodingSetting& s : model::decoding_settings()) out.push_back({s.key, s.expected, s.help});
  return out;
}

namespace {
void add(LinkByModelReport* to, const link::ModelLinkReport& r) {
  if (!to) return;
  to->tiles += r.tiles, to->words += r.words, to->model_words += r.model_words;
  to->windowed_tiles += r.windowed_tiles, to->cycles_broken += r.cycles_broken, to->spotted_tiles += r.spotted_tiles;
}

// OpenBLAS's kernel, corrected once per process before the first model runs (util/blas.h: a program
// using liblight, or Python, cannot re-execute itself as `light` does).
// And LibTorch's large CPU blocks kept for reuse where malloc is glibc's (model/cpu_allocator.h).
void fast_blas_once() {
  static const std::string core = fix_blas_in_process();
  (void)core;
  model::keep_large_cpu_blocks();
}

std::string model_or_default(const std::string& model_dir) {
  if (!model_dir.empty()) return model_dir;
  return link::require_default_model(executable_dir(), "", "give a model folder, set LIGHT_MODEL, or link with a heuristic");
}
}  // namespace

struct Linker::Impl {
  std::string model_dir;
  link::ModelLinker linker;
  Impl(const std::string& dir, const LinkByModelOptions& options) : model_dir(dir), linker((fast_blas_once(), dir), model_link_options(options)) {}
};

Linker::Linker(const std::string& model_dir, const LinkByModelOptions& options)
    : impl_(std::make_unique<Impl>(model_or_default(model_dir), options)) {}
Linker::~Linker() = default;
Linker::Linker(Linker&&) noexcept = default;
Linker& Linker::operator=(Linker&&) noexcept = default;

const std::string& Linker::model_dir() const { return impl_->model_dir; }

maptext::Dataset Linker::link(const maptext::Dataset& words, const std::string& images_dir, LinkByModelReport* report) {
  maptext::Dataset out;
  for (const maptext::Tile& t : words) out.push_back(link_file(t, data::find_tile_image(images_dir, t.image), report));
  return out;
}

maptext::Tile Linker::link_file(const maptext::Tile& words, const std::string& image_path, LinkByModelReport* report) {
  link::ModelLinkReport r;
  maptext::Tile out = impl_->linker.link_file(words, image_path, r);
  add(report, r);
  return out;
}

maptext::Tile Linker::link_pixels(const maptext::Tile& words, Image image, LinkByModelReport* report) {
  if (image.width <= 0 || image.height <= 0 || image.rgb.size() != static_cast<size_t>(image.width) * image.height * 3)
    throw Error("image of tile \"" + words.image + "\": expected width x height x 3 bytes of RGB, got " + std::to_string(image.rgb.size()) +
                " bytes for " + std::to_string(image.width) + " x " + std::to_string(image.height));
  image::RgbImage im{image.width, image.height, std::move(image.rgb)};
  link::ModelLinkReport r;
  maptext::Tile out = impl_->linker.link(words, im, r);
  add(report, r);
  return out;
}

std::string default_spotter() { return spot::default_spotter_dir(); }

struct Spotter::Impl {
  spot::Spotter spotter;
  Impl(const std::string& dir, const SpotOptions& options) : spotter((fast_blas_once(), dir), runtime(options), spot_options(dir, options)) {}
  static model::PredictorOptions runtime(const SpotOptions& o) {
    model::PredictorOptions r;
    r.device = o.device;
    r.threads = checked_threads(o.threads);
    return r;
  }
  // The folder's own settings (its spotter.json), with what the caller set that differs from the
  // API's defaults.
  static spot::SpotOptions spot_options(const std::string& dir, const SpotOptions& o) {
    spot::SpotOptions s = spot::spotter_settings(dir);
    const SpotOptions api_default;
    if (o.alphabet != api_default.alphabet) s.alphabet = o.alphabet;
    if (o.min_score != api_default.min_score) s.min_score = o.min_score;
    if (o.scale != api_default.scale) s.scale = o.scale;
    if (o.upright) s.switch_off(spot::Stage::turned);
    if (o.small_lettering) s.read_small_lettering();
    return s;
  }
};

Spotter::Spotter(const std::string& spotter_dir, const SpotOptions& options)
    : impl_(std::make_unique<Impl>(spotter_dir.empty() ? spot::default_spotter_dir() : spotter_dir, options)) {}
Spotter::~Spotter() = default;
Spotter::Spotter(Spotter&&) noexcept = default;
Spotter& Spotter::operator=(Spotter&&) noexcept = default;

maptext::Tile Spotter::spot_pixels(Image image, const std::string& key) {
  if (image.width <= 0 || image.height <= 0 || image.rgb.size() != static_cast<size_t>(image.width) * image.height * 3)
    throw Error("image \"" + key + "\": expected width x height x 3 bytes of RGB, got " + std::to_string(image.rgb.size()) + " bytes for " +
                std::to_string(image.width) + " x " + std::to_string(image.height));
  image::RgbImage im{image.width, image.height, std::move(image.rgb)};
  return spot::spot_tile(impl_->spotter, im, key);
}

maptext::Dataset Spotter::spot(const std::string& images) {
  return spot::spot_images(impl_->spotter, spot::list_map_images(images), false);
}

}  // namespace light

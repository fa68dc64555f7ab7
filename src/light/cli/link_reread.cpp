// `light link --georef names`: the spotter's recogniser weighing the names a word may be on its pixels
// (geo/word_rereading.h; light-full only).
#include <limits>
#include <memory>

#include "light/cli/link_args.h"
#include "light/data/tile_image.h"
#include "light/error.h"
#include "light/image/resize.h"
#include "light/spot/spotter.h"
#include "light/spot/spotter_config.h"

namespace light::cli {

WordLikelihoodsFor reread_likelihoods(const LinkArgs& a) {
  struct State {
    std::unique_ptr<spot::Spotter> spotter;
    std::string image;
    std::shared_ptr<image::RgbImage> pixels;
  };
  auto state = std::make_shared<State>();
  return [a, state](const std::string& image) -> geo::WordLikelihoods {
    if (a.images.empty()) return {};
    std::string path;
    try {
      path = data::find_tile_image(a.images, image);
    } catch (const Error&) {
      return {};
    }
    if (!state->spotter) {
      const std::string dir = a.spotter.empty() ? spot::default_spotter_dir() : a.spotter;
      model::PredictorOptions runtime;
      runtime.threads = a.threads;
      runtime.device = a.device;
      state->spotter = std::make_unique<spot::Spotter>(dir, runtime, spot::spotter_settings(dir));
    }
    if (state->image != path) state->pixels = std::make_shared<image::RgbImage>(image::read_rgb(path)), state->image = path;
    return [state, pixels = state->pixels](const std::vector<maptext::Point>& polygon, const std::vector<std::string>& texts) {
      // A polygon the recogniser cannot straighten (a triangle, an odd count of points): not weighed.
      if (polygon.size() < 4 || polygon.size() % 2) return std::vector<double>(texts.size(), -std::numeric_limits<double>::infinity());
      return state->spotter->text_log_likelihoods(*pixels, polygon, texts);
    };
  };
}

}  // namespace light::cli

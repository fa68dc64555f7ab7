// Spotter-like and hand-box noise on training polygons (data/polygon_noise.h): each word moved in its
// own reading frame by the measured spreads, the same way for the same seed, not at all at sigma 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "light/data/polygon_noise.h"
#include "light/geometry/polygon.h"

using namespace light;

namespace {
// A 16-point band `length` long and `height` high from (x, y) along the direction of `degrees`:
// the lower edge from the start, then the upper edge back (image y down).
maptext::Word band(double x, double y, double length, double height, double degrees) {
  const double a = degrees * M_PI / 180, ux = std::cos(a), uy = std::sin(a), vx = uy, vy = -ux;  // v: up from the baseline
  maptext::Word w;
  for (int k = 0; k < 8; ++k) w.vertices.push_back({x + ux * length * k / 7, y + uy * length * k / 7});
  for (int k = 7; k >= 0; --k) w.vertices.push_back({x + ux * length * k / 7 + vx * height, y + uy * length * k / 7 + vy * height});
  w.text = "Word";
  return w;
}

maptext::Tile tile_of_bands(int n, double degrees) {
  maptext::Tile t;
  t.image = "t.png";
  for (int i = 0; i < n; ++i) t.groups.push_back({band(100 + (i % 40) * 300, 100 + (i / 40) * 100, 200, 20, degrees)});
  return t;
}

struct Spread {
  double log_height_sd = 0, log_length_sd = 0, across_sd = 0, along_sd = 0, turn_sd = 0;
};

double sd(const std::vector<double>& v) {
  double m = 0, s = 0;
  for (double x : v) m += x;
  m /= static_cast<double>(v.size());
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size()));
}

geometry::Point centre(const std::vector<maptext::Point>& v) {
  geometry::Point c{0, 0};
  for (const auto& p : v) c.x += p.x, c.y += p.y;
  return {c.x / static_cast<double>(v.size()), c.y / static_cast<double>(v.size())};
}

Spread spread(const maptext::Tile& before, const maptext::Tile& after) {
  std::vector<double> h, l, across, along, turn;
  for (size_t g = 0; g < before.groups.size(); ++g) {
    const auto& a = before.groups[g][0].vertices;
    const auto& b = after.groups[g][0].vertices;
    const auto fa = geometry::reading_frame(a), fb = geometry::reading_frame(b);
    const double la = std::hypot(fa.end.x - fa.start.x, fa.end.y - fa.start.y), lb = std::hypot(fb.end.x - fb.start.x, fb.end.y - fb.start.y);
    h.push_back(std::log(fb.height / fa.height));
    l.push_back(std::log(lb / la));
    const double ux = (fa.end.x - fa.start.x) / la, uy = (fa.end.y - fa.start.y) / la;
    const auto ca = centre(a), cb = centre(b);
    along.push_back(((cb.x - ca.x) * ux + (cb.y - ca.y) * uy) / fa.height);
    across.push_back(((cb.x - ca.x) * -uy + (cb.y - ca.y) * ux) / fa.height);
    const double t = std::atan2(fb.end.y - fb.start.y, fb.end.x - fb.start.x) - std::atan2(fa.end.y - fa.start.y, fa.end.x - fa.start.x);
    turn.push_back(std::remainder(t, 2 * M_PI) * 180 / M_PI);
  }
  return {sd(h), sd(l), sd(across), sd(along), sd(turn)};
}

// Every standard deviation of `noise`'s moves over 4,000 words read along each of three directions
// within 4 % of `want` (4,000 draws put them so).
template <typename Noise>
void expect_spread(Noise noise, const Spread& want) {
  for (double degrees : {0.0, 90.0, -35.0}) {
    const maptext::Tile before = tile_of_bands(4000, degrees);
    maptext::Tile after = before;
    noise(after);
    ASSERT_EQ(after.groups[0][0].vertices.size(), 16u);
    const Spread s = spread(before, after);
    EXPECT_NEAR(s.log_height_sd, want.log_height_sd, 0.04 * want.log_height_sd) << degrees;
    EXPECT_NEAR(s.log_length_sd, want.log_length_sd, 0.04 * want.log_length_sd) << degrees;
    EXPECT_NEAR(s.across_sd, want.across_sd, 0.04 * want.across_sd) << degrees;
    EXPECT_NEAR(s.along_sd, want.along_sd, 0.04 * want.along_sd) << degrees;
    EXPECT_NEAR(s.turn_sd, want.turn_sd, std::max(1e-9, 0.04 * want.turn_sd)) << degrees;
  }
}
}  // namespace

TEST(PolygonNoise, MovesWordsByTheSpreadsMeasuredOnTheSpottersWords) {
  // Height x exp(N(0, 0.15)), length x exp(N(0, 0.105)), centre N(0, 0.045) heights across, N(0, 0.12)
  // along, no turn.
  expect_spread([](maptext::Tile& t) { data::jitter_word_polygons(t, 0.15, 7); }, {0.15, 0.105, 0.045, 0.12, 0});
}

TEST(PolygonNoise, KeepsAWordsDirectionAndItsOutlinesOrder) {
  const maptext::Tile before = tile_of_bands(200, 30);
  maptext::Tile after = before;
  data::jitter_word_polygons(after, 0.3, 3);
  for (size_t g = 0; g < before.groups.size(); ++g) {
    const auto fb = geometry::reading_frame(after.groups[g][0].vertices);
    EXPECT_NEAR(std::atan2(fb.end.y - fb.start.y, fb.end.x - fb.start.x) * 180 / M_PI, 30, 1e-6);
    // Still the lower edge first, the upper edge back: a negative signed area in image coordinates.
    EXPECT_LT(geometry::signed_area(after.groups[g][0].vertices), 0);
  }
}

TEST(PolygonNoise, IsTheSameForTheSameSeedAndNoneAtSigmaZero) {
  const maptext::Tile before = tile_of_bands(50, 0);
  maptext::Tile a = before, b = before, c = before, zero = before;
  data::jitter_word_polygons(a, 0.15, 11);
  data::jitter_word_polygons(b, 0.15, 11);
  data::jitter_word_polygons(c, 0.15, 12);
  data::jitter_word_polygons(zero, 0, 11);
  for (size_t g = 0; g < before.groups.size(); ++g)
    for (size_t k = 0; k < 16; ++k) {
      EXPECT_EQ(a.groups[g][0].vertices[k].x, b.groups[g][0].vertices[k].x);
      EXPECT_EQ(a.groups[g][0].vertices[k].y, b.groups[g][0].vertices[k].y);
      EXPECT_EQ(zero.groups[g][0].vertices[k].x, before.groups[g][0].vertices[k].x);
      EXPECT_EQ(zero.groups[g][0].vertices[k].y, before.groups[g][0].vertices[k].y);
    }
  EXPECT_NE(a.groups[0][0].vertices[0].x, c.groups[0][0].vertices[0].x);
}

TEST(PolygonNoise, TurnsAndMovesWordsAsBoxesDrawnByHandSitOnTheirLettering) {
  // Turned by N(0, 2) degrees, height x exp(N(0, 0.08)), length x exp(N(0, 0.05)), centre N(0, 0.1)
  // heights across and along.
  expect_spread([](maptext::Tile& t) { data::jitter_word_polygons_by_hand(t, 1.0, 7); }, {0.08, 0.05, 0.1, 0.1, 2.0});
  const maptext::Tile before = tile_of_bands(50, 20);
  maptext::Tile none = before;
  data::jitter_word_polygons_by_hand(none, 0, 7);
  for (size_t g = 0; g < before.groups.size(); ++g)
    for (size_t k = 0; k < 16; ++k) EXPECT_EQ(none.groups[g][0].vertices[k].x, before.groups[g][0].vertices[k].x);
}

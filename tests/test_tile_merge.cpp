// A tiled spotter run put back on its map (data/tile_merge.h, `light link --merge-tiles`).
#include <gtest/gtest.h>

#include "light/data/tile_merge.h"
#include "light/error.h"
#include "test_util.h"

using namespace light;

using test::upright_word;

TEST(TileMerge, TilesMoveByTheirGridPlaceAndWordsInOverlapsAreKeptOnce) {
  // 1000-px tiles every 800 px (200 px of overlap). "Creek" lies in the overlap of tiles w0 and w1:
  // found whole by w0 (x 700-900 on the map) and cut by w1's left edge (x 800-900).
  maptext::Tile a, b, c, other;
  a.image = "5797073_h0_w0.png";
  a.groups = {{upright_word(100, 100, 300, 130, "Lodge")}, {upright_word(700, 100, 900, 130, "Creek")}};
  b.image = "5797073_h0_w1.png";
  b.groups = {{upright_word(0, 100, 100, 130, "eek")}, {upright_word(300, 100, 500, 130, "Pole")}};
  c.image = "5797073_h1_w0.png";
  c.groups = {{upright_word(100, 50, 300, 80, "DENVER")}};
  other.image = "loose-tile.png";
  other.groups = {{upright_word(1, 1, 5, 5, "x")}};
  data::TileMergeReport r;
  const maptext::Dataset maps = data::merge_tiles({b, other, a, c}, {800, 0.5}, &r);
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(maps[0].image, "5797073");  // the first-seen map (by its tile b)
  EXPECT_EQ(maps[1].image, "loose-tile.png");
  EXPECT_EQ(r.maps, 1u);
  EXPECT_EQ(r.tiles, 3u);
  EXPECT_EQ(r.duplicates, 1u);
  std::vector<std::string> texts;
  for (const auto& g : maps[0].groups) texts.push_back(*g[0].text);
  EXPECT_EQ(texts, (std::vector<std::string>{"Lodge", "Creek", "Pole", "DENVER"}));  // tiles in row, then column order
  EXPECT_DOUBLE_EQ(maps[0].groups[2][0].vertices[0].x, 1100);  // Pole: 300 + 800
  EXPECT_DOUBLE_EQ(maps[0].groups[3][0].vertices[0].y, 880);   // DENVER: 80 + 800
  // "eek" lies wholly inside "Creek": one word even when the whole smaller word must be covered.
  EXPECT_EQ(data::merge_tiles({a, b}, {800, 1.0}).at(0).groups.size(), 3u);
  EXPECT_THROW(data::merge_tiles({a}, {0, 0.5}), Error);
}

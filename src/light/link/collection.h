// A collection of maps for `light link --collection`: one job per map (its words file, optionally its
// image and georeferencing), from a folder of words files or a manifest, shared among machines by
// --shard K/N, each job's output named after it so that a killed run resumes where it stopped.
#pragma once
#include <string>
#include <vector>

namespace light::link {

struct MapJob {
  std::string name;    // the output's stem: the words file's stem, or the manifest's "name"
  std::string words;   // a words file (MapText, per-image annotations, GeoJSON)
  std::string image;   // the map image ("" = found in --images by the words' image keys)
  std::string georef;  // "" (the run's --georef), none, auto or a .points file
};

// A folder: every *.json and *.geojson file in it, one map each (sorted by name). A manifest: CSV with
// a header naming the columns words (required), image, georef and name (in any order), or JSON lines
// with those keys; relative paths are taken from the manifest's folder. Bad rows are a light::Error
// naming the manifest, the line and the column; two jobs with one name are refused.
std::vector<MapJob> read_collection(const std::string& path);

// "K/N" (1 <= K <= N): this machine's share of the jobs, those whose name hashes (FNV-1a) to K of N, so
// that a map keeps its shard when maps are added; light::Error naming
// --shard otherwise. "" = all.
std::vector<MapJob> shard(const std::vector<MapJob>& jobs, const std::string& spec);
// The same share of any named items (`light spot --shard`: a folder's images): the indices of the names
// in shard `spec`, in their order.
std::vector<size_t> shard_indices(const std::vector<std::string>& names, const std::string& spec);

}  // namespace light::link

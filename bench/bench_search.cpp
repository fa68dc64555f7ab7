// `light search` over a million phrases: building the trigram index, its size, mapping a saved index,
// and queries (a name as written, with two misread letters, a part of a phrase, and a short name the
// trigram filter cannot narrow, which scans every phrase). Phrases are place names of `light synth`'s
// gazetteer (GeoNames settlements and generated features: "Lodge Pole Cr.", "N. Platte R."), 1,000
// per map, each word a 4-point box. Sizes: LIGHT_SEARCH_PHRASES (default 1,000,000).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>

#include "bench_util.h"
#include "light/data/synth/names.h"
#include "light/search/normalize.h"
#include "light/search/phrase_index.h"
#include "light/util/utf8.h"

using namespace light;

namespace {

size_t phrase_count() {
  const char* v = std::getenv("LIGHT_SEARCH_PHRASES");
  return v ? std::strtoull(v, nullptr, 10) : 1000000;
}

const std::vector<search::Phrase>& phrases() {
  static const std::vector<search::Phrase> all = [] {
    const synth::Gazetteer gazetteer(synth::Gazetteer::default_path());
    std::mt19937_64 rng(17);
    const synth::NameKind kinds[] = {synth::NameKind::Settlement, synth::NameKind::River,    synth::NameKind::Creek,
                                     synth::NameKind::Lake,       synth::NameKind::Mountain, synth::NameKind::Railroad,
                                     synth::NameKind::County,     synth::NameKind::Settlement};
    std::vector<search::Phrase> out;
    const size_t n = phrase_count();
    out.reserve(n);
    for (size_t k = 0; k < n; ++k) {
      search::Phrase p;
      p.file = "maps/map" + std::to_string(k / 1000) + ".json";
      p.image = "map" + std::to_string(k / 1000) + ".tif";
      p.group = static_cast<uint32_t>(k % 1000);
      double x = static_cast<double>(k % 100) * 150;
      const synth::Name name = gazetteer.make(kinds[rng() % 8], rng);
      for (const auto& w : name.words) {
        p.words.push_back({w, {{x, 10}, {x + 60, 10}, {x + 60, 30}, {x, 30}}});
        x += 70;
      }
      out.push_back(std::move(p));
    }
    return out;
  }();
  return all;
}

const search::PhraseIndex& index() {
  static const search::PhraseIndex built(phrases());
  return built;
}

void BM_BuildIndex(benchmark::State& state) {
  const auto& all = phrases();
  size_t bytes = 0;
  for (auto _ : state) bytes = search::PhraseIndex(all).bytes();
  state.counters["phrases"] = static_cast<double>(all.size());
  state.counters["index_MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["peak_rss_MiB"] = bench::peak_rss_mib();
}
BENCHMARK(BM_BuildIndex)->Unit(benchmark::kSecond)->Iterations(1);

void BM_OpenSavedIndex(benchmark::State& state) {
  const std::string path = (std::filesystem::temp_directory_path() / "light-bench-search.index").string();
  index().save(path);
  for (auto _ : state) {
    const search::PhraseIndex opened = search::PhraseIndex::open(path);
    benchmark::DoNotOptimize(opened.size());
  }
  std::filesystem::remove(path);
}
BENCHMARK(BM_OpenSavedIndex)->Unit(benchmark::kMillisecond);

// Queries: the phrases at a fixed stride, as written, with two letters changed, or their first word.
void query(benchmark::State& state, int kind) {
  const auto& idx = index();
  const auto& all = phrases();
  std::vector<std::string> queries;
  for (size_t k = 7; k < all.size() && queries.size() < 200; k += all.size() / 200 + 1) {
    std::string q = all[k].text();
    if (kind == 1) {  // two letters misread (of the normalised text: "Cr." is "creek" there)
      std::u32string u = utf8_decode(search::normalize(q));
      for (size_t at : {size_t{1}, u.size() - 2})
        if (u.size() >= 4 && u[at] != U' ') u[at] = u[at] == U'q' ? U'z' : U'q';
      q = utf8_encode(u);
    }
    if (kind == 2) q = all[k].words[0].text;
    queries.push_back(q);
  }
  size_t i = 0, found = 0, candidates = 0;
  search::FindOptions o;
  o.max_edits = kind == 1 ? 2 : -1;
  for (auto _ : state) {
    found += !idx.find(queries[i % queries.size()], o).empty();
    candidates += idx.last_candidates();
    ++i;
  }
  state.counters["found_%"] = 100.0 * static_cast<double>(found) / static_cast<double>(i);
  state.counters["candidates"] = static_cast<double>(candidates) / static_cast<double>(i);
}
void BM_QueryExact(benchmark::State& state) { query(state, 0); }
void BM_QueryTwoErrors(benchmark::State& state) { query(state, 1); }
void BM_QueryFirstWord(benchmark::State& state) { query(state, 2); }
BENCHMARK(BM_QueryExact)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_QueryTwoErrors)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_QueryFirstWord)->Unit(benchmark::kMillisecond);

// A short name ("Elk", 3 letters) with 1 edit allowed: too short for the trigram filter, every phrase
// is compared.
void BM_QueryShortScan(benchmark::State& state) {
  const auto& idx = index();
  search::FindOptions o;
  o.max_edits = 1;
  for (auto _ : state) benchmark::DoNotOptimize(idx.find("Elk", o));
  state.counters["candidates"] = static_cast<double>(idx.last_candidates());
}
BENCHMARK(BM_QueryShortScan)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

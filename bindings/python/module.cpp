// light._light: the public API (include/light/light.h) for Python, through pybind11. MapText crosses
// as JSON text, which light/__init__.py turns into lists of dicts and back, so that data from Python
// is validated by the same reader, with the same messages, as files given to the `light` command.
// Every call that computes releases the GIL; light::Error is raised as light.Error (a ValueError).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <light/light.h>

#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
using light::maptext::Dataset;
using light::maptext::Kind;

namespace {

Dataset parse(const std::string& text, const std::string& source, Kind kind = Kind::Predictions, bool require_text = false) {
  return light::maptext::parse_maptext(text, source, {kind, require_text});
}

Kind parse_kind(const std::string& kind) {
  if (kind == "predictions") return Kind::Predictions;
  if (kind == "ground_truth") return Kind::GroundTruth;
  throw light::Error("kind: expected \"predictions\" or \"ground_truth\", got \"" + kind + "\"");
}

// Words to link, as `light link --words` reads a file: MapText, per-image annotations or GeoJSON.
Dataset parse_words(const std::string& text, const std::string& source) {
  return light::parse_words(text, source);
}

// An (H, W, 3) uint8 array (C order after forcecast) as an Image.
light::Image image_of(const py::array_t<uint8_t, py::array::c_style | py::array::forcecast>& a, const std::string& name) {
  if (a.ndim() != 3 || a.shape(2) != 3)
    throw light::Error(name + ": expected an image array of shape (height, width, 3), RGB, got " + std::to_string(a.ndim()) + " dimensions");
  light::Image im;
  im.height = static_cast<int>(a.shape(0));
  im.width = static_cast<int>(a.shape(1));
  im.rgb.assign(a.data(), a.data() + a.size());  // one pass (no zero-fill first)
  return im;
}

std::string tile_text(const light::maptext::Tile& tile) { return light::maptext::to_json_text({tile}); }

light::maptext::Tile one_tile(const std::string& text, const std::string& source) {
  Dataset d = parse_words(text, source);
  if (d.size() != 1) throw light::Error(source + ": expected the words of one image, got " + std::to_string(d.size()));
  return std::move(d[0]);
}

py::dict report_dict(const light::LinkByModelReport& r) {
  py::dict d;
  d["tiles"] = r.tiles, d["words"] = r.words, d["model_words"] = r.model_words;
  d["windowed_tiles"] = r.windowed_tiles, d["cycles_broken"] = r.cycles_broken, d["spotted_tiles"] = r.spotted_tiles;
  return d;
}

py::list matches_list(const std::vector<light::SearchMatch>& matches) {
  py::list out;
  for (const light::SearchMatch& m : matches) {
    py::list words;
    for (const light::maptext::Word& w : m.words) {
      py::list v;
      for (const auto& p : w.vertices) v.append(py::make_tuple(p.x, p.y));
      py::dict word;
      word["text"] = w.text.value_or("");
      word["vertices"] = v;
      words.append(word);
    }
    py::dict r;
    r["text"] = m.text, r["file"] = m.file, r["image"] = m.image, r["group"] = m.group, r["edits"] = m.edits;
    r["distance"] = m.distance, r["whole"] = m.whole, r["words"] = words;
    r["matched_words"] = py::make_tuple(m.first_word, m.last_word);
    if (m.lonlat) r["lonlat"] = py::make_tuple(m.lonlat->x, m.lonlat->y);
    out.append(r);
  }
  return out;
}

light::LinkByModelOptions link_options(const std::string& device, int threads, int max_length, const std::map<std::string, double>& decoding,
                                       bool keep_repeated_words, const std::string& tokenizer, const std::string& words_from) {
  light::LinkByModelOptions o;
  o.device = device, o.threads = threads, o.max_length = max_length, o.decoding = decoding;
  o.keep_repeated_words = keep_repeated_words;
  o.tokenizer_dir = tokenizer;
  o.words_from = words_from;
  return o;
}

}  // namespace

PYBIND11_MODULE(_light, m) {
  m.doc() = "light's C++ core (use the light package: import light)";
  py::register_exception<light::Error>(m, "Error", PyExc_ValueError);
  m.def("version", &light::version);
  m.def("default_model", &light::default_model);
  m.def("default_spotter", &light::default_spotter);

  m.def("read_image", [](const std::string& path) {
    light::Image im;
    {
      py::gil_scoped_release free;
      im = light::read_image(path);
    }
    py::array_t<uint8_t> a({im.height, im.width, 3});
    std::memcpy(a.mutable_data(), im.rgb.data(), im.rgb.size());
    return a;
  });
  m.def("validate", [](const std::string& text, const std::string& source, const std::string& kind, bool require_text) {
    const Kind k = parse_kind(kind);
    py::gil_scoped_release free;
    return light::maptext::to_json_text(parse(text, source, k, require_text));
  });
  m.def("read_maptext", [](const std::string& path, const std::string& kind, bool require_text) {
    const Kind k = parse_kind(kind);
    py::gil_scoped_release free;
    return light::maptext::to_json_text(light::maptext::read_maptext(path, {k, require_text}));
  });
  m.def("write_maptext", [](const std::string& path, const std::string& text, const std::string& source, const std::string& kind) {
    const Kind k = parse_kind(kind);
    py::gil_scoped_release free;
    light::maptext::write_maptext(path, parse(text, source, k));
  });
  m.def("read_words", [](const std::string& path) {
    std::vector<std::string> notes;
    std::string text;
    {
      py::gil_scoped_release free;
      text = light::maptext::to_json_text(light::read_words(path, &notes));
    }
    return py::make_tuple(text, notes);
  });
  m.def("parse_words", [](const std::string& text, const std::string& source) {
    py::gil_scoped_release free;
    return light::maptext::to_json_text(parse_words(text, source));
  });

  m.def("link_by_heuristic", [](const std::string& text, const std::string& source, const std::string& method, const std::string& order, int threads) {
    py::gil_scoped_release free;
    light::LinkByHeuristicOptions o;
    o.method = method, o.order = order, o.threads = threads;
    return light::maptext::to_json_text(light::link_by_heuristic(parse_words(text, source), o));
  });

  m.def("evaluate", [](const std::string& gt_text, const std::string& pred_text, const std::string& task, const std::string& protocol,
                       double iou_threshold, const std::string& gt_regex, int threads) {
    light::EvalResult r;
    {
      py::gil_scoped_release free;
      light::EvalOptions o;
      o.task = task, o.protocol = protocol, o.iou_threshold = iou_threshold, o.gt_regex = gt_regex, o.threads = threads;
      const Dataset gt = parse(gt_text, "gt", Kind::GroundTruth);
      const Dataset pred = parse(pred_text, "pred", Kind::Predictions, task.find("rec") != std::string::npos);
      r = light::evaluate(gt, pred, o);
    }
    return py::make_tuple(r.overall, r.warnings);
  });

  m.def("decoding_settings", [] {
    py::list out;
    for (const auto& s : light::decoding_settings()) out.append(py::make_tuple(s.key, s.expected, s.help));
    return out;
  });

  py::class_<light::Linker>(m, "Linker")
      .def(py::init([](const std::string& model_dir, const std::string& device, int threads, int max_length,
                       const std::map<std::string, double>& decoding, bool keep_repeated_words, const std::string& tokenizer,
                       const std::string& words_from) {
             const light::LinkByModelOptions o = link_options(device, threads, max_length, decoding, keep_repeated_words, tokenizer, words_from);
             py::gil_scoped_release free;
             return light::Linker(model_dir, o);
           }),
           py::arg("model_dir"), py::arg("device"), py::arg("threads"), py::arg("max_length"), py::arg("decoding"),
           py::arg("keep_repeated_words"), py::arg("tokenizer"), py::arg("words_from"))
      .def_property_readonly("model_dir", &light::Linker::model_dir)
      .def("link", [](light::Linker& l, const std::string& text, const std::string& source, const std::string& images_dir) {
        light::LinkByModelReport r;
        std::string out;
        {
          py::gil_scoped_release free;
          out = light::maptext::to_json_text(l.link(parse_words(text, source), images_dir, &r));
        }
        return py::make_tuple(out, report_dict(r));
      })
      .def("link_file", [](light::Linker& l, const std::string& text, const std::string& source, const std::string& image_path) {
        light::LinkByModelReport r;
        std::string out;
        {
          py::gil_scoped_release free;
          out = tile_text(l.link_file(one_tile(text, source), image_path, &r));
        }
        return py::make_tuple(out, report_dict(r));
      })
      .def("link_pixels", [](light::Linker& l, const std::string& text, const std::string& source,
                             const py::array_t<uint8_t, py::array::c_style | py::array::forcecast>& pixels) {
        light::Image image = image_of(pixels, source + ": image");
        light::LinkByModelReport r;
        std::string out;
        {
          py::gil_scoped_release free;
          out = tile_text(l.link_pixels(one_tile(text, source), std::move(image), &r));
        }
        return py::make_tuple(out, report_dict(r));
      });

  py::class_<light::Spotter>(m, "Spotter")
      .def(py::init([](const std::string& dir, const std::string& device, int threads, const std::string& alphabet, double min_score,
                       double scale, bool upright, bool small_lettering) {
             light::SpotOptions o;
             o.device = device, o.threads = threads, o.alphabet = alphabet, o.min_score = min_score, o.scale = scale;
             o.upright = upright, o.small_lettering = small_lettering;
             py::gil_scoped_release free;
             return light::Spotter(dir, o);
           }),
           py::arg("spotter_dir"), py::arg("device"), py::arg("threads"), py::arg("alphabet"), py::arg("min_score"), py::arg("scale"), py::arg("upright"),
           py::arg("small_lettering"))
      .def("spot", [](light::Spotter& s, const std::string& images) {
        py::gil_scoped_release free;
        return light::maptext::to_json_text(s.spot(images));
      })
      .def("spot_pixels", [](light::Spotter& s, const py::array_t<uint8_t, py::array::c_style | py::array::forcecast>& pixels,
                             const std::string& key) {
        light::Image image = image_of(pixels, "image \"" + key + "\"");
        py::gil_scoped_release free;
        return tile_text(s.spot_pixels(std::move(image), key));
      });

  m.def("search", [](const std::string& query, const std::string& text, const std::string& source, int max_edits, bool whole, size_t limit) {
    std::vector<light::SearchMatch> found;
    {
      py::gil_scoped_release free;
      found = light::search_phrases(query, parse(text, source), {max_edits, whole, limit});
    }
    return matches_list(found);
  });
  m.def("places", [](const std::string& text, const std::string& source, const std::string& gazetteer, bool georeference,
                     const std::string& images_dir) {
    py::gil_scoped_release free;
    light::PlacesOptions o;
    o.gazetteer = gazetteer, o.georeference = georeference, o.images_dir = images_dir;
    return light::places(parse(text, source), o);
  });
  m.def("search_files", [](const std::string& query, const std::string& in, int max_edits, bool whole, size_t limit) {
    std::vector<light::SearchMatch> found;
    {
      py::gil_scoped_release free;
      found = light::search_files(query, in, {max_edits, whole, limit});
    }
    return matches_list(found);
  });

  m.def("to_geojson", [](const std::string& text, const std::string& source, std::optional<std::string> words_text, const std::string& georef,
                         const std::string& images_dir) {
    py::gil_scoped_release free;
    const Dataset linked = parse(text, source);
    Dataset words;
    light::GeoJsonOptions o;
    if (words_text) {
      words = parse_words(*words_text, "words");
      o.words = &words;
    }
    o.georef = georef, o.images_dir = images_dir;
    return light::to_geojson(linked, o);
  });
  m.def("to_web_annotations", [](const std::string& text, const std::string& source, const std::string& canvas) {
    py::gil_scoped_release free;
    return light::to_web_annotations(parse(text, source), canvas);
  });
}

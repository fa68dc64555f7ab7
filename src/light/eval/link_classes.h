// The evaluator's link verdicts split by where the next word lies (geometry/link_class.h): for each
// class, the ground-truth links and how many were found (recall by class, each classed by its
// ground-truth words), and the false links (each classed by its predicted words). Every change to a
// linker is judged where it matters: names on two lines and spread names, not only the easy
// same-line links.
#pragma once
#include <array>
#include <string>

#include "light/eval/evaluator.h"
#include "light/geometry/link_class.h"
#include "light/maptext.h"

namespace light::eval {

struct LinkClassCounts {
  long long gt = 0;     // counted ground-truth links of the class
  long long found = 0;  // of those, found by the prediction
  long long wrong = 0;  // predicted links of the class that are not ground-truth links
};
using LinkClassReport = std::array<LinkClassCounts, geometry::kLinkClasses>;

// From a report made with Options::edge_verdicts (a 2025 link task) on these datasets; light::Error
// without the verdicts. The classes' counts add up to the report's missed + correct (gt), correct
// (found) and wrong links.
LinkClassReport count_link_classes(const maptext::Dataset& gt, const maptext::Dataset& pred, const Report& report);

// One line: {"near": {"links": 120, "found": 110, "recall": 0.9167, "false_links": 4}, ...}
// (recall null for a class with no ground-truth link).
std::string link_classes_to_json_line(const LinkClassReport& counts);

}  // namespace light::eval

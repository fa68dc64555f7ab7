// A number as a message shows it: the shortest form printf's %g gives ("0.3", "1e+06", "nan").
#pragma once
#include <cstdio>
#include <string>

namespace light {

inline std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace light

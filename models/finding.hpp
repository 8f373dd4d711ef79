// A finding of `tcosim validate`: an error (exit 2) or a warning (reported, exit 0), with
// where it is (file and JSON pointer or line) and a stable code tests and CI can grep.
#pragma once

#include <string>

namespace tco {

struct Finding {
  enum class Severity { error, warning };
  Severity severity = Severity::error;
  std::string code;     // e.g. "spot-above-on-demand", "unit-slip-monthly"
  std::string file;
  std::string where;    // JSON pointer or "line N, column C"
  std::string message;
};

}  // namespace tco

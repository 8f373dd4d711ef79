// The HTML report: one self-contained page a finance reviewer can read without the tool
// (inline CSS and SVG, no JavaScript, nothing loaded from the network). It renders a JSON
// report, so `tcosim report saved.json --html out.html` gives the same page as `run --html`.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string html_report(const Json& report);

}  // namespace tco

// The report of one scenario, as `tcosim run` makes it: load (resolving the catalog), run,
// render. `tcosim regress` makes its reports through here so they match `run`'s byte for byte.
#pragma once

#include <string>

#include "engine/json_reader.hpp"
#include "reports/json_report.hpp"

namespace tco::cli {

// Throws InputError / ModelError like load_scenario. catalog_dir empty: the scenario's own.
Json make_report(const std::string& scenario_path, const std::string& catalog_dir, const RunMetadata& meta);

}  // namespace tco::cli

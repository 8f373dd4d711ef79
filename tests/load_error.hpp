// A bad-input test's view of a scenario that fails to load: the error's JSON pointer and message,
// or "(accepted)".
#pragma once

#include <string>

#include "core/error.hpp"
#include "models/scenario.hpp"
#include "test_support.hpp"

namespace tco::test {

inline std::string load_error(const Json& doc) {
  try {
    load_scenario_json(doc, "test-scenario.json", source_path("tests"));
  } catch (const InputError& e) {
    return e.where() + ": " + e.message();
  }
  return "(accepted)";
}

}  // namespace tco::test

// A bad scenario through `run` and `validate`, as each new input's bad-input test checks it:
// `run` exits 2 naming the scenario file, the JSON pointer and what was expected (`says`), and
// writes no report; `validate` exits 2 and names the pointer too (it lists its findings on
// stdout). `name` names the scratch folder.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

namespace tco::test {

inline void check_run_and_validate_refuse(const std::string& name, const Json& doc, const std::string& pointer,
                                          const std::string& says = "") {
  const auto dir = scratch_dir(name);
  const std::string scenario = write_json_file(dir / "scenario.json", doc);
  const auto report = dir / "report.json";
  const CliResult r = run_cli({"run", scenario, "--out", report.string(), "--quiet"});
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(report));
  CHECK(r.err.find(pointer) != std::string::npos);
  CHECK(r.err.find(says) != std::string::npos);
  CHECK(r.err.find("scenario.json") != std::string::npos);
  const CliResult v = run_cli({"validate", scenario});
  CHECK(v.exit_code == 2);
  CHECK((v.out + v.err).find(pointer) != std::string::npos);
}

// A bad input made from a valid document: the change, and what `run` and `validate` must name.
struct BadInputCase {
  std::string name;
  std::function<void(Json&)> change;
  std::string pointer;
  std::string says;
};

// Each case on its own copy of `valid` through check_run_and_validate_refuse (scratch folder
// `prefix` + the case's name).
inline void check_each_refused(const std::string& prefix, const Json& valid, const std::vector<BadInputCase>& cases) {
  for (const BadInputCase& c : cases) {
    INFO("case " << c.name);
    Json doc = valid;
    c.change(doc);
    check_run_and_validate_refuse(prefix + c.name, doc, c.pointer, c.says);
  }
}

}  // namespace tco::test

// A sweep grid over the shipped sweep scenario (scenarios/sweeps/hybrid-uncertain.json), read as
// `tcosim sweep` reads it, and its first and last points built and checked as scenarios. The
// points are not evaluated (that is the sweep's work, not its parser's). The exceptions are
// classed as cli/app.cpp classes them: InputError and ModelError are exit 2, anything else is
// an internal error (a finding).
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "core/error.hpp"
#include "engine/sweep/sweep_run.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const tco::SweepInputs base = [] {
    tco::SweepOptions o;
    o.scenario_file = std::string(TCO_SOURCE_DIR) + "/scenarios/sweeps/hybrid-uncertain.json";
    o.grid_file = std::string(TCO_SOURCE_DIR) + "/scenarios/sweeps/hybrid-uncertain.grid.json";
    return tco::load_sweep_inputs(o);
  }();
  const std::string grid = tco::fuzz::write_input("input.grid.json", data, size);
  try {
    tco::SweepInputs in = base;
    in.grid = tco::read_sweep_grid(grid, in.scenario_doc, in.scenario_file, in.integer_pointers);
    const long points = in.grid.points();
    tco::prepare_grid_point(in, 0);
    if (points > 1) tco::prepare_grid_point(in, points - 1);
  } catch (const tco::InputError&) {
  } catch (const tco::ModelError&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FINDING: internal error: %s\n", e.what());
    std::abort();
  }
  return 0;
}

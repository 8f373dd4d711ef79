// The files a loaded scenario read, declared as inputs of a command's OutputSet so that no
// output of the command overwrites one of them.
#pragma once

#include "models/scenario.hpp"
#include "core/io/output_set.hpp"

namespace tco {

// The scenario file, every file of its catalog folder, its demand series, job trace and spot
// traces.
void add_scenario_inputs(OutputSet& outputs, const Scenario& scenario);

}  // namespace tco

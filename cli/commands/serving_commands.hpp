// The commands of token serving (docs/tokens.md), registered by cli/app.cpp like those of
// cli/app.hpp; declared apart so that adding one does not rebuild every file cli/app.hpp reaches.
#pragma once

#include "cli/app.hpp"

namespace tco::cli {

void setup_throughput(CLI::App& app, CommandContext& ctx);

}  // namespace tco::cli

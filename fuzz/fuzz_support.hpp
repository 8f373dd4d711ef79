// What every harness shares. An input is written to a file in a per-process folder laid out
// like the project (scenarios/ beside pricing-data/ and catalog/, which link to the shipped
// catalogs, so a scenario's "../pricing-data" resolves), then given to the command that reads
// it, in-process (cli::run_main). Exit 0, 1 and 2 (a typed input error) are normal outcomes;
// exit 3 (an internal error) or any other code is a finding: the harness prints the command and
// its message and aborts, so libFuzzer saves the input. Crashes and sanitizer reports are
// findings by themselves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tco::fuzz {

// The per-process folder (created on first use).
const std::string& work_dir();
// Writes the input to work_dir()/relative_path (replacing it) and returns the path.
std::string write_input(const std::string& relative_path, const std::uint8_t* data, std::size_t size);
// Runs `tcosim args...`; aborts on exit 3 or an unknown code. Returns the exit code.
int run_command(const std::vector<std::string>& args);
// The value of an environment variable, or `fallback`.
std::string env_or(const char* name, const std::string& fallback);

}  // namespace tco::fuzz

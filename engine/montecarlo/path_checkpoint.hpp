// `tcosim run --checkpoint-dir D` (docs/cluster.md): each finished batch of the replay's paths is
// written to D, atomically, as the path outcomes rank 0 reduces (engine/montecarlo/
// path_outcome_codec.hpp), or for the fluid Monte Carlo as each path's NPV and nominal cost per
// plan; a rerun with the same key reads a batch found there instead of
// computing it, and reduces the same values in the same order: the same report bytes as an
// uninterrupted run. The key is the SHA-256 of everything a batch's outcomes depend on: the tool
// version, the scenario's and the catalog's digests, the digests of the job trace, demand series
// and spot traces it reads, the seed, the paths (or the target half-width and the ceiling) and
// the batch size. A file of another key is never read (its name and its first line carry the
// key), nor one whose range, plan count or length does not match.
// File: D/<first 16 hex of the key>-paths-<first>-<end>.bin, a first line
// "tcosim-path-checkpoint/2 KEY FIRST END PLANS\n" (/2: the outcomes carry commitment_used_usd; a /1
// file is not read), then (END - FIRST) x PLANS outcomes in path
// order, plans within a path.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/des/simulator.hpp"
#include "engine/montecarlo/monte_carlo.hpp"
#include "models/scenario.hpp"

namespace tco {

std::string path_checkpoint_key(const Scenario& scenario, std::uint64_t seed, const MonteCarloOptions& options);

// Writes the outcomes of paths [first, end) ([path - first][plan]) atomically.
void save_path_checkpoint(const std::string& dir, const std::string& key, long first, long end,
                          const std::vector<std::vector<des::PathOutcome>>& outcomes);

// The outcomes of paths [first, end) when D holds them under this key, each path with `plans`
// plans; nothing otherwise (no file, another key, a truncated or damaged file).
std::optional<std::vector<std::vector<des::PathOutcome>>> load_path_checkpoint(const std::string& dir,
                                                                               const std::string& key, long first,
                                                                               long end, std::size_t plans);

// The fluid Monte Carlo's batches (engine/montecarlo/fluid_monte_carlo.hpp), in the same files:
// after the header, per path and plan its NPV and nominal cost as 8-byte doubles.
void save_fluid_checkpoint(const std::string& dir, const std::string& key, long first, long end, std::size_t plans,
                           const std::vector<double>& npv_and_nominal);
std::optional<std::vector<double>> load_fluid_checkpoint(const std::string& dir, const std::string& key, long first,
                                                         long end, std::size_t plans);

}  // namespace tco

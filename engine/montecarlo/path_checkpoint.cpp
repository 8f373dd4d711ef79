#include "engine/montecarlo/path_checkpoint.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <variant>

#include <fmt/format.h>

#include "core/io/atomic_file.hpp"
#include "core/io/json_reader.hpp"
#include "core/io/sha256.hpp"
#include "engine/montecarlo/path_outcome_codec.hpp"

namespace tco {

namespace {

constexpr const char* kFormat = "tcosim-path-checkpoint/2";

std::string file_digest(const std::string& path) { return path.empty() ? std::string() : sha256_file_hex(path); }

std::string checkpoint_file(const std::string& dir, const std::string& key, long first, long end) {
  return (std::filesystem::path(dir) / fmt::format("{}-paths-{}-{}.bin", key.substr(0, 16), first, end)).string();
}

std::string header(const std::string& key, long first, long end, std::size_t plans) {
  return fmt::format("{} {} {} {} {}\n", kFormat, key, first, end, plans);
}

}  // namespace

std::string path_checkpoint_key(const Scenario& s, std::uint64_t seed, const MonteCarloOptions& o) {
  Json inputs = Json::array();
  for (const DemandProfile& profile : s.workload.profiles)
    if (const auto* series = std::get_if<SeriesProfile>(&profile)) inputs.push_back(file_digest(series->resolved_path));
  if (s.jobs) inputs.push_back(file_digest(s.jobs->trace_resolved_path));
  for (const Plan& plan : s.plans)
    if (plan.cloud) inputs.push_back(file_digest(plan.cloud->spot.trace_resolved_path));
  const Json key = {{"tool", TCO_VERSION},
                    {"scenario_digest_sha256", s.scenario_digest_sha256},
                    {"catalog_digest_sha256", s.catalog_digest_sha256},
                    {"input_digests_sha256", inputs},
                    {"seed", seed},
                    {"paths", o.paths.value_or(s.monte_carlo.paths)},
                    {"target_ci_usd", o.target_ci_usd ? Json(*o.target_ci_usd) : Json()},
                    {"path_ceiling", o.path_ceiling},
                    {"batch_paths", o.batch_paths}};
  return sha256_hex(key.dump());
}

namespace {

// The file's bytes after its header when its header is this one; nothing otherwise.
std::optional<std::string> checkpoint_body(const std::string& dir, const std::string& key, long first, long end,
                                           std::size_t plans) {
  std::ifstream in(checkpoint_file(dir, key, first, end), std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  const std::string expected = header(key, first, end, plans);
  if (bytes.compare(0, expected.size(), expected) != 0) return std::nullopt;
  return bytes.substr(expected.size());
}

}  // namespace

void save_fluid_checkpoint(const std::string& dir, const std::string& key, long first, long end, std::size_t plans,
                           const std::vector<double>& npv_and_nominal) {
  std::string bytes = header(key, first, end, plans);
  bytes.append(reinterpret_cast<const char*>(npv_and_nominal.data()), npv_and_nominal.size() * sizeof(double));
  write_file_atomically(checkpoint_file(dir, key, first, end), bytes);
}

std::optional<std::vector<double>> load_fluid_checkpoint(const std::string& dir, const std::string& key, long first,
                                                         long end, std::size_t plans) {
  const std::optional<std::string> body = checkpoint_body(dir, key, first, end, plans);
  const std::size_t values = static_cast<std::size_t>(end - first) * plans * 2;
  if (!body || body->size() != values * sizeof(double)) return std::nullopt;
  std::vector<double> out(values);
  std::memcpy(out.data(), body->data(), body->size());
  return out;
}

void save_path_checkpoint(const std::string& dir, const std::string& key, long first, long end,
                          const std::vector<std::vector<des::PathOutcome>>& outcomes) {
  std::string bytes = header(key, first, end, outcomes.empty() ? 0 : outcomes.front().size());
  for (const auto& per_plan : outcomes)
    for (const des::PathOutcome& o : per_plan) append_path_outcome(bytes, o);
  write_file_atomically(checkpoint_file(dir, key, first, end), bytes);
}

std::optional<std::vector<std::vector<des::PathOutcome>>> load_path_checkpoint(const std::string& dir,
                                                                               const std::string& key, long first,
                                                                               long end, std::size_t plans) {
  const std::optional<std::string> body = checkpoint_body(dir, key, first, end, plans);
  if (!body) return std::nullopt;
  const std::string& bytes = *body;
  std::vector<std::vector<des::PathOutcome>> outcomes(static_cast<std::size_t>(end - first),
                                                      std::vector<des::PathOutcome>(plans));
  std::size_t offset = 0;
  try {
    for (auto& per_plan : outcomes)
      for (des::PathOutcome& o : per_plan) o = read_path_outcome(bytes, offset);
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
  if (offset != bytes.size()) return std::nullopt;
  return outcomes;
}

}  // namespace tco

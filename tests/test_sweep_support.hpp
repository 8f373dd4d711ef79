// Helpers for the sweep tests: the rich fixture scenario (every cost the hot loop books, random
// inputs off), the same with every random input on, and a one-point CPU run.
#pragma once

#include <string>

#include "engine/sweep/sweep_backend.hpp"
#include "engine/sweep/sweep_prepare.hpp"
#include "scenario_builder.hpp"
#include "sweep_random_inputs.hpp"

namespace tco::test {

inline std::string sweep_fixture(const std::string& name) { return source_path("tests/fixtures/sweep/" + name); }

// tests/fixtures/sweep/rich.json with an absolute catalog folder (so it may be written anywhere).
inline Json rich_sweep_json() {
  std::ifstream in(sweep_fixture("rich.json"), std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read tests/fixtures/sweep/rich.json");
  Json doc = Json::parse(in);
  doc["catalog_dir"] = fixture_catalog_dir();
  return doc;
}

// The rich scenario with every random input of the fluid model switched on.
inline Json random_sweep_json() {
  Json doc = rich_sweep_json();
  switch_on_random_inputs(doc);
  return doc;
}

inline Scenario load_sweep_scenario(const Json& doc) {
  return load_scenario_json(doc, "sweep-test.json", source_path("tests/fixtures/sweep"));
}

// Every path of one scenario on the CPU backend: npv[plan][path].
struct OnePointRun {
  SweepPoint point;
  SweepChunk chunk;
  SweepPathValues values;

  double npv(int plan, long path) const { return values.npv_usd[values.index(chunk.points[0], path, plan)]; }
  double total(int plan, long path) const { return values.total_usd[values.index(chunk.points[0], path, plan)]; }
};

inline OnePointRun run_one_point(const Scenario& s, std::uint64_t seed, long paths, int threads = 1) {
  OnePointRun r;
  r.point = prepare_sweep_point(s, seed);
  r.chunk = make_sweep_chunk({r.point});
  r.values = run_sweep_cpu(r.chunk, paths, threads);
  return r;
}

}  // namespace tco::test

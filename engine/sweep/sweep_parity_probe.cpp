#include "engine/sweep/sweep_parity_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <tuple>

#include <fmt/format.h>

#include "core/error.hpp"
#include "engine/sweep/sweep_prepare.hpp"
#include "models/scenario.hpp"

namespace tco {

namespace {

// Two months of a diurnal 20 GPUs; "cloud" rents, "probe" owns one node and bursts. Every record
// is inline; nothing random is on: each case switches on its own input.
const char* const kProbeBase = R"json({
  "name": "parity-probe",
  "description": "tcosim's built-in CUDA parity probe (docs/sweep.md)",
  "start": "2026-01-05",
  "horizon_months": 2,
  "discount_rate_per_year": 0.08,
  "waiting_usd_per_gpu_hour": 1.0,
  "workload": {"profiles": [{"type": "steady", "gpus": 20, "diurnal_amplitude": 0.3, "peak_hour": 14}]},
  "monte_carlo": {"paths": 8, "seed": 51},
  "cloud": {
    "offer": {"provider": "probe", "instance_type": "gpu8", "region": "probe", "gpu_model": "probe-gpu",
              "gpus_per_instance": 8, "on_demand_usd_per_hour": 16.0, "spot_usd_per_hour": 8.0,
              "reserved_1y_usd_per_hour": 12.0, "spot_notice_s": 120, "source": "built-in parity probe",
              "as_of": "2026-01-01"},
    "gpu": {"name": "probe GPU", "perf_relative": 1.0, "memory_gb": 80, "tdp_w": 700,
            "source": "built-in parity probe", "as_of": "2026-01-01"},
    "price_change_per_year": -0.1,
    "spot_overhead_factor": 1.1,
    "spot": {"checkpoint_write_h": 0.05, "restart_h": 0.1}
  },
  "onprem": {
    "server": {"gpu_model": "probe-gpu", "gpus": 8, "price_usd": 200000, "idle_kw": 2.0, "peak_kw": 10.0,
               "source": "built-in parity probe", "as_of": "2026-01-01"},
    "gpu": {"name": "probe GPU", "perf_relative": 1.0, "memory_gb": 80, "tdp_w": 700,
            "source": "built-in parity probe", "as_of": "2026-01-01"},
    "maintenance_per_year": 0.06,
    "power": {"tariff": {"type": "flat", "usd_per_kwh": 0.1}, "g_co2_per_kwh": 400},
    "cooling": {"type": "air", "pue_model": "constant", "pue": 1.3, "rack_limit_kw": 40, "delta_t_f": 20,
                "source": "built-in parity probe", "as_of": "2026-01-01"},
    "colocation": {"name": "probe colocation", "usd_per_kw_month": 100, "usd_per_rack_month": 500,
                   "source": "built-in parity probe", "as_of": "2026-01-01"},
    "residual": {"enabled": false}
  },
  "plans": [{"name": "cloud", "kind": "cloud"}, {"name": "probe", "kind": "hybrid", "onprem_nodes": 1}],
  "baseline": "cloud"
})json";

// The base with `patch` merged in (RFC 7386; "plans" is replaced whole when given).
Json probe_case(const Json& patch) {
  Json doc = parity_probe_base_scenario();
  doc.merge_patch(patch);
  return doc;
}

// The base's plans with the probe plan replaced.
Json plans_with(Json probe_plan) {
  probe_plan["name"] = "probe";
  return Json::array({{{"name", "cloud"}, {"kind", "cloud"}}, std::move(probe_plan)});
}

Json day_night_rates(double day, double night) {
  Json r = Json::array();
  for (int h = 0; h < 24; ++h) r.push_back(h < 8 ? night : day);
  return r;
}

Json inline_offer(double on_demand_usd_per_hour) {
  return {{"provider", "probe"}, {"instance_type", "gpu8"}, {"region", "probe"}, {"gpu_model", "probe-gpu"},
          {"gpus_per_instance", 8}, {"on_demand_usd_per_hour", on_demand_usd_per_hour},
          {"source", "built-in parity probe"}, {"as_of", "2026-01-01"}};
}

Json probe_gpu() { return parity_probe_base_scenario().at("cloud").at("gpu"); }

double relative(double a, double b) { return std::fabs(a - b) / std::max({1.0, std::fabs(a), std::fabs(b)}); }

}  // namespace

Json parity_probe_base_scenario() { return parse_json_text(kProbeBase, "the parity probe"); }

std::vector<ParityProbeCase> parity_probe_cases() {
  std::vector<ParityProbeCase> cases;
  // The random inputs come first: a device's own exp/log and Philox meet them all.
  bool draws = true;
  const auto add = [&](const char* input, const Json& patch) { cases.push_back({input, probe_case(patch), draws}); };

  add("spot (capacity, preemptions, price shocks)",
      {{"cloud", {{"spot", {{"availability", 0.8}, {"preemptions_per_instance_hour", 0.05}, {"price_sigma", 0.2}}}}},
       {"plans", plans_with({{"kind", "hybrid"}, {"onprem_nodes", 1}, {"spot_share", 0.5}})}});
  add("node failures",
      {{"onprem", {{"failures", {{"afr_per_year", 2.0}, {"afr_growth_per_year", 0.5}, {"repair_h", 48}}}}},
       {"plans", plans_with({{"kind", "hybrid"}, {"onprem_nodes", 2}})}});
  add("demand growth, power price and ambient shocks",
      {{"monte_carlo", {{"demand_growth_sigma_per_year", 0.1}}},
       {"onprem",
        {{"power", {{"monthly_price_sigma", 0.15}}},
         {"cooling", {{"pue_model", "ambient"}, {"pue", nullptr}, {"pue_min", 1.15}, {"pue_slope_per_c", 0.02},
                      {"free_cooling_c", 12}}},
         {"ambient", {{"mean_c", 16}, {"seasonal_amp_c", 10}, {"diurnal_amp_c", 5}, {"noise_sigma_c", 2.0},
                      {"throttle_above_c", 24}, {"throttle_fraction", 0.2}}}}}});
  add("price process (lognormal with jumps)",
      {{"cloud", {{"price_process",
                   {{"on_demand", {{"type", "lognormal_jumps"}, {"volatility_per_year", 0.4}, {"jumps_per_year", 2.0},
                                   {"jump_log_size", -0.3}}},
                    {"spot", {{"type", "lognormal_jumps"}, {"volatility_per_year", 0.6}}}}}}},
       {"plans", plans_with({{"kind", "hybrid"}, {"onprem_nodes", 1}, {"spot_share", 0.4}})}});
  add("price process (two regimes)",
      {{"cloud", {{"price_process", {{"on_demand", {{"type", "two_regime"}, {"glut_level", 0.8}, {"shortage_level", 1.4},
                                                    {"glut_to_shortage_per_month", 0.3},
                                                    {"shortage_to_glut_per_month", 0.4}}}}}}}});
  add("venues with a savings plan",
      {{"plans",
        plans_with({{"kind", "cloud"},
                    {"venues", {{{"name", "neocloud"}, {"offer", inline_offer(10.0)}, {"gpu", probe_gpu()},
                                 {"availability", 0.6}, {"quota_gpus", 16}, {"provisioning_delay_h", 0.25}},
                                {{"name", "hyperscaler"}, {"offer", inline_offer(16.0)}, {"gpu", probe_gpu()},
                                 {"provisioning_delay_h", 0}}}},
                    {"commitments", {{{"kind", "savings_plan"}, {"usd_per_hour", 20.0},
                                      {"usd_per_instance_hour", 12.0}, {"term_months", 2},
                                      {"venue", "hyperscaler"}}}}})}});
  draws = false;
  add("price schedule (step, USD per GPU-hour)",
      {{"cloud", {{"price_schedule", {{"on_demand", {{"interpolation", "step"},
                                                     {"points", {{{"date", "2026-01-05"}, {"usd_per_gpu_hour", 2.0}},
                                                                 {{"date", "2026-02-01"}, {"usd_per_gpu_hour", 1.5}}}}}}}}}}});
  add("price schedule (log-linear factors, on-demand and spot)",
      {{"cloud", {{"price_schedule",
                   {{"on_demand", {{"interpolation", "log_linear"},
                                   {"points", {{{"date", "2026-01-05"}, {"factor", 1.0}},
                                               {{"date", "2026-03-01"}, {"factor", 0.7}}}}}},
                    {"spot", {{"interpolation", "log_linear"},
                              {"points", {{{"date", "2026-01-05"}, {"factor", 1.2}},
                                          {{"date", "2026-03-01"}, {"factor", 0.9}}}}}}}}}},
       {"plans", plans_with({{"kind", "hybrid"}, {"onprem_nodes", 1}, {"spot_share", 0.4}})}});
  add("carbon price", {{"onprem", {{"carbon", {{"embodied_kg_co2_per_server", 2500}, {"usd_per_tonne", 80}}}}}});
  add("capacity block",
      {{"plans", plans_with({{"kind", "hybrid"}, {"onprem_nodes", 1},
                             {"commitments", {{{"kind", "capacity_block"}, {"start_day", 10}, {"days", 7},
                                               {"instances", 2}, {"usd_per_instance_hour", 11.0}}}}})}});
  add("savings plan",
      {{"plans", plans_with({{"kind", "cloud"},
                             {"commitments", {{{"kind", "savings_plan"}, {"usd_per_hour", 20.0},
                                               {"usd_per_instance_hour", 12.0}, {"term_months", 1}}}}})}});
  add("take-or-pay",
      {{"plans", plans_with({{"kind", "hybrid"}, {"onprem_nodes", 1},
                             {"commitments", {{{"kind", "take_or_pay"}, {"gpus", 8}, {"usd_per_gpu_hour", 1.5},
                                               {"term_months", 2}, {"ramp_gpus_by_month", {4}}}}}})}});
  add("time shifting",
      {{"workload", {{"deferrable", {{"share", 0.4}, {"max_delay_h", 6}}}}},
       {"onprem", {{"power", {{"tariff", {{"type", "time_of_use"}, {"usd_per_kwh", nullptr},
                                          {"weekday_usd_per_kwh", day_night_rates(0.25, 0.05)},
                                          {"weekend_usd_per_kwh", day_night_rates(0.25, 0.05)}}}}}}},
       {"plans", plans_with({{"kind", "hybrid"}, {"onprem_nodes", 3}, {"scheduling", {{"time_shift", true}}}})}});
  return cases;
}

SweepDevice cuda_sweep_device() {
  // A test hook: with TCO_TEST_DEVICE_DIFFERS_AT=INPUT in the environment, a device is visible and
  // it is the CPU backend with the NPV of that probe input's plan 1, path 0 moved by 1e-6
  // relative: the command-line tests run `sweep` and `optimize` past a failing probe without a GPU.
  if (const char* input = std::getenv("TCO_TEST_DEVICE_DIFFERS_AT")) {
    const std::vector<ParityProbeCase> cases = parity_probe_cases();
    const auto at = std::find_if(cases.begin(), cases.end(), [&](const ParityProbeCase& c) { return c.input == input; });
    const std::size_t point = static_cast<std::size_t>(at - cases.begin());
    return {[](std::string*) { return 1; },
            [point](const SweepChunk& chunk, long paths) {
              SweepPathValues v = run_sweep_cpu(chunk, paths, 1);
              if (point < chunk.points.size()) v.npv_usd[v.index(chunk.points[point], 0, 1)] *= 1.0 + 1e-6;
              return v;
            }};
  }
  return {[](std::string* why) { return sweep_cuda_devices(why); },
          [](const SweepChunk& chunk, long paths) { return run_sweep_cuda(chunk, paths, nullptr); }};
}

ParityProbeGrid parity_probe_grid(const std::string& catalog_dir) {
  ParityProbeGrid grid;
  std::vector<SweepPoint> points;
  for (const ParityProbeCase& c : parity_probe_cases()) {
    const Scenario s = load_scenario_json(c.scenario, "the parity probe", ".", catalog_dir);
    points.push_back(prepare_sweep_point(s, s.monte_carlo.seed));
    grid.inputs.push_back(c.input);
  }
  grid.chunk = make_sweep_chunk(points);
  return grid;
}

ParityProbeResult compare_parity(const ParityProbeGrid& grid, const SweepPathValues& cpu,
                                 const SweepPathValues& device) {
  ParityProbeResult r;
  r.inputs = static_cast<int>(grid.inputs.size());
  r.passed = true;
  if (device.paths != cpu.paths || device.npv_usd.size() != cpu.npv_usd.size() ||
      device.total_usd.size() != cpu.total_usd.size()) {
    r.passed = false;
    r.first_differing_input = grid.inputs.empty() ? std::string() : grid.inputs.front();
    r.detail = fmt::format("the device returned {} values for {} paths, the CPU {} for {}", device.npv_usd.size(),
                           device.paths, cpu.npv_usd.size(), cpu.paths);
    return r;
  }
  for (std::size_t i = 0; i < grid.chunk.points.size(); ++i) {
    const SweepPointHeader& pt = grid.chunk.points[i];
    for (int j = 0; j < pt.plan_count; ++j) {
      for (long k = 0; k < cpu.paths; ++k) {
        const std::size_t at = cpu.index(pt, k, j);
        for (const auto& [what, c, g] : {std::tuple{"NPV", cpu.npv_usd[at], device.npv_usd[at]},
                                         std::tuple{"total", cpu.total_usd[at], device.total_usd[at]}}) {
          const double d = relative(c, g);
          ++r.figures;
          // A NaN on either side differs (d <= tolerance is false for it).
          if (!(d <= kParityRelativeTolerance)) {
            if (r.passed)
              r.detail = fmt::format("point {}, plan {}, path {}: {} on the CPU {:.17g} USD, on the device {:.17g} "
                                     "USD (relative difference {:.3g}, limit {:.0e})",
                                     i, j, k, what, c, g, d, kParityRelativeTolerance);
            if (r.passed) r.first_differing_input = grid.inputs[i];
            r.passed = false;
          }
          if (std::isnan(d)) r.largest_relative_difference = d;
          else if (!std::isnan(r.largest_relative_difference))
            r.largest_relative_difference = std::max(r.largest_relative_difference, d);
        }
      }
    }
  }
  return r;
}

ParityProbeResult run_parity_probe(const std::string& catalog_dir, const SweepDevice& device, int threads) {
  const auto started = std::chrono::steady_clock::now();
  const ParityProbeGrid grid = parity_probe_grid(catalog_dir);
  const SweepPathValues cpu = run_sweep_cpu(grid.chunk, kParityProbePaths, threads);
  ParityProbeResult r;
  try {
    r = compare_parity(grid, cpu, device.evaluate(grid.chunk, kParityProbePaths));
  } catch (const std::exception& e) {
    r = ParityProbeResult{};
    r.inputs = static_cast<int>(grid.inputs.size());
    r.first_differing_input = grid.inputs.empty() ? std::string() : grid.inputs.front();
    r.detail = std::string("the device failed: ") + e.what();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

std::string parity_probe_words(const ParityProbeResult& p) {
  if (p.passed)
    return fmt::format("passed: {} inputs, {} figures, largest relative difference {:.2g} (limit {:.0e}), {:.2f} s",
                       p.inputs, p.figures, p.largest_relative_difference, kParityRelativeTolerance, p.seconds);
  return fmt::format("failed at \"{}\": {} ({:.2f} s)", p.first_differing_input, p.detail, p.seconds);
}

std::string parity_probe_console(const ParityProbeResult& p, const std::string& command) {
  if (p.passed) return fmt::format("{}: CUDA parity probe {}; running on the device\n", command, parity_probe_words(p));
  return fmt::format("{}: warning: the CUDA device failed its parity probe (docs/sweep.md), {}; running on the CPU\n",
                     command, parity_probe_words(p));
}

Json parity_probe_json(const ParityProbeResult& p) {
  Json j = {{"result", p.passed ? "passed" : "failed"},
            {"seconds", p.seconds},
            {"inputs", p.inputs},
            {"figures", p.figures},
            {"tolerance_relative", kParityRelativeTolerance}};
  // A NaN is no JSON number: the detail says what the device returned.
  if (std::isfinite(p.largest_relative_difference)) j["largest_relative_difference"] = p.largest_relative_difference;
  if (!p.passed) {
    j["first_differing_input"] = p.first_differing_input;
    j["detail"] = p.detail;
  }
  return j;
}

}  // namespace tco

// The fluid model's on-prem and cloud packing efficiency (engine/ledger/hourly/hourly_model.hpp) and its calibration against the
// discrete-event replay (engine/decisions/calibration.hpp, `tcosim calibrate`): hand-computed cases on the
// round-number fixture catalog (tests/scenario_builder.hpp lists its figures).
#include <doctest/doctest.h>

#include "des_support.hpp"
#include "engine/decisions/calibration.hpp"
#include "core/error.hpp"
#include "engine/ledger/hourly/hourly_model.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "test_sweep_support.hpp"

using namespace tco;

namespace {

const PlanCalibration& calibrated(const CalibrationResult& r, const std::string& name) {
  for (const auto& p : r.plans)
    if (p.name == name) return p;
  FAIL("no plan " << name);
  return r.plans.front();
}

// A jobs scenario of `months` months on the fixture catalog: a cloud plan (the baseline) and
// a hybrid plan owning 2 test-node-8 (8 GPUs, idle 2 kW, peak 10 kW).
Json jobs_scenario(const Json& jobs, int months) {
  Json doc = test::des_scenario_json(jobs);
  doc["horizon_months"] = months;
  return doc;
}

CalibrationResult calibrate_json(const Json& doc, long paths) {
  const Scenario s = test::load_des_scenario(doc);
  CalibrationOptions o;
  o.paths = paths;
  o.seed = 11;
  return calibrate(s, o);
}

}  // namespace

TEST_CASE("calibration: packing 0.75 on 2 nodes x 8 GPUs serves 12 of 16 GPUs on-prem and bursts 4 (hand-computed)") {
  // One hour: capacity 2 x 8 x 0.75 = 12 GPUs; D = 16: busy 12, overflow 4 -> ceil(4 / 8) = 1
  // on-demand instance = 8 GPU-hours billed at $16.
  FleetParams f;
  f.gpus_per_node = 8.0;
  f.packing_efficiency = 0.75;
  f.idle_kw = 2.0;
  f.peak_kw = 10.0;
  f.gpus_per_instance = 8.0;
  f.on_demand_usd_per_instance_hour = 16.0;
  HourInputs in;
  in.demand_gpus = 16.0;
  in.nodes_up = 2.0;
  in.pue = 1.5;
  in.usd_per_kwh = 0.10;
  const HourOutcome o = step_hour(f, in, 0.0);
  CHECK(o.busy_gpus == 12.0);
  CHECK(o.work_onprem == 12.0);
  CHECK(o.cloud_work == 4.0);
  CHECK(o.on_demand_billed_gpus == 8.0);
  CHECK(o.on_demand_usd == 16.0);
  // IT = 2 x 2 kW idle + (10 - 2) x 12 / 8 = 4 + 12 = 16 kW (the 4 GPUs packing leaves empty
  // draw idle power); facility 16 x 1.5 = 24 kW; energy 24 x $0.10 = $2.40.
  CHECK(o.it_kw == doctest::Approx(16.0).epsilon(1e-12));
  CHECK(o.energy_usd == doctest::Approx(2.40).epsilon(1e-12));

  // The same through a scenario: 12 months = 8,760 h of 16 GPUs; the plan patches its onprem.
  Json doc = test::base_scenario_json();
  doc["plans"][1]["onprem"] = {{"packing_efficiency", 0.75}};
  doc["plans"].push_back({{"name", "buy-2-perfect"}, {"kind", "hybrid"}, {"onprem_nodes", 2}});
  const test::ScenarioOutcome r = test::run_scenario_json(doc);
  const PlanResult& packed = r.plan("buy-2");
  const PlanResult& perfect = r.plan("buy-2-perfect");
  CHECK(packed.gpu_hours.onprem_busy == doctest::Approx(12.0 * 8760).epsilon(1e-12));
  CHECK(packed.gpu_hours.onprem_capacity == doctest::Approx(16.0 * 8760).epsilon(1e-12));  // before packing
  CHECK(*packed.onprem_utilization == doctest::Approx(0.75).epsilon(1e-12));
  CHECK(packed.gpu_hours.on_demand_billed == doctest::Approx(8.0 * 8760).epsilon(1e-12));
  // On-demand: 8,760 h x $16 = $140,160.
  CHECK(packed.ledger.category_total_usd(Category::cloud_on_demand) == doctest::Approx(140160.0).epsilon(1e-12));
  // Energy: $2.40 x 8,760 = $21,024 (packing 1: IT 4 + 8 x 16 / 8 = 20 kW -> 30 kW -> $3.00/h -> $26,280).
  CHECK(packed.ledger.category_total_usd(Category::energy) == doctest::Approx(21024.0).epsilon(1e-12));
  CHECK(perfect.ledger.category_total_usd(Category::energy) == doctest::Approx(26280.0).epsilon(1e-12));
  // Ownership costs are the same: the totals differ by 140,160 - (26,280 - 21,024) = 134,904.
  CHECK(packed.total_usd - perfect.total_usd == doctest::Approx(134904.0).epsilon(1e-12));
  // The resolved inputs show the value every plan runs with, the default included.
  CHECK(r.scenario.plans[1].resolved.at("onprem").at("packing_efficiency") == 0.75);
  CHECK(r.scenario.plans[2].resolved.at("onprem").at("packing_efficiency") == 1.0);
}

TEST_CASE("calibration: packing_efficiency of 0, below 0 or above 1 is an input error naming its pointer") {
  for (double bad : {0.0, -0.5, 1.5}) {
    CAPTURE(bad);
    Json doc = test::base_scenario_json();
    doc["plans"][1]["onprem"] = {{"packing_efficiency", bad}};
    try {
      load_scenario_json(doc, "packing.json", test::source_path("tests"));
      FAIL("accepted packing_efficiency " << bad);
    } catch (const InputError& e) {
      CHECK(e.file() == "packing.json");
      CHECK(e.where() == "/plans/1/onprem/packing_efficiency");
    }
  }
}

TEST_CASE("calibration: the CPU sweep and the device loop step with packing, equal to the deterministic evaluator") {
  Json doc = test::rich_sweep_json();
  doc["onprem"]["packing_efficiency"] = 0.6;
  const test::ScenarioOutcome det = test::run_scenario_json(doc);
  const test::ScenarioOutcome unpacked = test::run_scenario_json(test::rich_sweep_json());
  // The hybrid plan bursts more with packing 0.6, so the figure moved (the test is not vacuous).
  CHECK(det.run.plans[1].npv_usd != unpacked.run.plans[1].npv_usd);
  const Scenario s = test::load_sweep_scenario(doc);
  const test::OnePointRun r = test::run_one_point(s, 7, 2);
  for (int j = 0; j < 3; ++j) {
    CAPTURE(j);
    CHECK(r.chunk.plans[j].fleet.packing_efficiency == (j == 0 ? 1.0 : 0.6));
    CHECK(r.point.deterministic_npv_usd[j] == det.run.plans[j].npv_usd);
    CHECK(r.npv(j, 1) == doctest::Approx(det.run.plans[j].npv_usd).epsilon(1e-12));
    const SweepPathResult device_loop = sweep_plan_path(r.chunk.points[0], r.chunk.plans[j], r.chunk.data.data(), 1, nullptr);
    CHECK(device_loop.status == kSweepOk);
    CHECK(device_loop.npv_usd == doctest::Approx(det.run.plans[j].npv_usd).epsilon(1e-12));
  }
}

TEST_CASE("calibration: the discrete-event replay ignores packing_efficiency (it packs jobs itself)") {
  Json doc = jobs_scenario({{"steady", {{"gpus", 15}, {"gpus_per_job", 5}, {"job_duration_h", 24}}}}, 1);
  Json packed = doc;
  packed["onprem"]["packing_efficiency"] = 0.5;
  MonteCarloOptions o;
  o.paths = 1;
  const MonteCarloRun a = run_monte_carlo(test::load_des_scenario(doc), o);
  const MonteCarloRun b = run_monte_carlo(test::load_des_scenario(packed), o);
  CHECK(a.npv_by_path == b.npv_by_path);
  CHECK(a.run.plans[1].gpu_hours.onprem_busy == b.run.plans[1].gpu_hours.onprem_busy);
}

TEST_CASE("calibration: a job's demand on the hourly grid (hand-computed)") {
  // 4 GPUs from 0.5 h for 2 h: hour 0 gets 4 x 0.5 = 2, hour 1 gets 4, hour 2 gets 4 x 0.5 = 2.
  // 1 GPU from 2.25 h for 10 h is clipped at the 4-hour horizon: 0.75 in hour 2, 1 in hour 3.
  // 2 GPUs from 3.2 to 3.7 h: 2 x 0.5 = 1 in hour 3.
  HourlyJobDemand d(4);
  d.add(0.5, 2.0, 4);
  d.add(2.25, 10.0, 1);
  d.add(3.2, 0.5, 2);
  const std::vector<double> g = d.gpus_by_hour();
  REQUIRE(g.size() == 4);
  CHECK(g[0] == doctest::Approx(2.0).epsilon(1e-15));
  CHECK(g[1] == doctest::Approx(4.0).epsilon(1e-15));
  CHECK(g[2] == doctest::Approx(2.75).epsilon(1e-15));
  CHECK(g[3] == doctest::Approx(2.0).epsilon(1e-15));
  // Steady jobs: 16 GPUs as two 8-GPU jobs of 24 h, back to back: 16 every hour; the same
  // with 1 and 2 threads.
  const Scenario s = test::load_des_scenario(
      jobs_scenario({{"steady", {{"gpus", 16}, {"gpus_per_job", 8}, {"job_duration_h", 24}}}}, 1));
  const std::vector<double> one = mean_job_demand_by_hour(s, 3, 3, 1);
  const std::vector<double> two = mean_job_demand_by_hour(s, 3, 3, 2);
  CHECK(one == two);
  REQUIRE(one.size() == 730);
  for (long h : {0L, 23L, 24L, 729L}) CHECK(one[h] == 16.0);
}

TEST_CASE("calibration: whole-node jobs pack perfectly: fitted packing 1 and fluid NPV = replay NPV") {
  // 16 GPUs as two 8-GPU jobs of 24 h, back to back, over 2 months (1,460 h), no spot, no
  // failures. The replay runs each job on a whole node (buy-2) or one 8-GPU instance (cloud):
  // 16 GPUs busy, or 2 instances billed, in every hour, exactly what the fluid model does with
  // demand 16. So the fit is packing 1 (busy 16 x 1,460 = 23,360 GPU-hours on both sides), and
  // the NPVs agree to rounding: the replay bills each job's 24 h as 86,400 one-second granules and
  // sums by event, the fluid model by hour; 1e-9 relative covers those last bits only.
  const Json doc = jobs_scenario({{"steady", {{"gpus", 16}, {"gpus_per_job", 8}, {"job_duration_h", 24}}}}, 2);
  const CalibrationResult r = calibrate_json(doc, 2);
  CHECK(r.paths == 2);
  CHECK(r.demand_gpu_hours == doctest::Approx(16.0 * 1460).epsilon(1e-12));
  const PlanCalibration& buy = calibrated(r, "buy-2");
  CHECK(buy.packing.status == FactorFit::Status::fitted);
  CHECK(buy.packing.value == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(buy.packing.des_gpu_hours == doctest::Approx(16.0 * 1460).epsilon(1e-9));
  CHECK(buy.spot_overhead.status == FactorFit::Status::not_fitted);
  for (const auto& p : r.plans) {
    CAPTURE(p.name);
    CHECK(p.fluid_npv_before_usd == doctest::Approx(p.des_npv_usd.mean).epsilon(1e-9));
    CHECK(p.fluid_npv_after_usd == doctest::Approx(p.des_npv_usd.mean).epsilon(1e-9));
    CHECK(p.des_half_width_usd() == doctest::Approx(0.0).epsilon(1e-9));  // no randomness: every path the same
    CHECK(std::abs(p.difference_after_usd.mean) <= 1e-9 * p.des_npv_usd.mean);  // paired by path
  }
  // A cloud plan owns nothing: no on-prem packing to fit. Its 8-GPU jobs fill 8-GPU instances:
  // the replay bills 16 x 1,460 = 23,360 GPU-hours; each stream completes 60 jobs of 24 h (the 61st runs at the horizon's end, billed, not completed): work
  // 16 x 1,440, rho = 1,460 / 1,440. The fluid model bills 2 instances (23,360) at q = 1, 324
  // short of 1,460 / 1,440 x 23,360; any q < 1 bills 3 (35,040): the nearer step is q = 1.
  const PlanCalibration& cloud = calibrated(r, "cloud");
  CHECK(cloud.packing.status == FactorFit::Status::not_fitted);
  CHECK(cloud.cloud_packing.status == FactorFit::Status::fitted);
  CHECK(cloud.cloud_packing.value == 1.0);
  CHECK(cloud.cloud_packing.des_ratio == doctest::Approx(1460.0 / 1440.0).epsilon(1e-9));
  CHECK(cloud.merge_patch == Json{{"cloud", {{"packing_efficiency", 1.0}}}});
  // buy-2 serves everything on-prem: no cloud work, no cloud packing.
  CHECK(buy.cloud_packing.status == FactorFit::Status::not_fitted);
  CHECK(buy.merge_patch == Json{{"onprem", {{"packing_efficiency", buy.packing.value}}}});
}

TEST_CASE("calibration: 5-GPU jobs on 8-GPU nodes fit packing 10/16 (hand-computed)") {
  // 15 GPUs as three streams of 5-GPU jobs of 24 h. The replay puts one 5-GPU job on each
  // node (a job smaller than a node packs into one node: 8 - 5 = 3 GPUs are left on each, too few
  // for the third), so the third job waits max_wait_h = 1 h and bursts: on-prem busy is 10 GPUs
  // in every hour. The fluid model serves min(15, 16 p) GPUs per hour, so 16 p = 10 and
  // p = 10 / 16 = 0.625.
  // After calibration the fluid model bursts 15 - 10 = 5 GPUs -> one 8-GPU instance every hour;
  // the replay's third stream runs on one instance from t = 1 h (each job waits 1 h, and starts
  // when its predecessor ends at 24 k + 25): 1 instance-hour ($16) less over the horizon, about
  // 1e-3 of the NPV. Before calibration (p = 1) the fluid model bursts nothing.
  const Json doc = jobs_scenario({{"steady", {{"gpus", 15}, {"gpus_per_job", 5}, {"job_duration_h", 24}}}}, 2);
  const CalibrationResult r = calibrate_json(doc, 1);
  const PlanCalibration& buy = calibrated(r, "buy-2");
  CHECK(buy.packing.des_gpu_hours == doctest::Approx(10.0 * 1460).epsilon(1e-9));
  CHECK(buy.packing.fluid_before_gpu_hours == doctest::Approx(15.0 * 1460).epsilon(1e-12));
  CHECK(buy.packing.status == FactorFit::Status::fitted);
  CHECK(buy.packing.value == doctest::Approx(0.625).epsilon(1e-9));
  CHECK(buy.packing.fluid_after_gpu_hours == doctest::Approx(10.0 * 1460).epsilon(1e-9));
  CHECK(std::abs(buy.relative_after()) < 1e-3);
  CHECK(std::abs(buy.relative_after()) < std::abs(buy.relative_before()));
  // The same bits on 2 threads (paths reduced in path order).
  const Scenario sc = test::load_des_scenario(doc);
  CalibrationOptions two;
  two.paths = 1;
  two.seed = 11;
  two.threads = 2;
  const CalibrationResult r2 = calibrate(sc, two);
  CHECK(calibrated(r2, "buy-2").packing.value == buy.packing.value);
  CHECK(calibrated(r2, "buy-2").fluid_npv_after_usd == buy.fluid_npv_after_usd);
  // The merge patch, pasted into the plan, makes the fitted figures the scenario's own: a second
  // calibration starts from them and has nothing left to move.
  Json patched = doc;
  patched["plans"][1].merge_patch(buy.merge_patch);
  const CalibrationResult again = calibrate_json(patched, 1);
  const PlanCalibration& buy_again = calibrated(again, "buy-2");
  CHECK(buy_again.packing.before == buy.packing.value);
  CHECK(buy_again.fluid_npv_before_usd == buy.fluid_npv_after_usd);
  CHECK(buy_again.packing.value == doctest::Approx(buy.packing.value).epsilon(1e-9));
}

TEST_CASE("calibration: spot overhead is 1 without preemptions and above 1 with them") {
  // 64 GPUs as eight streams of 8-GPU jobs of 24 h, all preemptible, on 1-GPU instances
  // (test/gpu1: $2/h on-demand, $1/h spot), over 2 months (1,460 h); a plan all on spot, tries
  // unlimited (no fallback to on-demand), checkpoints every hour.
  Json doc = jobs_scenario({{"steady",
                             {{"gpus", 64}, {"gpus_per_job", 8}, {"job_duration_h", 24}, {"preemptible_fraction", 1.0},
                              {"checkpoint_h", 1.0}}}},
                           2);
  doc["cloud"] = {{"offer", "test/gpu1/region-a"},
                  {"spot", {{"preemptions_per_instance_hour", 0.0}, {"checkpoint_write_h", 0.0}, {"restart_h", 0.1},
                            {"max_tries", 1000}}}};
  doc["plans"] = Json::parse(R"([{"name": "on-demand", "kind": "cloud"},
                                  {"name": "spot", "kind": "cloud", "spot_share": 1.0}])");
  doc["baseline"] = "on-demand";

  SUBCASE("no preemptions, no checkpoint writes: the replay bills 64 GPUs every hour, as the fluid model") {
    // 8 jobs x 8 instances x 1,460 h = 93,440 spot GPU-hours on both sides: factor 1.
    const CalibrationResult r = calibrate_json(doc, 1);
    const PlanCalibration& spot = calibrated(r, "spot");
    CHECK(spot.spot_overhead.des_gpu_hours == doctest::Approx(64.0 * 1460).epsilon(1e-9));
    CHECK(spot.spot_overhead.status == FactorFit::Status::fitted);
    CHECK(spot.spot_overhead.value == doctest::Approx(1.0).epsilon(1e-6));
    CHECK(spot.fluid_npv_after_usd == doctest::Approx(spot.des_npv_usd.mean).epsilon(1e-9));
  }
  SUBCASE("preemptions: the factor rises above 1 and the fluid bill meets the replay's within one instance-hour per hour") {
    // Rate 0.01 per instance-hour: a job on 8 instances is preempted 0.08 times an hour. Rough
    // expectation: writes add w / c = 0.05 / 1 = 5% wall time; each preemption loses about half a
    // piece, (1 + 0.05) / 2 = 0.525 h, plus the 0.1 h restart: 0.08 x 0.625 = 5% more. So about
    // 1.05 x 1.05 = 1.10; the band [1.05, 1.16] allows for the approximation and the horizon's end.
    doc["cloud"]["spot"]["preemptions_per_instance_hour"] = 0.01;
    doc["cloud"]["spot"]["checkpoint_write_h"] = 0.05;
    const CalibrationResult r = calibrate_json(doc, 2);
    const PlanCalibration& spot = calibrated(r, "spot");
    CHECK(spot.spot_overhead.status == FactorFit::Status::fitted);
    CHECK(spot.spot_overhead.value > 1.05);
    CHECK(spot.spot_overhead.value < 1.16);
    // The fluid model bills ceil(64 s) 1-GPU instances per hour: its steps are 1,460 GPU-hours
    // apart, and the fit keeps the nearer one.
    CHECK(std::abs(spot.spot_overhead.fluid_after_gpu_hours - spot.spot_overhead.des_gpu_hours) <= 0.5 * 1460 + 1e-6);
    CHECK(std::abs(spot.relative_after()) < std::abs(spot.relative_before()));
    CHECK(spot.merge_patch == Json{{"cloud", {{"spot_overhead_factor", spot.spot_overhead.value}}}});
    // Cloud packing is not fitted on a spot plan (the replay does not split spot and on-demand
    // work). The on-demand plan's jobs fill their 1-GPU instances but write checkpoints, 5% of
    // wall time: rho about 1.05 and q about 1 / 1.05 = 0.952 (the band allows for the horizon's end).
    CHECK(spot.cloud_packing.status == FactorFit::Status::not_fitted);
    const PlanCalibration& od = calibrated(r, "on-demand");
    CHECK(od.cloud_packing.status == FactorFit::Status::fitted);
    CHECK(od.cloud_packing.value > 0.94);
    CHECK(od.cloud_packing.value < 0.965);
  }
}

TEST_CASE("calibration CLI: a scenario without jobs is exit 2 naming the file and /jobs, the JSON output") {
  const auto dir = test::scratch_dir("calibrate-cli");
  const std::string no_jobs = test::write_json_file(dir / "no-jobs.json", test::base_scenario_json());
  const test::CliResult bad = test::run_cli({"calibrate", no_jobs});
  CHECK(bad.exit_code == kExitBadInput);
  CHECK(bad.err.find(no_jobs) != std::string::npos);
  CHECK(bad.err.find("/jobs") != std::string::npos);

  const Json doc = jobs_scenario({{"steady", {{"gpus", 15}, {"gpus_per_job", 5}, {"job_duration_h", 24}}}}, 1);
  const std::string scenario = test::write_json_file(dir / "jobs.json", doc);
  const std::string out = (dir / "calibration.json").string();
  const test::CliResult ok = test::run_cli({"calibrate", scenario, "--paths", "1", "--seed", "5", "--out", out});
  REQUIRE(ok.exit_code == kExitOk);
  CHECK(ok.out.find("buy-2") != std::string::npos);
  CHECK(ok.out.find("\"onprem\":{\"packing_efficiency\":0.625") != std::string::npos);
  CHECK(ok.out.find("cloud pk") != std::string::npos);
  const Json j = Json::parse(test::read_text_file(out));
  CHECK(j.at("seed") == 5);
  CHECK(j.at("paths") == 1);
  const Json& buy = j.at("plans").at(1);
  CHECK(buy.at("pointer") == "/plans/1");
  CHECK(buy.at("merge_patch").at("onprem").at("packing_efficiency").get<double>() == doctest::Approx(0.625).epsilon(1e-9));
  CHECK(buy.at("packing_efficiency").at("status") == "fitted");
  CHECK(buy.at("cloud_packing_efficiency").contains("des_billed_per_cloud_work"));
  CHECK(buy.at("merge_patch").at("cloud").contains("packing_efficiency"));

  const test::CliResult zero = test::run_cli({"calibrate", scenario, "--paths", "0"});
  CHECK(zero.exit_code == kExitBadInput);
}

TEST_CASE("packing: cloud packing 0.5 bills ceil(GPUs / (8 x 0.5)) 8-GPU instances (hand-computed)") {
  // Cloud plan on 8-GPU instances at $16/h on-demand, $8/h spot. Cloud packing q = 0.5, so
  // 1 / q = 2 GPUs billed per GPU of demand:
  //   4 GPUs of overflow:  ceil(4 / (8 x 0.5)) = ceil(1) = 1 instance  -> 8 GPU-hours, $16
  //   12 GPUs of overflow: ceil(12 / 4) = 3 instances                  -> 24 GPU-hours, $48
  // (q = 1: ceil(12 / 8) = 2 instances, $32.) Half on spot (spot_share 0.5), 12 GPUs: 6 spot
  // GPUs -> ceil(6 / 4) = 2 spot instances ($16), 6 on-demand -> 2 instances ($32).
  FleetParams f;
  f.gpus_per_instance = 8.0;
  f.cloud_billed_per_gpu = 1.0 / 0.5;
  f.on_demand_usd_per_instance_hour = 16.0;
  f.spot_usd_per_instance_hour = 8.0;
  HourInputs in;
  in.demand_gpus = 4.0;
  HourOutcome o = step_hour(f, in, 0.0);
  CHECK(o.cloud_work == 4.0);
  CHECK(o.on_demand_billed_gpus == 8.0);
  CHECK(o.on_demand_usd == 16.0);
  in.demand_gpus = 12.0;
  o = step_hour(f, in, 0.0);
  CHECK(o.cloud_work == 12.0);  // the work is unchanged; only the bill
  CHECK(o.on_demand_billed_gpus == 24.0);
  CHECK(o.on_demand_usd == 48.0);
  CHECK(step_hour(f, in, 0.0, PowerOfTwoDivision{}).on_demand_usd == 48.0);
  f.spot_share = 0.5;
  o = step_hour(f, in, 0.0);
  CHECK(o.spot_billed_gpus == 16.0);
  CHECK(o.spot_usd == 16.0);
  CHECK(o.on_demand_billed_gpus == 16.0);
  CHECK(o.on_demand_usd == 32.0);
  // Reserved capacity is not divided: 2 reserved instances (16 GPUs) take all 12 GPUs.
  f.spot_share = 0.0;
  f.reserved_gpus = 16.0;
  o = step_hour(f, in, 0.0);
  CHECK(o.reserved_used_gpus == 12.0);
  CHECK(o.on_demand_billed_gpus == 0.0);
  f.reserved_gpus = 0.0;
  f.cloud_billed_per_gpu = 1.0;
  CHECK(step_hour(f, in, 0.0).on_demand_usd == 32.0);

  // Through a scenario: 12 GPUs every hour for 12 months (8,760 h); the cloud plan patches its
  // cloud section with q = 0.5: 8,760 x $48 = $420,480 on-demand, against 8,760 x $32 = $280,320.
  Json doc = test::base_scenario_json();
  doc["workload"]["profiles"][0]["gpus"] = 12;
  doc["plans"].push_back({{"name", "cloud-packed"}, {"kind", "cloud"}, {"cloud", {{"packing_efficiency", 0.5}}}});
  const test::ScenarioOutcome r = test::run_scenario_json(doc);
  const PlanResult& packed = r.plan("cloud-packed");
  const PlanResult& plain = r.plan("cloud");
  CHECK(packed.gpu_hours.on_demand_billed == doctest::Approx(24.0 * 8760).epsilon(1e-12));
  CHECK(packed.gpu_hours.cloud_work == doctest::Approx(12.0 * 8760).epsilon(1e-12));
  CHECK(packed.ledger.category_total_usd(Category::cloud_on_demand) == doctest::Approx(420480.0).epsilon(1e-12));
  CHECK(plain.ledger.category_total_usd(Category::cloud_on_demand) == doctest::Approx(280320.0).epsilon(1e-12));
  // The resolved inputs show the value every plan runs with, the default included.
  CHECK(r.scenario.plans.back().resolved.at("cloud").at("packing_efficiency") == 0.5);
  CHECK(r.scenario.plans[0].resolved.at("cloud").at("packing_efficiency") == 1.0);
}

TEST_CASE("packing: cloud packing 1 leaves the sweep's numbers bit for bit, and 0.5 steps the CPU sweep and the device loop alike") {
  const Json doc0 = test::rich_sweep_json();
  Json doc = doc0;
  doc["cloud"]["packing_efficiency"] = 1.0;
  const test::OnePointRun a = test::run_one_point(test::load_sweep_scenario(doc0), 7, 2);
  const test::OnePointRun b = test::run_one_point(test::load_sweep_scenario(doc), 7, 2);
  for (int j = 0; j < 3; ++j) {
    CAPTURE(j);
    CHECK(a.point.deterministic_npv_usd[j] == b.point.deterministic_npv_usd[j]);
    CHECK(a.npv(j, 1) == b.npv(j, 1));
  }
  doc["cloud"]["packing_efficiency"] = 0.5;
  const test::ScenarioOutcome det = test::run_scenario_json(doc);
  const Scenario s = test::load_sweep_scenario(doc);
  const test::OnePointRun r = test::run_one_point(s, 7, 2);
  bool moved = false;
  for (int j = 0; j < 3; ++j) {
    CAPTURE(j);
    CHECK(r.chunk.plans[j].fleet.cloud_billed_per_gpu == (s.plans[j].cloud ? 2.0 : 1.0));
    CHECK(r.point.deterministic_npv_usd[j] == det.run.plans[j].npv_usd);
    moved = moved || r.point.deterministic_npv_usd[j] != a.point.deterministic_npv_usd[j];
    const SweepPathResult device_loop = sweep_plan_path(r.chunk.points[0], r.chunk.plans[j], r.chunk.data.data(), 1, nullptr);
    CHECK(device_loop.status == kSweepOk);
    CHECK(device_loop.npv_usd == doctest::Approx(r.npv(j, 1)).epsilon(1e-12));
  }
  CHECK(moved);  // some plan bursts: the test is not vacuous
}

TEST_CASE("packing: cloud packing_efficiency of 0, below 0 or above 1 is an input error naming its pointer (exit 2)") {
  for (double bad : {0.0, -0.5, 1.5}) {
    CAPTURE(bad);
    Json doc = test::base_scenario_json();
    doc["plans"][0]["cloud"] = {{"packing_efficiency", bad}};
    try {
      load_scenario_json(doc, "packing.json", test::source_path("tests"));
      FAIL("accepted cloud packing_efficiency " << bad);
    } catch (const InputError& e) {
      CHECK(e.file() == "packing.json");
      CHECK(e.where() == "/plans/0/cloud/packing_efficiency");
    }
    Json top = test::base_scenario_json();
    top["cloud"]["packing_efficiency"] = bad;
    const auto dir = test::scratch_dir("cloud-packing-bad");
    const std::string file = test::write_json_file(dir / "bad.json", top);
    const test::CliResult cli = test::run_cli({"run", file});
    CHECK(cli.exit_code == kExitBadInput);
    CHECK(cli.err.find("/cloud/packing_efficiency") != std::string::npos);
  }
}

TEST_CASE("packing: the discrete-event replay ignores cloud packing_efficiency (it rounds each job itself)") {
  Json doc = jobs_scenario({{"steady", {{"gpus", 4}, {"gpus_per_job", 1}, {"job_duration_h", 24}}}}, 1);
  Json packed = doc;
  packed["cloud"]["packing_efficiency"] = 0.25;
  MonteCarloOptions o;
  o.paths = 1;
  const MonteCarloRun a = run_monte_carlo(test::load_des_scenario(doc), o);
  const MonteCarloRun b = run_monte_carlo(test::load_des_scenario(packed), o);
  CHECK(a.npv_by_path == b.npv_by_path);
  CHECK(a.run.plans[0].gpu_hours.on_demand_billed == b.run.plans[0].gpu_hours.on_demand_billed);
}

TEST_CASE("calibration: 1-GPU jobs on 8-GPU instances fit cloud packing 1/8 and close the NPV gap (hand-computed)") {
  // 4 GPUs as four streams of 1-GPU jobs of 10 h, back to back, over 2 months (1,460 h, room for
  // 146 jobs per stream); a cloud plan on test/gpu8 ($16/h per 8-GPU instance). The replay puts
  // every job on its own instance: 4 instances, 32 x 1,460 = 46,720 GPU-hours billed. Its cloud
  // work counts completed jobs: the 146th of each stream ends at the horizon and is billed but
  // not completed, so work = 4 x 145 x 10 = 5,800 and rho = 46,720 / 5,800 = 8.05517.
  // The fluid model's cloud work is 4 x 1,460 = 5,840: target 8.05517 x 5,840 = 47,042.2.
  // It bills 8 x 1,460 x ceil(4 / (8 q)) = 11,680 ceil(0.5 / q): at q = 1, 11,680 (ratio 2, a
  // quarter of the replay: NPV -75%); 4 instances (46,720, 322 short) for q in [1/8, 1/6),
  // 5 instances (58,400, 11,358 over) for q in [1/10, 1/8). The crossing is at q = 1/8, the
  // nearer side is 4 instances, and rounding the edge up to 4 decimals gives q = 0.125 exactly.
  // Then the fluid model bills 4 x $16 every hour, as the replay does: NPVs within 1e-9 (the
  // replay bills seconds by event, the fluid model hours).
  Json doc = jobs_scenario({{"steady", {{"gpus", 4}, {"gpus_per_job", 1}, {"job_duration_h", 10}}}}, 2);
  doc["plans"] = Json::parse(R"([{"name": "cloud", "kind": "cloud"}])");
  doc["baseline"] = "cloud";
  const CalibrationResult r = calibrate_json(doc, 1);
  const PlanCalibration& cloud = calibrated(r, "cloud");
  CHECK(cloud.des_cloud_work_gpu_hours == doctest::Approx(5800.0).epsilon(1e-9));
  CHECK(cloud.cloud_packing.des_gpu_hours == doctest::Approx(46720.0).epsilon(1e-9));
  CHECK(cloud.cloud_packing.des_ratio == doctest::Approx(46720.0 / 5800.0).epsilon(1e-9));
  CHECK(cloud.cloud_packing.fluid_before_gpu_hours == doctest::Approx(11680.0).epsilon(1e-12));
  CHECK(cloud.cloud_packing.status == FactorFit::Status::fitted);
  CHECK(cloud.cloud_packing.value == 0.125);
  CHECK(cloud.cloud_packing.fluid_after_gpu_hours == doctest::Approx(46720.0).epsilon(1e-12));
  CHECK(cloud.cloud_packing.fluid_ratio_after == doctest::Approx(8.0).epsilon(1e-12));
  CHECK(cloud.relative_before() == doctest::Approx(-0.75).epsilon(1e-3));
  CHECK(std::abs(cloud.relative_after()) < 1e-9);
  CHECK(cloud.merge_patch == Json{{"cloud", {{"packing_efficiency", 0.125}}}});
  // Pasted into the plan, the patch makes the fluid model's figure the calibrated one.
  Json patched = doc;
  patched["plans"][0].merge_patch(cloud.merge_patch);
  const CalibrationResult again = calibrate_json(patched, 1);
  CHECK(calibrated(again, "cloud").fluid_npv_before_usd == cloud.fluid_npv_after_usd);
  CHECK(calibrated(again, "cloud").des_npv_usd.mean == cloud.des_npv_usd.mean);  // the replay ignores it
}

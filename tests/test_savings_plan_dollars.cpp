// A savings plan over venues at different rates reports its use in dollars of commitment, as AWS
// measures a savings plan's utilization (issue #42 item 1; docs/model.md "Commitments"): committed,
// used and unused dollars, GPU-hours only where one rate per GPU-hour applies, nothing clamped.
// Before: committed GPU-hours were the dollars at the first venue's rate, used the GPU-hours
// covered at every venue, and unused was clamped at zero.
// One month (730 h) of a steady 100 GPUs (tests/venue_paths_support.hpp): aws-small holds its
// quota, 5 x 8-GPU instances, aws-large the other 60 GPUs, c(60 / 8) = 8 instances.
#include <string>

#include <doctest/doctest.h>

#include "des_support.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "reports/csv/csv_report.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "venue_paths_support.hpp"
#include "venue_support.hpp"

namespace tco::test {

namespace {

constexpr double kHours = 730.0;

// aws-small at `small_usd` on-demand (quota 40 GPUs) and aws-large at `large_usd`; a savings plan of
// `commitment_usd` an hour at `small_rate` and `large_rate`.
Json two_rate_doc(double small_usd, double small_rate, double large_usd, double large_rate, double commitment_usd) {
  const Json venues = Json::array(
      {hyperscaler({{"name", "aws-small"}, {"quota_gpus", 40}, {"offer", {{"id", "test/gpu8/region-a"}, {"on_demand_usd_per_hour", small_usd}}}}),
       hyperscaler({{"name", "aws-large"}, {"offer", {{"id", "test/gpu8/region-a"}, {"on_demand_usd_per_hour", large_usd}}}})});
  const Json plan = {{"kind", "savings_plan"},
                     {"name", "sp"},
                     {"usd_per_hour", commitment_usd},
                     {"term_months", 1},
                     {"venues", Json::array({{{"venue", "aws-small"}, {"usd_per_instance_hour", small_rate}},
                                             {{"venue", "aws-large"}, {"usd_per_instance_hour", large_rate}}})}};
  return savings_plan_venues_doc(1, 0.0, venues, plan);
}

// A copy: the callers pass a temporary outcome, which dies at the end of their statement.
CommitmentFigures figures_of(const ScenarioOutcome& o) {
  const PlanResult& r = o.plan("sp");
  REQUIRE(r.commitments.size() == 1);
  return r.commitments.front();
}

}  // namespace

TEST_CASE("savings plan in dollars: every dollar spent each hour is reported used, none unused (the issue's example)") {
  // aws-small $16, plan rate $10 (1 - 10/16 = 37.5% off, first); aws-large $20, rate $14 (30% off).
  // C = $150/h: aws-small covered min(5, 150 / 10) = 5, $50 used, $100 left; aws-large
  // min(8, 100 / 14 = 7.142857) = 7.142857, $100 used, $0 left. Every hour spends all $150:
  // committed = used = 150 x 730 = $109,500, unused $0. aws-large bills (8 - 50/7) x 20 x 730 =
  // 6/7 x 14,600 = $12,514.29; aws-small $0.
  // The old figures: committed 150 / 10 x 8 x 730 = 87,600 GPU-hours (the first venue's rate), used
  // (5 + 7.142857) x 8 x 730 = 70,914.29, unused 16,685.71 GPU-hours, 19% of the $109,500
  // ($20,857.14) reported unused though none was.
  const ScenarioOutcome o = run_scenario_json(two_rate_doc(16.0, 10.0, 20.0, 14.0, 150.0));
  const CommitmentFigures f = figures_of(o);
  CHECK(f.committed_usd == doctest::Approx(109500.0).epsilon(1e-12));
  CHECK(f.used_usd == doctest::Approx(109500.0).epsilon(1e-12));
  CHECK(f.unused_usd == doctest::Approx(0.0).scale(109500.0).epsilon(1e-12));
  CHECK(f.cost_nominal_usd == doctest::Approx(109500.0).epsilon(1e-12));
  CHECK(venue(o.plan("sp"), "aws-large").cost_usd == doctest::Approx(6.0 / 7.0 * 14600.0).epsilon(1e-12));
  CHECK(venue(o.plan("sp"), "aws-small").cost_usd == doctest::Approx(0.0).scale(1.0).epsilon(1e-12));
  // $10 / 8 and $14 / 8 per GPU-hour: GPU-hours of the commitment mean nothing; the report says n/a.
  CHECK_FALSE(f.gpu_hours_apply);
  const Json report = o.report();
  const Json& c = report.at("plans").at(1).at("commitments").at(0);
  CHECK(c.at("committed_usd").get<double>() == doctest::Approx(109500.0).epsilon(1e-12));
  CHECK(c.at("used_usd").get<double>() == doctest::Approx(109500.0).epsilon(1e-12));
  CHECK(c.at("committed_gpu_hours").is_null());
  CHECK(c.at("used_gpu_hours").is_null());
  CHECK(c.at("unused_gpu_hours").is_null());
  const std::string md = markdown_summary(report);
  CHECK(md.find("| sp | sp | savings_plan | $109,500 | $109,500 | $0 | n/a | n/a | n/a |") != std::string::npos);
  for (const auto& [name, text] : csv_tables(report))
    if (name == "commitments.csv")
      CHECK(text.find("sp,sp,savings_plan,109500.0,") != std::string::npos);
}

TEST_CASE("savings plan in dollars: used above committed in GPU-hours was clamped, in dollars the figures add up") {
  // aws-small $40, rate $20 (50% off, first); aws-large $10, rate $6 (40% off). C = $150/h:
  // aws-small min(5, 150 / 20) = 5, $100; aws-large min(8, 50 / 6 = 8.33) = 8, $48; $2 left.
  // committed 150 x 730 = $109,500, used 148 x 730 = $108,040, unused 2 x 730 = $1,460.
  // The old figures: committed 150 / 20 x 8 x 730 = 43,800 GPU-hours, used (5 + 8) x 8 x 730 =
  // 75,920 (more than committed), unused clamped to 0 and $0.
  const CommitmentFigures f = figures_of(run_scenario_json(two_rate_doc(40.0, 20.0, 10.0, 6.0, 150.0)));
  CHECK(f.committed_usd == doctest::Approx(109500.0).epsilon(1e-12));
  CHECK(f.used_usd == doctest::Approx(108040.0).epsilon(1e-12));
  CHECK(f.unused_usd == doctest::Approx(1460.0).epsilon(1e-9));
}

TEST_CASE("savings plan in dollars: one rate per GPU-hour keeps GPU-hours, and they agree with the dollars") {
  // Both venues at rate $12 (8 GPUs): $1.50 a GPU-hour. C = $200/h covers aws-large's 8 (first:
  // 1 - 12/20 = 40% off) for $96, then aws-small's 5 for $60: $156 used, $44 left.
  // committed 200 x 730 = $146,000 = 200 / 12 x 8 x 730 = 97,333.33 GPU-hours; used 156 x 730 =
  // $113,880 = 13 x 8 x 730 = 75,920 GPU-hours; unused $32,120 = 21,413.33 GPU-hours (x $1.50 =
  // $32,120). The old code clamped nothing here and agreed: the rule holds where it was right.
  const CommitmentFigures f = figures_of(run_scenario_json(two_rate_doc(16.0, 12.0, 20.0, 12.0, 200.0)));
  REQUIRE(f.gpu_hours_apply);
  CHECK(f.committed_usd == doctest::Approx(146000.0).epsilon(1e-12));
  CHECK(f.used_usd == doctest::Approx(113880.0).epsilon(1e-12));
  CHECK(f.unused_usd == doctest::Approx(32120.0).epsilon(1e-10));
  CHECK(f.committed_gpu_hours == doctest::Approx(200.0 / 12.0 * 8.0 * kHours).epsilon(1e-12));
  CHECK(f.used_gpu_hours == doctest::Approx(75920.0).epsilon(1e-12));
  CHECK(f.unused_gpu_hours * 1.5 == doctest::Approx(f.unused_usd).epsilon(1e-10));
}

TEST_CASE("savings plan in dollars: never clamped, so used never exceeds committed over sizes and availabilities") {
  // The property the old clamp hid: for any commitment and availability, used + unused =
  // committed and 0 <= used <= committed (up to rounding, 1e-12 of committed).
  for (const double commitment_usd : {20.0, 90.0, 150.0, 400.0})
    for (const double small_availability : {1.0, 0.5}) {
      CAPTURE(commitment_usd);
      CAPTURE(small_availability);
      Json doc = two_rate_doc(40.0, 20.0, 10.0, 6.0, commitment_usd);
      doc["plans"][1]["venues"][0]["availability"] = small_availability;
      const CommitmentFigures f = figures_of(run_scenario_json(doc));
      const double tolerance = 1e-12 * f.committed_usd;
      CHECK(f.committed_usd == doctest::Approx(commitment_usd * kHours).epsilon(1e-12));
      CHECK(f.used_usd + f.unused_usd == doctest::Approx(f.committed_usd).epsilon(1e-15));
      CHECK(f.used_usd >= 0.0);
      CHECK(f.unused_usd >= -tolerance);
    }
}

TEST_CASE("savings plan in dollars: the replay measures the cover's dollars at each venue's rate") {
  // aws-small's quota is one 8-GPU instance ($16, rate $10, first), aws-large at $20, rate $14.
  // Two 8-GPU jobs of 10 h at hour 0: one on each. C = $18/h: aws-small's 1 instance-hour covered
  // for $10, then 8 / 14 of aws-large's for $8: $18 used each of hours 0..9, $180 in all; GPU-hours
  // (1 + 4/7) x 8 x 10 = 125.71.
  Json doc = des_scenario_json({{"steady", {{"gpus", 8}, {"gpus_per_job", 8}, {"job_duration_h", 10}}}});
  const Json two = two_rate_doc(16.0, 10.0, 20.0, 14.0, 18.0);
  Json venues = two["plans"][1]["venues"];
  venues[0]["quota_gpus"] = 8;
  Json plan = two["plans"][1];
  plan["venues"] = venues;
  plan["commitments"][0]["term_months"] = 12;
  doc["plans"] = Json::array({plan});
  doc["baseline"] = "sp";
  const des::PathOutcome o = replay_first_plan(doc, {job_at(0.0, 8, 10.0), job_at(0.0, 8, 10.0)});
  REQUIRE(o.commitment_used_usd.size() == 1);
  CHECK(o.commitment_used_usd[0] == doctest::Approx(180.0).epsilon(1e-12));
  CHECK(o.commitment_used_gpu_hours[0] == doctest::Approx((1.0 + 4.0 / 7.0) * 80.0).epsilon(1e-12));
}

}  // namespace tco::test

// Sensitivity (engine/decisions/sensitivity.hpp, tcosim sensitivity): the tornado's zero bar and swapped
// sides, standardised regression coefficients of a known linear model, the coefficient of an input
// that does not enter the model within noise of 0, and the command's report.
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "engine/decisions/sensitivity.hpp"
#include "engine/montecarlo/uncertain_paths.hpp"
#include "engine/decisions/uncertainty_analysis.hpp"
#include "scenario_builder.hpp"

using namespace tco;
using namespace tco::test;

namespace {

Json input(const std::string& name, const std::string& pointer, double low, double high) {
  return {{"name", name},
          {"pointer", pointer},
          {"distribution", {{"type", "uniform"}, {"low", low}, {"high", high}}}};
}

// base_scenario_json (16 GPUs steady for 12 months; cloud vs a 2-node hybrid) with: the cloud
// price change (enters the cloud bill of both plans, the baseline's more), maintenance (enters
// the hybrid's), a zero-width AFR (enters nothing: the fluid model's deterministic run has no
// failures, and its range is zero anyway) and the staff escalation, which enters nothing at all:
// the plans have no staff.
Json sensitivity_scenario() {
  Json doc = base_scenario_json();
  doc["cloud"]["price_change_per_year"] = 0.0;
  doc["onprem"]["staff"] = {{"escalation_per_year", 0.03}};
  doc["onprem"]["failures"] = {{"afr_per_year", 0.05}};
  doc["monte_carlo"] = {{"paths", 400}, {"seed", 9}};
  doc["uncertain"] = {{"inputs",
                       {input("cloud price change", "/cloud/price_change_per_year", -0.3, 0.1),
                        input("maintenance", "/onprem/maintenance_per_year", 0.02, 0.12),
                        input("afr (zero width)", "/onprem/failures/afr_per_year", 0.05, 0.05),
                        input("staff escalation", "/onprem/staff/escalation_per_year", 0.0, 0.1)}}};
  return doc;
}

UncertaintyInputs inputs_of(const Json& doc, std::optional<long> paths = std::nullopt) {
  return make_uncertainty_inputs(doc, "test-scenario.json", source_path("tests"), "", paths, std::nullopt);
}

const TornadoBar& bar(const Tornado& t, const std::string& name) {
  for (const auto& b : t.bars)
    if (b.input == name) return b;
  FAIL("no bar for " << name);
  return t.bars.front();
}

}  // namespace

TEST_CASE("tornado: a zero-range input has a zero bar, swapping low and high swaps the bar's sides") {
  const UncertaintyInputs in = inputs_of(sensitivity_scenario());
  const ScenarioOutcomes base = evaluate_outcomes(in.base);
  const Tornado t = tornado(in, in.base.uncertain->inputs, 1, base, 2);
  CHECK(t.plan == "buy-2");
  CHECK(t.baseline == "cloud");
  CHECK(t.base_saving_usd == base.npv_usd[0] - base.npv_usd[1]);
  // Zero range: both ends are the base value, the bar is the base saving at both ends.
  const TornadoBar& afr = bar(t, "afr (zero width)");
  CHECK(afr.swing_usd == 0.0);
  CHECK(afr.saving_at_low_usd == t.base_saving_usd);
  CHECK(afr.saving_at_high_usd == t.base_saving_usd);
  // An input that enters no cost: a zero bar too.
  CHECK(bar(t, "staff escalation").swing_usd == 0.0);
  // Dearer maintenance lowers the hybrid's saving. The tornado's ends are uniform(0.02, 0.12)'s
  // P10 and P90, 0.03 and 0.11: 0.08 of capex a year more = 0.08 x 400,000 = 32,000 USD over the
  // 12 months at a 0 % rate (base_scenario_json: 2 nodes x 200,000).
  const TornadoBar& maintenance = bar(t, "maintenance");
  CHECK(maintenance.low == doctest::Approx(0.03).epsilon(1e-14));
  CHECK(maintenance.high == doctest::Approx(0.11).epsilon(1e-14));
  CHECK(maintenance.saving_at_low_usd - maintenance.saving_at_high_usd == doctest::Approx(32000.0).epsilon(1e-9));
  // Sorted by swing, largest first.
  for (std::size_t i = 1; i < t.bars.size(); ++i) CHECK(t.bars[i - 1].swing_usd >= t.bars[i].swing_usd);

  // The same inputs with low and high swapped: each bar's sides swap, the order stays.
  std::vector<UncertainInput> swapped = in.base.uncertain->inputs;
  for (auto& i : swapped) std::swap(i.low, i.high);
  const Tornado s = tornado(in, swapped, 1, base, 1);
  REQUIRE(s.bars.size() == t.bars.size());
  for (std::size_t i = 0; i < t.bars.size(); ++i) {
    CAPTURE(t.bars[i].input);
    CHECK(s.bars[i].input == t.bars[i].input);
    CHECK(s.bars[i].saving_at_low_usd == t.bars[i].saving_at_high_usd);
    CHECK(s.bars[i].saving_at_high_usd == t.bars[i].saving_at_low_usd);
    CHECK(s.bars[i].swing_usd == t.bars[i].swing_usd);
  }
}

TEST_CASE("SRC: a linear model's standardised coefficients are b_i sd(x_i) / sd(y), with R^2 = 1") {
  // y = 5 + 2 x1 - 3 x2 on a fixed design; SRC_i = b_i s_i / s_y with the sample standard
  // deviations, exactly (the regression on standardised variables recovers the slopes).
  const long n = 50;
  std::vector<std::vector<double>> x(2, std::vector<double>(n));
  std::vector<double> y(n);
  for (long p = 0; p < n; ++p) {
    x[0][p] = std::sin(0.7 * p) * 3.0;
    x[1][p] = std::cos(1.3 * p) + 0.01 * p;
    y[p] = 5.0 + 2.0 * x[0][p] - 3.0 * x[1][p];
  }
  auto sd = [n](const std::vector<double>& v) {
    double mean = 0.0, ss = 0.0;
    for (double a : v) mean += a / n;
    for (double a : v) ss += (a - mean) * (a - mean);
    return std::sqrt(ss / (n - 1));
  };
  const SrcResult r = standardized_regression(x, y);
  REQUIRE(r.src[0].has_value());
  REQUIRE(r.src[1].has_value());
  CHECK(*r.src[0] == doctest::Approx(2.0 * sd(x[0]) / sd(y)).epsilon(1e-12));
  CHECK(*r.src[1] == doctest::Approx(-3.0 * sd(x[1]) / sd(y)).epsilon(1e-12));
  REQUIRE(r.r_squared.has_value());
  CHECK(*r.r_squared == doctest::Approx(1.0).epsilon(1e-12));

  // Independent standardised inputs, y = 2 x1 - 3 x2 (header example): SRC -> (2, -3) / sqrt(13)
  // and an unrelated x3 -> 0, to sampling noise ~1/sqrt(n) (n = 20,000: tolerance 0.02).
  const long m = 20000;
  UncertainSpec spec;
  for (int i = 0; i < 3; ++i) {
    UncertainInput in;
    in.distribution.type = UncertainDistribution::Type::normal;
    in.distribution.sd = 1.0;
    spec.inputs.push_back(in);
  }
  const auto z = draw_uncertain_values(spec, m, 17);
  std::vector<double> w(m);
  for (long p = 0; p < m; ++p) w[p] = 2.0 * z[0][p] - 3.0 * z[1][p];
  const SrcResult s = standardized_regression(z, w);
  CHECK(*s.src[0] == doctest::Approx(2.0 / std::sqrt(13.0)).epsilon(0.02));
  CHECK(*s.src[1] == doctest::Approx(-3.0 / std::sqrt(13.0)).epsilon(0.02));
  CHECK(std::fabs(*s.src[2]) < 1e-9);  // the fit is exact: x3's coefficient is 0 to rounding
  CHECK(*s.r_squared == doctest::Approx(1.0).epsilon(1e-12));
  // A constant input has no coefficient.
  const SrcResult c = standardized_regression({z[0], z[1], std::vector<double>(m, 4.0)}, w);
  CHECK_FALSE(c.src[2].has_value());
}

TEST_CASE("SRC: an input that does not enter the model is within noise of 0, the others explain the saving") {
  // The staff escalation enters no cost (no staff), so its coefficient is only the sampling
  // correlation of an independent input with the response, ~N(0, 1/n): |SRC| < 2 / sqrt(n) = 0.1
  // at n = 400 (95 % of seeds; here the response is almost exactly linear in the other inputs, so
  // it is far smaller still).
  const UncertaintyInputs in = inputs_of(sensitivity_scenario());
  const UncertaintyAnalysis a = analyse_uncertainty(in, "buy-2", 2);
  REQUIRE(a.src.n == 400);
  const double noise = 2.0 / std::sqrt(400.0);
  REQUIRE(a.src.src[3].has_value());
  CHECK(std::fabs(*a.src.src[3]) < noise);
  // The zero-width input did not vary: no coefficient.
  CHECK_FALSE(a.src.src[2].has_value());
  // Cloud price change and maintenance explain the saving (nearly linear over these ranges).
  REQUIRE(a.src.r_squared.has_value());
  CHECK(*a.src.r_squared > 0.99);
  // A dearer cloud raises the saving; dearer maintenance lowers it.
  CHECK(*a.src.src[0] > noise);
  CHECK(*a.src.src[1] < -noise);
  // The per-plan comparison is the analysed saving seen from the other side: difference =
  // -saving path by path, so the mean, the P95 of one and the P5 of the other, and the two
  // CVaR95 tails (the highest differences, the lowest savings) mirror each other.
  const UncertainPlanStats* buy = nullptr;
  for (const auto& p : a.plans)
    if (p.name == "buy-2") buy = &p;
  REQUIRE(buy != nullptr);
  REQUIRE(buy->npv_difference_usd.has_value());
  const Summary& d = *buy->npv_difference_usd;
  CHECK(d.mean == doctest::Approx(-a.saving_usd.mean).epsilon(1e-12));
  CHECK(d.p95 == doctest::Approx(-a.saving_usd.p5).epsilon(1e-12));
  CHECK(d.cvar95 == doctest::Approx(-a.saving_usd.cvar95).epsilon(1e-12));
  CHECK(d.stderr_ == doctest::Approx(a.saving_usd.stderr_).epsilon(1e-12));
  CHECK(buy->p_cheaper == a.probability_saving);
}

TEST_CASE("sensitivity: the CLI writes the tornado and SRC sections, run adds them, the same on 1 and 2 threads") {
  const auto dir = scratch_dir("sensitivity-cli");
  Json doc = sensitivity_scenario();
  doc["monte_carlo"]["paths"] = 40;
  const std::string scenario = write_json_file(dir / "s.json", doc);
  const std::string out1 = (dir / "one.json").string(), out2 = (dir / "two.json").string();
  const CliResult r = run_cli({"sensitivity", scenario, "--threads", "1", "--out", out1});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("tornado") != std::string::npos);
  Json one = Json::parse(read_text_file(out1));
  const Json& t = one.at("sensitivity").at("tornado");
  CHECK(t.contains("base_saving_usd"));
  REQUIRE(t.at("inputs").size() == 4);
  for (const char* key : {"input", "saving_at_low_usd", "saving_at_high_usd", "swing_usd", "pointer", "low", "high"})
    CHECK(t.at("inputs").at(0).contains(key));
  CHECK(one.at("sensitivity").at("src").at("inputs").size() == 4);
  CHECK(one.at("uncertainty").at("payback").size() == 1);
  CHECK(one.at("uncertainty").at("paths") == 40);
  CHECK(run_cli({"sensitivity", scenario, "--threads", "2", "--out", out2}).exit_code == 0);
  Json two = Json::parse(read_text_file(out2));
  one.erase("run");
  two.erase("run");
  CHECK(one.dump() == two.dump());

  // run on the same scenario adds the same sections (the default plan is the only other one).
  const std::string out3 = (dir / "run.json").string();
  REQUIRE(run_cli({"run", scenario, "--out", out3, "--quiet"}).exit_code == 0);
  Json ran = Json::parse(read_text_file(out3));
  CHECK(ran.at("sensitivity") == one.at("sensitivity"));
  CHECK(ran.at("uncertainty") == one.at("uncertainty"));
  // tcosim report renders the tornado.
  CHECK(run_cli({"report", out3, "--csv", (dir / "csv").string()}).exit_code == 0);
  CHECK(std::filesystem::exists(dir / "csv" / "sensitivity.csv"));

  // Bad input: no uncertain section, an unknown plan, the baseline.
  Json plain = base_scenario_json();
  const CliResult none = run_cli({"sensitivity", write_json_file(dir / "plain.json", plain)});
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("/uncertain") != std::string::npos);
  const CliResult unknown = run_cli({"sensitivity", scenario, "--plan", "nope"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("--plan") != std::string::npos);
  CHECK(run_cli({"sensitivity", scenario, "--plan", "cloud"}).exit_code == 2);
  const CliResult help = run_cli({"sensitivity", "--help"});
  for (const char* option : {"--plan", "--paths", "--seed", "--threads", "--out", "--catalog"})
    CHECK(help.out.find(option) != std::string::npos);
}

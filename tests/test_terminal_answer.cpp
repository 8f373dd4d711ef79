// What `tcosim run` prints (cli/terminal/terminal_answer.*, cli/terminal/plans_table.*): the verdict, a plans table
// within 100 columns whose long names are shortened with a legend, the breakevens of the report's
// list (hand-checked against the baseline report's figures), the Monte Carlo differences with their
// sign convention, and every file written.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "cli/terminal/terminal_answer.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

namespace {

namespace fs = std::filesystem;

Json baseline_report(const std::string& name) {
  return Json::parse(read_text_file(source_path("tests/baselines/" + name + ".json")));
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) widest = std::max(widest, line.size());
  return widest;
}

// The text with its continuation lines (wrapped at 100 columns, indented by 4) joined back.
std::string unwrapped(std::string text) {
  for (std::size_t at = text.find("\n    "); at != std::string::npos; at = text.find("\n    ", at))
    text.replace(at, 5, " ");
  return text;
}

}  // namespace

TEST_CASE("terminal answer: every shipped scenario's answer fits 100 columns") {
  for (const auto& entry : fs::directory_iterator(source_path("tests/baselines"))) {
    const std::string name = entry.path().stem().string();
    CAPTURE(name);
    const std::string answer = cli::terminal_answer(baseline_report(name), {"r.json"});
    CHECK(widest_line(answer) <= 100);
  }
}

TEST_CASE("terminal answer: the plans table of the main scenario, figures as in the report") {
  const std::string table = cli::plans_table(baseline_report("base-load-and-burst"));
  // npv_usd 26114487.49 -> $26,114,487; total 29377292.32 -> $29,377,292; 10.8405 $/GPU-h -> 10.84.
  CHECK(contains(table, " 1 cloud-on-demand        cloud      0 $26,114,487 $29,377,292   10.84     baseline           -"));
  // buy-6-burst-half-spot: NPV 12331739.90, saving 26114487.49 - 12331739.90 = 13782747.59, payback 4.
  CHECK(contains(table, " 7 buy-6-burst-half-spot  hybrid     6 $12,331,740 $13,591,588    5.02  $13,782,748     month 4"));
  // A cloud plan that never costs more than the baseline has no investment to pay back.
  CHECK(contains(table, " 3 neocloud-on-demand     cloud      0  $6,353,321  $7,147,120    2.64  $19,761,166 none needed"));
  CHECK_FALSE(contains(table, "~"));  // every name fits: no legend
}

TEST_CASE("terminal answer: a name too long for 100 columns is shortened, and the legend gives it in full") {
  Json report = baseline_report("base-load-and-burst");
  const std::string long_name = "buy-6-nodes-of-hgx-h100-and-burst-half-to-spot-and-half-to-on-demand-capacity";
  report["plans"][6]["name"] = long_name;
  report["comparisons"][5]["plan"] = long_name;
  const std::string table = cli::plans_table(report);
  CHECK(widest_line(table) <= 100);
  CHECK(contains(table, "plans shortened above (~), in full:\n  7 = " + long_name + "\n"));
  CHECK(contains(table, "7 buy-6-nodes-of-hgx-h100"));
  CHECK(contains(table, "~ hybrid"));
  CHECK(contains(table, "$13,782,748     month 4"));  // its saving still found by its full name
}

TEST_CASE("terminal answer: the breakevens, one line per entry of the report's lists") {
  Json report = baseline_report("base-load-and-burst");
  const std::string wrapped = cli::breakeven_lines(report);
  CHECK(widest_line(wrapped) <= 100);
  const std::string lines = unwrapped(wrapped);
  // utilization 0.238084 -> 23.8%; 1390.41 GPU-hours per node per month.
  CHECK(contains(lines, "  buy-4-burst (4 x hgx-h100-8) vs on-demand at $12.29/GPU-h of aws/p5.48xlarge/us-east-1: owning is cheaper above 23.8% "
                        "utilization (1390 GPU-hours per node per month)\n"));
  // At spot's $2.4575 the breakeven is null: u* > 1.
  CHECK(contains(lines, "  buy-4-burst (4 x hgx-h100-8) vs spot at $2.46/GPU-h of aws/p5.48xlarge/us-east-1: renting is cheaper at any "
                        "utilization\n"));
  // cloud_price_multiplier 0.254299 for buy-4-burst; null for a cloud plan.
  CHECK(contains(lines, "  buy-4-burst vs cloud-on-demand: they cost the same when the cloud prices (on_demand+spot+reserved) "
                        "are 0.254 x today's\n"));
  CHECK(contains(lines, "  cloud-half-spot vs cloud-on-demand: no scale of the cloud prices (on_demand+spot+reserved) between "
                        "0 and 1000 makes them cost the same\n"));
  // One line per entry of the two lists (8 + 7 in this report), under their two headings.
  std::size_t entries = 0;
  std::istringstream in(lines);
  for (std::string line; std::getline(in, line);) entries += line.rfind("  ", 0) == 0 ? 1 : 0;
  CHECK(entries == report["breakevens"]["utilization"].size() + report["breakevens"]["cloud_price_multiplier"].size());
  // A breakeven keyed by an offer names it.
  report["breakevens"]["utilization"][0]["offer"] = "neocloud-h100";
  CHECK(contains(unwrapped(cli::breakeven_lines(report)),
                 "vs on-demand at $12.29/GPU-h of neocloud-h100: owning is cheaper"));
}

TEST_CASE("terminal answer: Monte Carlo differences come with their sign convention") {
  const std::string lines = unwrapped(cli::monte_carlo_lines(baseline_report("startup-monte-carlo")));
  CHECK(contains(lines, "NPV of the plan minus NPV of the baseline, path by path: negative means the plan is cheaper"));
  // mean -5792510.40 -> -$5,792,510; CI -6008202.62 .. -5576818.19; p_cheaper 1.0 -> 100.0%.
  CHECK(contains(lines, "  cloud-half-spot - cloud-on-demand: -$5,792,510 (95% CI -$6,008,203 .. -$5,576,818), "
                        "P(cheaper) 100.0%\n"));
  CHECK(cli::monte_carlo_lines(baseline_report("base-load-and-burst")).empty());  // deterministic: none
  const std::string uncertain = unwrapped(cli::monte_carlo_lines(baseline_report("base-load-and-burst-uncertain")));
  CHECK(contains(uncertain, "Uncertain inputs (200 draws"));
  // Its fluid paths draw nothing (its uncertainty is the uncertain section's): no zero-width
  // interval such as "-$9,462,460 .. -$9,462,460" is printed for them.
  CHECK(contains(uncertain, "no random input of this model varies in this run"));
  CHECK_FALSE(contains(uncertain, "-$9,462,460 .. -$9,462,460"));
  // uncertainty.comparisons[0]: mean -9252958.90 -> -$9,252,959.
  CHECK(contains(uncertain, "  cloud-half-spot - cloud-on-demand: -$9,252,959 (95% CI -$9,522,013 .. -$8,983,905)"));
}

TEST_CASE("terminal answer: run prints the verdict first and every file it wrote last") {
  const auto dir = scratch_dir("terminal-answer");
  const std::string out = (dir / "r.json").string(), md = (dir / "s.md").string(), html = (dir / "r.html").string();
  const CliResult r = run_cli({"run", fixture_scenario("simple.json"), "--out", out, "--md", md, "--html", html});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK((r.out.rfind("Choose ", 0) == 0 || r.out.rfind("Keep the baseline", 0) == 0));
  // In the order the command declares them: the report, then the HTML page, then the Markdown.
  CHECK(contains(r.out, "\nwrote: " + out + "\nwrote: " + html + "\nwrote: " + md + "\n"));
  CHECK(r.out.substr(r.out.size() - md.size() - 1) == md + "\n");
  CHECK(widest_line(r.out) <= 100);
  // --quiet prints nothing; `report` without an output prints the same answer, less the files.
  CHECK(run_cli({"run", fixture_scenario("simple.json"), "--out", out, "--quiet"}).out.empty());
  const CliResult again = run_cli({"report", out});
  CHECK(again.exit_code == 0);
  CHECK(again.out == r.out.substr(0, r.out.find("\nwrote: ")));  // less the blank line before the files
}

}  // namespace tco::test

// `--today` (issue 41): every figure a report uses is aged on that day with validate's as-of rule
// (365 days), field-level dates and capacity_block_as_of included; each stale group is a warning
// in every format and on the terminal, and the first screen says "Prices as of <oldest date>".
// Only prices age: a datasheet specification (tdp_w, peak_kw, rack_limit_kw) does not.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "cli_test_support.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

using namespace tco;
using tco::test::read_text_file;
using tco::test::run_cli;
using tco::test::write_json_file;

namespace {

namespace fs = std::filesystem;

using tco::test::contains;

// The terminal's text with its line wraps undone (a wrapped line's break and indent become one space).
std::string unwrapped(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      out += text[i];
      continue;
    }
    out += ' ';
    while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
  }
  return out;
}

// The fixture catalog with the 8-GPU offer made fresh (2026-10-01) but for its 1-year reserved
// price (2025-06-01, by field_provenance), and given a capacity-block rate of 2024-12-31. Every
// other record keeps its 2026-01-01.
fs::path dated_catalog(const std::string& name) {
  const fs::path dir = tco::test::scratch_dir(name);
  for (const auto& entry : fs::directory_iterator(tco::test::fixture_catalog_dir()))
    fs::copy_file(entry.path(), dir / entry.path().filename(), fs::copy_options::overwrite_existing);
  std::ifstream in(dir / "cloud_offers.json");
  Json offers = Json::parse(in);
  in.close();
  Json& offer = offers.at("records").at(0);
  REQUIRE(offer.at("id") == "test/gpu8/region-a");
  offer["as_of"] = "2026-10-01";
  offer["field_provenance"] = {{"reserved_1y_usd_per_hour", {{"as_of", "2025-06-01"}, {"source", "old RI page"}}}};
  offer["capacity_block_usd_per_hour"] = 14.0;
  offer["capacity_block_as_of"] = "2024-12-31";
  write_json_file(dir / "cloud_offers.json", offers);
  return dir;
}

Json dated_scenario(const fs::path& catalog, bool books_a_block) {
  Json doc = tco::test::base_scenario_json();
  doc["catalog_dir"] = catalog.string();
  if (books_a_block)
    doc["plans"].push_back(Json::parse(R"({"name": "cloud-block", "kind": "cloud", "commitments": [
      {"kind": "capacity_block", "name": "week", "start_day": 30, "days": 7, "instances": 1, "lead_days": 0}]})"));
  return doc;
}

// Sets the as_of (and field_provenance, when given) of record 0 of a fixture catalog file.
void redate_record(const fs::path& catalog, const std::string& file, const std::string& as_of,
                   const Json& field_provenance = Json()) {
  std::ifstream in(catalog / file);
  Json doc = Json::parse(in);
  in.close();
  doc.at("records").at(0)["as_of"] = as_of;
  if (!field_provenance.is_null()) doc.at("records").at(0)["field_provenance"] = field_provenance;
  write_json_file(catalog / file, doc);
}

std::vector<std::string> as_of_messages(const Json& report) {
  std::vector<std::string> out;
  for (const Json& w : report.at("warnings"))
    if (w.at("code") == "as-of-stale" || w.at("code") == "as-of-in-future") out.push_back(w.at("message"));
  return out;
}

}  // namespace

TEST_CASE("today: a stale field of a fresh record is exactly one warning, with its date and age") {
  const fs::path dir = tco::test::scratch_dir("today-one-field");
  const std::string scenario = write_json_file(dir / "s.json", dated_scenario(dated_catalog("today-one-field-cat"), false));
  const std::string out = (dir / "r.json").string();
  const auto r = run_cli({"run", scenario, "--out", out, "--today", "2026-11-28"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const Json report = Json::parse(read_text_file(out));
  // Today 2026-11-28. The record (2026-10-01) is 30 + 28 = 58 days old; the other records
  // (2026-01-01) 304 (January to October) + 27 = 331 days: both within 365. The 1-year price
  // (2025-06-01): 365 days to 2026-06-01, then 30 + 31 + 31 + 30 + 31 + 27 = 180: 545 days.
  // The capacity-block rate is not used (no plan books a block), so it is not aged.
  CHECK(as_of_messages(report) ==
        std::vector<std::string>{"cloud_offer \"test/gpu8/region-a\" reserved_1y_usd_per_hour: dated 2025-06-01, 545 "
                                 "days old on 2026-11-28 (more than 365): re-check the figure"});
  CHECK(report.at("pricing").at("today") == "2026-11-28");
  CHECK(report.at("pricing").at("max_age_days") == 365);
  CHECK(report.at("pricing").at("oldest_as_of") == "2025-06-01");
  // The figure's own date and source are in the report's records.
  bool listed = false;
  for (const Json& rec : report.at("pricing").at("records"))
    for (const Json& f : rec.at("figures"))
      if (f.at("field") == "reserved_1y_usd_per_hour") {
        listed = true;
        CHECK(f.at("as_of") == "2025-06-01");
        CHECK(f.at("source") == "old RI page");
      }
  CHECK(listed);
  // The terminal names it too.
  CHECK(contains(unwrapped(r.out), "reserved_1y_usd_per_hour: dated 2025-06-01, 545 days old on 2026-11-28"));
}

TEST_CASE("today: run --today warns per stale figure, capacity block included, with the date on every first screen") {
  const fs::path dir = tco::test::scratch_dir("today-every-format");
  const std::string scenario = write_json_file(dir / "s.json", dated_scenario(dated_catalog("today-every-format-cat"), true));
  const std::string json = (dir / "r.json").string(), md = (dir / "s.md").string(), html = (dir / "r.html").string();
  const auto r = run_cli({"run", scenario, "--out", json, "--md", md, "--html", html, "--today", "2026-11-28"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const Json report = Json::parse(read_text_file(json));
  // The block is booked: its rate (capacity_block_as_of 2024-12-31) is aged too: 365 days to
  // 2025-12-31, then 334 (2026's January to November) - 2 = 332: 697 days.
  const std::string block = "cloud_offer \"test/gpu8/region-a\" capacity_block_usd_per_hour: dated 2024-12-31, 697 days "
                            "old on 2026-11-28 (more than 365): re-check the figure";
  const std::string reserved = "cloud_offer \"test/gpu8/region-a\" reserved_1y_usd_per_hour: dated 2025-06-01, 545 days "
                               "old on 2026-11-28 (more than 365): re-check the figure";
  CHECK(as_of_messages(report) == std::vector<std::string>{reserved, block});
  // The oldest date used is the block's; two figures are stale. The scenario starts 2026-01-05:
  // 327 days before today = 7,848 h = 10.75 months of 730 h: 10 months of history.
  const std::string prices = "Prices as of 2024-12-31 (the oldest price used), 697 days before today (2026-11-28): 2 "
                             "prices used are more than 365 days old (see the warnings).";
  const std::string history = "The scenario starts 2026-01-05, before today (2026-11-28): months 1-10 are history, "
                              "months 11-12 forecast.";
  CHECK(report.at("scenario").at("history_months") == 10);
  CHECK(report.at("pricing").at("oldest_as_of") == "2024-12-31");

  // Terminal: the dates right under the verdict (the first lines), the warnings at the end.
  const std::string terminal = unwrapped(r.out);
  const std::string first_screen = terminal.substr(0, terminal.find("Plans over"));
  CHECK(contains(first_screen, prices + " " + history));
  // catalog-stale looks at the record's oldest price too: the block's 2024-12-31 is 365 + 5 = 370
  // days before the scenario's start (2026-01-05), more than 365.
  const std::string catalog_stale = "cloud_offer \"test/gpu8/region-a\" is dated 2024-12-31, 370 days before the "
                                    "scenario start: check the price is still current [catalog-stale]";
  CHECK(contains(terminal, " Warnings: - " + catalog_stale + " - " + reserved + " [as-of-stale] - " + block +
                               " [as-of-stale]"));
  // Markdown: the line after the verdict, and the warnings.
  const std::string summary = read_text_file(md);
  CHECK(contains(summary, "\n\n" + prices + " " + history + "\n\n"));
  CHECK(summary.find(prices) < summary.find("| plan |"));
  // The same items in each format (reports/document/answer/warnings_section.cpp).
  CHECK(contains(summary, "\n**Warnings**:\n\n- " + catalog_stale + "\n- " + reserved + " [as-of-stale]\n- " + block +
                              " [as-of-stale]\n"));
  // HTML: beside the headline, and in the Warnings section.
  const std::string page = read_text_file(html);
  CHECK(contains(page, "</p>\n<p>" + prices + " " + history + "</p>"));
  CHECK(contains(page, "<h2 id=\"warnings\">Warnings</h2>\n<ul><li>"));
  CHECK(contains(page, "<li>cloud_offer &quot;test/gpu8/region-a&quot; "
                       "capacity_block_usd_per_hour: dated 2024-12-31, 697 days old"));

  // The same --today gives the same bytes; `report --today` re-dates a saved report: on
  // 2027-06-01 the block is 697 + 185 (2 + 31 + 31 + 28 + 31 + 30 + 31 + 1) = 882 days old.
  const auto again = run_cli({"run", scenario, "--out", (dir / "r2.json").string(), "--today", "2026-11-28", "-q"});
  REQUIRE(again.exit_code == 0);
  CHECK(read_text_file(dir / "r2.json") == read_text_file(json));
  const auto redated = run_cli({"report", json, "--today", "2027-06-01"});
  REQUIRE_MESSAGE(redated.exit_code == 0, redated.err);
  CHECK(contains(unwrapped(redated.out),
                 "Prices as of 2024-12-31 (the oldest price used), 882 days before today (2027-06-01)"));
  // Without --today, `report` renders the day the report records.
  CHECK(contains(unwrapped(run_cli({"report", json}).out), prices));
}

TEST_CASE("today: a bad --today or a bad field_provenance is exit 2 naming the file and pointer") {
  const fs::path dir = tco::test::scratch_dir("today-bad");
  const fs::path catalog = dated_catalog("today-bad-cat");
  const std::string scenario = write_json_file(dir / "s.json", dated_scenario(catalog, false));
  const auto bad_day = run_cli({"run", scenario, "--out", (dir / "r.json").string(), "--today", "28/11/2026"});
  CHECK(bad_day.exit_code == 2);
  CHECK(contains(bad_day.err, "--today: expected a date YYYY-MM-DD, found \"28/11/2026\""));
  CHECK_FALSE(fs::exists(dir / "r.json"));

  // In a scenario's override: the pointer is the scenario's.
  Json doc = dated_scenario(catalog, false);
  doc["cloud"]["offer"] = {{"id", "test/gpu8/region-a"},
                           {"field_provenance", {{"spot_usd_per_hr", {{"as_of", "2026-01-01"}}}}}};
  const std::string bad_override = write_json_file(dir / "bad.json", doc);
  const auto override_error = run_cli({"run", bad_override, "--out", (dir / "r.json").string()});
  CHECK(override_error.exit_code == 2);
  CHECK(contains(override_error.err, "bad.json: /cloud/offer/field_provenance/spot_usd_per_hr: unknown field"));

  // In the catalog: validate and run both name the catalog file and the record's pointer.
  std::ifstream in(catalog / "cloud_offers.json");
  Json offers = Json::parse(in);
  in.close();
  offers["records"][0]["field_provenance"]["reserved_1y_usd_per_hour"] = Json::object();
  write_json_file(catalog / "cloud_offers.json", offers);
  const auto validate = run_cli({"validate", catalog.string()});
  CHECK(validate.exit_code == 2);
  CHECK(contains(validate.out + validate.err,
                 "cloud_offers.json: /records/0/field_provenance/reserved_1y_usd_per_hour: expected \"as_of\" and/or "
                 "\"source\", found neither"));
  const auto run = run_cli({"run", scenario, "--out", (dir / "r.json").string()});
  CHECK(run.exit_code == 2);
  CHECK(contains(run.err, "cloud_offers.json: /records/0/field_provenance/reserved_1y_usd_per_hour"));
}

TEST_CASE("today: validate --today and run --today agree on a figure's age") {
  const fs::path catalog = dated_catalog("today-agree-cat");
  const auto validate = run_cli({"validate", catalog.string(), "--today", "2026-11-28"});
  // validate ages every figure of the catalog, the block's too: the same 545 and 697 days as run.
  CHECK(contains(validate.out + validate.err, "reserved_1y_usd_per_hour as_of 2025-06-01 is 545 days old"));
  CHECK(contains(validate.out + validate.err, "capacity_block_usd_per_hour as_of 2024-12-31 is 697 days old"));
}

TEST_CASE("today: regress reruns a baseline on the day it records, so the calendar does not move it") {
  const fs::path dir = tco::test::scratch_dir("today-regress");
  fs::create_directories(dir / "scenarios");
  fs::create_directories(dir / "baselines");
  write_json_file(dir / "scenarios" / "dated.json", dated_scenario(dated_catalog("today-regress-cat"), false));
  const std::string scenarios = (dir / "scenarios").string(), baselines = (dir / "baselines").string();
  const auto update = run_cli({"regress", scenarios, "--baselines", baselines, "--update", "--today", "2027-01-01"});
  REQUIRE_MESSAGE(update.exit_code == 0, update.out << update.err);
  const std::string written = read_text_file(dir / "baselines" / "dated.json");
  CHECK(Json::parse(written).at("pricing").at("today") == "2027-01-01");
  // On 2027-01-01 the 1-year price (2025-06-01) is 365 + 214 (June 30 .. December 31) = 579 days
  // old; the other records (2026-01-01) exactly 365, not above it. Aged on the system date
  // instead, the warning would say another age and the bytes would differ.
  CHECK(as_of_messages(Json::parse(written)) ==
        std::vector<std::string>{"cloud_offer \"test/gpu8/region-a\" reserved_1y_usd_per_hour: dated 2025-06-01, 579 "
                                 "days old on 2027-01-01 (more than 365): re-check the figure"});
  // Without --today, regress and --update keep the baseline's day: nothing changes.
  CHECK(run_cli({"regress", scenarios, "--baselines", baselines}).exit_code == 0);
  CHECK(run_cli({"regress", scenarios, "--baselines", baselines, "--update"}).exit_code == 0);
  CHECK(read_text_file(dir / "baselines" / "dated.json") == written);
}

TEST_CASE("today: a stale specification does not warn, a stale price in the same record does") {
  const fs::path dir = tco::test::scratch_dir("today-specs");
  const fs::path catalog = dated_catalog("today-specs-cat");
  // The GPU record (perf_relative, memory_gb, tdp_w: specifications only) dated 2023-01-01; the
  // server record 2024-01-01 (gpus, price_usd, peak_kw, idle_kw fall back to it), its peak_kw
  // read from a datasheet dated 2022-03-22; the cooling record (pue, rack limit: a design) 2023-01-01.
  redate_record(catalog, "gpus.json", "2023-01-01");
  redate_record(catalog, "servers.json", "2024-01-01",
                {{"peak_kw", {{"as_of", "2022-03-22"}, {"source", "datasheet"}}}});
  redate_record(catalog, "cooling.json", "2023-01-01");
  const std::string scenario = write_json_file(dir / "s.json", dated_scenario(catalog, false));
  const std::string out = (dir / "r.json").string();
  const auto r = run_cli({"run", scenario, "--out", out, "--today", "2026-11-28"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const Json report = Json::parse(read_text_file(out));
  // Today 2026-11-28. The server's price (2024-01-01): 366 (2024) + 365 (2025) + 331 (2026 to
  // November 28: 334 - 3) = 1,062 days, stale, and named alone: gpus, idle_kw (same date) and
  // peak_kw (2022-03-22) are specifications. The GPU and cooling records give no warning. The
  // offer's 1-year price is stale as before (545 days).
  const std::string reserved = "cloud_offer \"test/gpu8/region-a\" reserved_1y_usd_per_hour: dated 2025-06-01, 545 days "
                               "old on 2026-11-28 (more than 365): re-check the figure";
  const std::string server = "server \"test-node-8\" price_usd: dated 2024-01-01, 1062 days old on 2026-11-28 (more "
                             "than 365): re-check the figure";
  std::vector<std::string> messages = as_of_messages(report);
  std::sort(messages.begin(), messages.end());
  CHECK(messages == std::vector<std::string>{reserved, server});
  // "Prices as of" is the oldest price's date, not the GPU's 2023-01-01 or peak_kw's 2022-03-22;
  // two prices are stale.
  CHECK(report.at("pricing").at("oldest_as_of") == "2024-01-01");
  CHECK(contains(unwrapped(r.out), "Prices as of 2024-01-01 (the oldest price used), 1062 days before today "
                                   "(2026-11-28): 2 prices used are more than 365 days old"));
  // The dates are still reported beside every figure.
  for (const Json& rec : report.at("pricing").at("records"))
    if (rec.at("id") == "ref-gpu")
      for (const Json& f : rec.at("figures")) CHECK(f.at("as_of") == "2023-01-01");
  // catalog-stale (a record's prices more than 365 days before the scenario's start, 2026-01-05)
  // names the server at its price's date, 2024-01-01 + 731 + 4 = 735 days, and not the GPU or
  // the cooling record.
  std::vector<std::string> catalog_stale;
  for (const Json& w : report.at("warnings"))
    if (w.at("code") == "catalog-stale") catalog_stale.push_back(w.at("message"));
  CHECK(catalog_stale == std::vector<std::string>{"server \"test-node-8\" is dated 2024-01-01, 735 days before the "
                                                  "scenario start: check the price is still current"});

  // validate --today applies the same rule: the server's as_of (a price falls back to it) warns;
  // the GPU's and cooling's as_of and peak_kw's own date do not.
  const auto validate = run_cli({"validate", catalog.string(), "--today", "2026-11-28"});
  const std::string said = validate.out + validate.err;
  CHECK(contains(said, "servers.json: /records/0/as_of: as_of 2024-01-01 is 1062 days old"));
  CHECK_FALSE(contains(said, "gpus.json: /records/0/as_of"));
  CHECK_FALSE(contains(said, "cooling.json: /records/0/as_of"));
  CHECK_FALSE(contains(said, "field_provenance/peak_kw"));
  // A date after today is still flagged for a specification: a typo in the year.
  redate_record(catalog, "gpus.json", "2062-01-01");
  const auto future = run_cli({"validate", catalog.string(), "--today", "2026-11-28"});
  CHECK(future.exit_code == 2);
  CHECK(contains(future.out + future.err, "gpus.json: /records/0/as_of: as_of 2062-01-01 is"));
}

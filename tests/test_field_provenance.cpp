// Field-level provenance (issue 41): "field_provenance" dates and sources single figures of a
// record, each falling back to the record's; capacity_block_as_of dates the capacity-block rate.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/io/json_reader.hpp"
#include "models/catalog/catalog.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "models/catalog/field_provenance.hpp"
#include "models/catalog/records.hpp"
#include "test_support.hpp"

using namespace tco;

namespace {

// A fresh record (2026-10-01) whose 3-year price was read long before (2025-06-01).
Json dated_offer() {
  return Json::parse(R"({
    "id": "aws/p5.48xlarge/us-east-1", "provider": "aws", "instance_type": "p5.48xlarge",
    "region": "us-east-1", "gpu_model": "h100-sxm-80gb", "gpus_per_instance": 8,
    "on_demand_usd_per_hour": 55.04, "reserved_3y_usd_per_hour": 24.61,
    "source": "record page", "as_of": "2026-10-01",
    "field_provenance": {"reserved_3y_usd_per_hour": {"as_of": "2025-06-01", "source": "RI page"}}})");
}

std::string parse_error(const Json& record) {
  try {
    JsonObjectReader r(record, "cat.json", "/records/0");
    parse_cloud_offer(r, "x");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

void write(const std::filesystem::path& path, const Json& document) {
  std::ofstream out(path, std::ios::binary);
  out << document.dump(2);
}

std::vector<Finding> validate_one_offer(const std::string& name, const Json& offer, const std::string& today) {
  const auto dir = tco::test::scratch_dir(name);
  write(dir / "cloud_offers.json", Json{{"kind", "cloud_offer"}, {"records", Json::array({offer})}});
  ValidationOptions options;
  options.today = today;
  return validate_catalog_dir(dir.string(), options);
}

}  // namespace

TEST_CASE("field provenance: a figure's own date and source, the others fall back to the record's") {
  const Json j = dated_offer();
  JsonObjectReader r(j, "cat.json", "/records/0");
  const CloudOffer o = parse_cloud_offer(r, "aws/p5.48xlarge/us-east-1");
  // The record carries three numeric fields: gpus_per_instance, on-demand, 3-year.
  REQUIRE(o.provenance.figures.size() == 3);
  const FigureProvenance* three_year = find_figure(o.provenance, "reserved_3y_usd_per_hour");
  REQUIRE(three_year);
  CHECK(three_year->as_of == "2025-06-01");
  CHECK(three_year->source == "RI page");
  CHECK(three_year->own_as_of);
  const FigureProvenance* on_demand = find_figure(o.provenance, "on_demand_usd_per_hour");
  REQUIRE(on_demand);
  CHECK(on_demand->as_of == "2026-10-01");
  CHECK(on_demand->source == "record page");
  CHECK_FALSE(on_demand->own_as_of);
  CHECK_FALSE(find_figure(o.provenance, "spot_usd_per_hour"));  // not carried: no figure

  // Only a source: the date falls back to the record's.
  Json source_only = dated_offer();
  source_only["field_provenance"] = {{"on_demand_usd_per_hour", {{"source", "OD page"}}}};
  JsonObjectReader r2(source_only, "cat.json", "/records/0");
  const CloudOffer o2 = parse_cloud_offer(r2, "x");
  CHECK(find_figure(o2.provenance, "on_demand_usd_per_hour")->source == "OD page");
  CHECK(find_figure(o2.provenance, "on_demand_usd_per_hour")->as_of == "2026-10-01");
}

TEST_CASE("field provenance: a bad entry is an error with the file and pointer") {
  Json j = dated_offer();
  j["field_provenance"] = {{"on_demand_usd_per_hr", {{"as_of", "2026-01-01"}}}};  // misspelt
  CHECK(parse_error(j).find("cat.json: /records/0/field_provenance/on_demand_usd_per_hr: unknown field") !=
        std::string::npos);
  j["field_provenance"] = {{"spot_usd_per_hour", {{"as_of", "2026-01-01"}}}};  // the record has no spot price
  CHECK(parse_error(j).find("/records/0/field_provenance/spot_usd_per_hour: field_provenance dates "
                            "\"spot_usd_per_hour\", which this record does not have") != std::string::npos);
  j["field_provenance"] = {{"on_demand_usd_per_hour", Json::object()}};
  CHECK(parse_error(j).find("/records/0/field_provenance/on_demand_usd_per_hour: expected \"as_of\" and/or "
                            "\"source\", found neither") != std::string::npos);
  j["field_provenance"] = {{"on_demand_usd_per_hour", {{"as_of", "2026-02-30"}}}};
  CHECK(parse_error(j).find("/records/0/field_provenance/on_demand_usd_per_hour/as_of: expected a date") !=
        std::string::npos);
  j["field_provenance"] = {{"on_demand_usd_per_hour", {{"as_of", "2026-02-01"}, {"note", "x"}}}};
  CHECK(parse_error(j).find("/records/0/field_provenance/on_demand_usd_per_hour/note: unknown key") !=
        std::string::npos);
  j["field_provenance"] = "2026-02-01";
  CHECK(parse_error(j).find("/records/0/field_provenance: expected an object") != std::string::npos);
  j["field_provenance"] = {{"provider", {{"source", "x"}}}};  // a text field is not a figure
  CHECK(parse_error(j).find("/records/0/field_provenance/provider: unknown field") != std::string::npos);
}

TEST_CASE("field provenance: capacity_block_as_of dates the capacity-block rate") {
  Json j = dated_offer();
  j["capacity_block_usd_per_hour"] = 31.46;
  CHECK(parse_error(j).find("/records/0/capacity_block_as_of: expected a date") != std::string::npos);

  j["capacity_block_as_of"] = "2024-12-31";
  JsonObjectReader r(j, "cat.json", "/records/0");
  const CloudOffer o = parse_cloud_offer(r, "x");
  const FigureProvenance* block = find_figure(o.provenance, "capacity_block_usd_per_hour");
  REQUIRE(block);
  CHECK(block->as_of == "2024-12-31");
  CHECK(block->own_as_of);
  CHECK(block->source == "record page");

  // The same date by field_provenance alone fills capacity_block_as_of.
  Json by_entry = dated_offer();
  by_entry["capacity_block_usd_per_hour"] = 31.46;
  by_entry["field_provenance"]["capacity_block_usd_per_hour"] = {{"as_of", "2026-11-01"}};
  JsonObjectReader r2(by_entry, "cat.json", "/records/0");
  CHECK(parse_cloud_offer(r2, "x").capacity_block_as_of == "2026-11-01");

  // Both, agreeing: fine; disagreeing: an error at the entry.
  by_entry["capacity_block_as_of"] = "2026-11-01";
  CHECK(parse_error(by_entry) == "(accepted)");
  by_entry["capacity_block_as_of"] = "2024-12-31";
  CHECK(parse_error(by_entry).find("/records/0/field_provenance/capacity_block_usd_per_hour/as_of: expected the "
                                   "capacity_block_as_of date 2024-12-31") != std::string::npos);
}

TEST_CASE("field provenance: validate warns on a stale field of a fresh record, and on a stale capacity block") {
  // today 2026-11-28. The record (2026-10-01) is 58 days old: 30 (Oct) + 28 (Nov) = 58, fresh.
  // Its 3-year price (2025-06-01): 2025-06-01 -> 2026-06-01 is 365 days (no Feb 29 between),
  // then June 30 + July 31 + August 31 + September 30 + October 31 + 27 = 180: 545 days.
  const auto findings = validate_one_offer("fp-stale-field", dated_offer(), "2026-11-28");
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].code == "as-of-stale");
  CHECK(findings[0].where == "/records/0/field_provenance/reserved_3y_usd_per_hour/as_of");
  CHECK(findings[0].message ==
        "reserved_3y_usd_per_hour as_of 2025-06-01 is 545 days old (more than 365): re-check the figure");

  // capacity_block_as_of 2024-12-31: 2025-12-31 is 365 days on, and 2025-12-31 -> 2026-11-28 is
  // 334 (Jan 1 .. Nov 30 of 2026) - 2 = 332: 697 days.
  Json block = dated_offer();
  block.erase("field_provenance");
  block["capacity_block_usd_per_hour"] = 31.46;
  block["capacity_block_as_of"] = "2024-12-31";
  const auto block_findings = validate_one_offer("fp-stale-block", block, "2026-11-28");
  REQUIRE(block_findings.size() == 1);
  CHECK(block_findings[0].where == "/records/0/capacity_block_as_of");
  CHECK(block_findings[0].message.find("capacity_block_usd_per_hour as_of 2024-12-31 is 697 days old") == 0);

  // A field dated after today is an error, as a record's date is.
  Json future = dated_offer();
  future["field_provenance"]["reserved_3y_usd_per_hour"]["as_of"] = "2026-12-01";
  const auto future_findings = validate_one_offer("fp-future", future, "2026-11-28");
  REQUIRE(future_findings.size() == 1);
  CHECK(future_findings[0].code == "as-of-in-future");
}

TEST_CASE("field provenance: an override that replaces a figure drops the catalog's entry for it") {
  const auto dir = tco::test::scratch_dir("fp-override");
  write(dir / "cloud_offers.json", Json{{"kind", "cloud_offer"}, {"records", Json::array({dated_offer()})}});
  const Catalog catalog = Catalog::load(dir.string());
  const Json ref = {{"id", "aws/p5.48xlarge/us-east-1"}, {"reserved_3y_usd_per_hour", 30.0}};
  const ResolvedRecord resolved = resolve_reference(catalog, "cloud_offer", ref, "s.json", "/cloud/offer");
  CHECK_FALSE(resolved.merged.contains("field_provenance"));
  // The scenario's own field_provenance replaces the catalog's whole.
  const Json own = {{"id", "aws/p5.48xlarge/us-east-1"},
                    {"reserved_3y_usd_per_hour", 30.0},
                    {"field_provenance", {{"reserved_3y_usd_per_hour", {{"as_of", "2026-11-20"}}}}}};
  const ResolvedRecord replaced = resolve_reference(catalog, "cloud_offer", own, "s.json", "/cloud/offer");
  CHECK(replaced.merged.at("field_provenance").at("reserved_3y_usd_per_hour").at("as_of") == "2026-11-20");
}

TEST_CASE("field provenance: the figures that age are exactly the prices, the fields with usd in their name") {
  // Written out by hand, kind by kind (pricing-data/README.md "Which figures age"): a new numeric
  // field fails here until it is put on one side or the other.
  const std::map<std::string, std::vector<std::string>> prices = {
      {"cloud_offer",
       {"on_demand_usd_per_hour", "spot_usd_per_hour", "reserved_1y_usd_per_hour", "reserved_3y_usd_per_hour",
        "reserved_usd_per_hour_by_term_months", "capacity_block_usd_per_hour", "egress_usd_per_gb"}},
      {"server", {"price_usd"}},
      {"gpu", {}},
      {"power_region", {"usd_per_kwh"}},
      {"cooling", {}},
      {"colocation", {"usd_per_kw_month", "usd_per_rack_month"}}};
  const std::map<std::string, std::vector<std::string>> specifications = {
      {"cloud_offer",
       {"gpus_per_instance", "billing_granularity_s", "minimum_billed_s", "startup_h", "spot_notice_s",
        "spot_preemptions_per_instance_hour", "pue", "g_co2_per_kwh"}},
      {"server", {"gpus", "peak_kw", "idle_kw"}},
      {"gpu", {"perf_relative", "memory_gb", "tdp_w"}},
      {"power_region", {"g_co2_per_kwh"}},
      {"cooling", {"pue", "pue_min", "pue_slope_per_c", "free_cooling_c", "rack_limit_kw", "max_cfm_per_rack", "delta_t_f"}},
      {"colocation", {}}};
  for (const auto& [kind, fields] : prices) {
    const std::string& k = kind;
    std::vector<std::string> aged, kept;
    for (const std::string& f : figure_fields(k)) (is_price_field(f) ? aged : kept).push_back(f);
    std::sort(aged.begin(), aged.end());
    std::sort(kept.begin(), kept.end());
    std::vector<std::string> want_aged = fields, want_kept = specifications.at(k);
    std::sort(want_aged.begin(), want_aged.end());
    std::sort(want_kept.begin(), want_kept.end());
    INFO(k);
    CHECK(aged == want_aged);
    CHECK(kept == want_kept);
  }
}

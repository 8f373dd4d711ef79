// The shipped catalog (pricing-data/) and the `validate` / `pricing import` commands run
// in-process.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "cli/app.hpp"
#include "models/catalog/catalog.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "models/catalog/field_provenance.hpp"
#include "models/catalog/records.hpp"
#include "test_support.hpp"

using namespace tco;

namespace {

std::string catalog_dir() { return tco::test::source_path("pricing-data"); }

template <typename Record, typename Parse>
Record parsed(const Catalog& catalog, const std::string& kind, const std::string& id, Parse parse) {
  const CatalogRecord* record = catalog.find(kind, id);
  REQUIRE_MESSAGE(record != nullptr, std::string(kind + " " + id + " is missing"));
  JsonObjectReader r(record->fields, record->file, record->pointer);
  return parse(r, id);
}

}  // namespace

TEST_CASE("pricing-data: the shipped catalog loads and validates without errors or warnings") {
  const Catalog catalog = Catalog::load(catalog_dir());
  CHECK(catalog.records().size() == 55);  // 25 cloud offers, 6 servers, 7 GPUs, 6 power regions, 4 cooling, 3 colocation, 4 serving profiles
  for (const CatalogRecord& record : catalog.records()) check_record(record.kind, record.fields, record.file, record.pointer, record.id);
  const auto findings = validate_catalog_dir(catalog_dir());
  for (const Finding& f : findings) MESSAGE(std::string(format_finding(f)));
  CHECK(findings.empty());
  CHECK(catalog.digest_sha256().size() == 64);
}

TEST_CASE("pricing-data: the SPEC section 11 reference figures are present") {
  const Catalog catalog = Catalog::load(catalog_dir());
  const CloudOffer p5 = parsed<CloudOffer>(catalog, "cloud_offer", "aws/p5.48xlarge/us-east-1", parse_cloud_offer);
  CHECK(p5.gpus_per_instance == 8);
  CHECK(p5.gpu_model == "h100-sxm-80gb");
  // The SPEC's $98.32 was p5.48xlarge's price until AWS's June 2025 cut; the record carries the
  // post-cut list price, 98.32 x (1 - 0.44) = 55.06, listed as $55.04 ($6.88 per GPU-hour), and
  // names the SPEC figure in its source (tests/fixtures/scenarios/reference_spot.json keeps the arithmetic).
  CHECK(p5.on_demand_usd_per_hour == doctest::Approx(55.04).epsilon(1e-12));
  CHECK(p5.provenance.source.find("98.32 before, the SPEC section 11 reference figure") != std::string::npos);
  CHECK(p5.provenance.as_of == "2026-09-10");
  REQUIRE(p5.spot_usd_per_hour.has_value());
  CHECK(*p5.spot_usd_per_hour == doctest::Approx(19.66).epsilon(1e-12));
  CHECK(*p5.spot_notice_s == doctest::Approx(120.0).epsilon(1e-12));
  // The spot figure is dated and sourced apart from the record (field_provenance).
  const FigureProvenance* spot = find_figure(p5.provenance, "spot_usd_per_hour");
  REQUIRE(spot != nullptr);
  CHECK(spot->source.find("industry write-up") != std::string::npos);
  CHECK(spot->as_of == "2026-03-31");
  CHECK(spot->own_as_of);

  const GpuModel h100 = parsed<GpuModel>(catalog, "gpu", "h100-sxm-80gb", parse_gpu);
  CHECK(h100.tdp_w == doctest::Approx(700.0).epsilon(1e-12));
  CHECK(h100.perf_relative == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(h100.memory_gb == doctest::Approx(80.0).epsilon(1e-12));

  const PowerRegion reference = parsed<PowerRegion>(catalog, "power_region", "us-reference-0.12", parse_power_region);
  CHECK(reference.usd_per_kwh == doctest::Approx(0.12).epsilon(1e-12));

  const ServerModel node = parsed<ServerModel>(catalog, "server", "reference-node-0.815kw", parse_server);
  CHECK(node.peak_kw == doctest::Approx(0.815).epsilon(1e-12));
  CHECK(node.idle_kw == doctest::Approx(0.0).epsilon(1e-12));
  const ServerModel dgx = parsed<ServerModel>(catalog, "server", "hgx-h100-8", parse_server);
  CHECK(dgx.peak_kw == doctest::Approx(10.2).epsilon(1e-12));

  // Spot notice: 120 s on every AWS offer, 30 s on every GCP and Azure offer.
  int aws = 0, gcp_azure = 0;
  for (const CatalogRecord& record : catalog.records()) {
    if (record.kind != "cloud_offer") continue;
    JsonObjectReader r(record.fields, record.file, record.pointer);
    const CloudOffer o = parse_cloud_offer(r, record.id);
    if (o.provider == "aws") {
      ++aws;
      REQUIRE(o.spot_notice_s.has_value());
      CHECK(*o.spot_notice_s == doctest::Approx(120.0).epsilon(1e-12));
    } else if (o.provider == "gcp" || o.provider == "azure") {
      ++gcp_azure;
      REQUIRE(o.spot_notice_s.has_value());
      CHECK(*o.spot_notice_s == doctest::Approx(30.0).epsilon(1e-12));
    }
  }
  CHECK(aws == 9);
  CHECK(gcp_azure == 8);
}

TEST_CASE("pricing-data: on 2026-11-28 the refreshed p5 us-east-1 figures are fresh and a pre-cut spot price is stale") {
  ValidationOptions options;
  options.today = "2026-11-28";
  const auto findings = validate_catalog_dir(catalog_dir(), options);
  std::set<std::string> stale_in_offers;
  for (const Finding& f : findings)
    if (f.file.find("cloud_offers.json") != std::string::npos) {
      CHECK(f.code == "as-of-stale");
      stale_in_offers.insert(f.where);
    }
  // aws/p5.48xlarge/us-east-1 (record 0): on-demand 2026-09-10 (79 days), spot and 1-year
  // 2026-03-31 (242 days), capacity block 2026-05-11: all within 365 days.
  for (const std::string& where : stale_in_offers) CHECK(where.rfind("/records/0/", 0) != 0);
  // aws/p5.48xlarge/us-east-2 (record 1): its spot is a pre-cut SkyPilot price, 2025-05-31:
  // 2025-05-31 -> 2026-05-31 is 365 days, then June 30 + July 31 + August 31 + September 30 +
  // October 31 + 28 = 181: 546 days; its capacity block 2024-12-31 is 697 days old.
  CHECK(stale_in_offers.count("/records/1/field_provenance/spot_usd_per_hour/as_of") == 1);
  CHECK(stale_in_offers.count("/records/1/capacity_block_as_of") == 1);
  CHECK(stale_in_offers.count("/records/1/as_of") == 0);  // the record itself (2026-09-10) is fresh
  bool message_found = false;
  for (const Finding& f : findings)
    if (f.where == "/records/1/field_provenance/spot_usd_per_hour/as_of")
      message_found = f.message == "spot_usd_per_hour as_of 2025-05-31 is 546 days old (more than 365): re-check the figure";
  CHECK(message_found);
}

TEST_CASE("pricing-data: the server prices are 2026 trade-press figures, dated and sourced field by field") {
  const Catalog catalog = Catalog::load(catalog_dir());
  // Each price_usd carries its own date and page (field_provenance), second-hand from
  // callgideon/model-inference research/cross-cutting/cloud-pricing.md @ 07995f39 section 7.2; the
  // records keep their former dates for the specifications.
  struct Expected {
    const char* id;
    double price_usd, low_usd, high_usd;
    const char* as_of;
    const char* page;
    const char* record_as_of;
  };
  // H100: 'typ. $285,000' of $250,000-$320,000 (Mercatus, 2026-05-04), $317,000 (2024-08-22) before.
  // H200: 'typ. ~$370,000' of $320,000-$420,000 (Mercatus, 2026-05-04), an ESTIMATE $350,000 before.
  // B200: '~$515,000' for a complete DGX B200, no range (gpu.fm, 2026-02-13): the same figure,
  // dated 2025-03-16 before.
  const Expected expected[] = {
      {"hgx-h100-8", 285000.0, 250000.0, 320000.0, "2026-05-04", "https://www.mercatus-ai.com/blog/h100-gpu-cost",
       "2024-08-22"},
      {"hgx-h200-8", 370000.0, 320000.0, 420000.0, "2026-05-04", "https://www.mercatus-ai.com/blog/h200-price",
       "2025-06-01"},
      {"hgx-b200-8", 515000.0, 515000.0, 515000.0, "2026-02-13",
       "https://www.gpu.fm/blog/nvidia-b200-complete-buyers-guide-2026", "2025-03-16"},
  };
  for (const Expected& e : expected) {
    INFO(e.id);
    const ServerModel s = parsed<ServerModel>(catalog, "server", e.id, parse_server);
    CHECK(s.price_usd == doctest::Approx(e.price_usd).epsilon(1e-12));
    CHECK(s.price_usd >= e.low_usd);
    CHECK(s.price_usd <= e.high_usd);
    CHECK(s.provenance.as_of == e.record_as_of);
    const FigureProvenance* price = find_figure(s.provenance, "price_usd");
    REQUIRE(price != nullptr);
    CHECK(price->own_as_of);
    CHECK(price->own_source);
    CHECK(price->as_of == e.as_of);
    CHECK(price->source.find(e.page) != std::string::npos);
    CHECK(price->source.find("callgideon/model-inference") != std::string::npos);
    CHECK(price->source.find("second-hand quote of a trade-press aggregator") != std::string::npos);
    CHECK(price->source.find("not retrieved") != std::string::npos);
    // The specifications keep the record's date.
    const FigureProvenance* peak = find_figure(s.provenance, "peak_kw");
    REQUIRE(peak != nullptr);
    CHECK(peak->as_of == e.record_as_of);
    CHECK_FALSE(peak->own_as_of);
  }
  // On 2026-11-30 none of the three prices is stale: 2026-05-04 is 210 days back (May 27 + June 30
  // + July 31 + August 31 + September 30 + October 31 + 30), 2026-02-13 is 80 days before that
  // (February 15 + March 31 + April 30 + 4), 290; hgx-a100-8's 2025-06-01 (547 days) still is.
  // On 2027-05-05 the two Mercatus prices are 366 days old and gpu.fm's 446: all three stale.
  auto stale_servers_on = [](const char* today) {
    ValidationOptions options;
    options.today = today;
    std::set<std::string> where;
    for (const Finding& f : validate_catalog_dir(catalog_dir(), options))
      if (f.file.find("servers.json") != std::string::npos) where.insert(f.where);
    return where;
  };
  const std::set<std::string> now = stale_servers_on("2026-11-30");
  const std::set<std::string> later = stale_servers_on("2027-05-05");
  for (const char* price : {"/records/0/field_provenance/price_usd/as_of", "/records/1/field_provenance/price_usd/as_of",
                            "/records/2/field_provenance/price_usd/as_of"}) {
    INFO(price);
    CHECK(now.count(price) == 0);
    CHECK(later.count(price) == 1);
  }
  CHECK(now.count("/records/0/as_of") == 0);  // its price is dated apart; specifications do not age
  CHECK(now.count("/records/3/as_of") == 1);  // hgx-a100-8
}

TEST_CASE("pricing-data: Azure ND96isr H100 v5's reservation prices are the API's term totals per hour") {
  const Catalog catalog = Catalog::load(catalog_dir());
  const CloudOffer nd =
      parsed<CloudOffer>(catalog, "cloud_offer", "azure/ND96isr_H100_v5/eastus", parse_cloud_offer);
  // Azure Retail Prices API Reservation totals of 2026-09-19 (second-hand, callgideon/model-inference
  // section 3.3): 8 GPUs x the file's per-GPU-hour columns, 8 x 7.866 = 62.928, 8 x 5.395 = 43.16,
  // 8 x 4.916 = 39.328 an instance-hour. The API's term totals over 8,760 h a year agree within
  // $0.004: $551,221 / 8,760 = 62.924772, $1,134,310 / 26,280 = 43.162481,
  // $1,722,566 / 43,800 = 39.327991.
  REQUIRE(nd.reserved_1y_usd_per_hour.has_value());
  REQUIRE(nd.reserved_3y_usd_per_hour.has_value());
  REQUIRE(nd.reserved_usd_per_hour_by_term_months.count(60) == 1);
  CHECK(*nd.reserved_1y_usd_per_hour == doctest::Approx(62.928).epsilon(1e-12));
  CHECK(*nd.reserved_3y_usd_per_hour == doctest::Approx(43.16).epsilon(1e-12));
  CHECK(nd.reserved_usd_per_hour_by_term_months.at(60) == doctest::Approx(39.328).epsilon(1e-12));
  CHECK(std::abs(*nd.reserved_1y_usd_per_hour - 551221.0 / 8760.0) < 0.004);
  CHECK(std::abs(*nd.reserved_3y_usd_per_hour - 1134310.0 / 26280.0) < 0.004);
  CHECK(std::abs(nd.reserved_usd_per_hour_by_term_months.at(60) - 1722566.0 / 43800.0) < 0.004);
  // Dated apart from the record's on-demand and spot (2026-09-17), which they do not replace.
  CHECK(nd.on_demand_usd_per_hour == doctest::Approx(98.32).epsilon(1e-12));
  CHECK(nd.provenance.as_of == "2026-09-17");
  for (const char* field : {"reserved_1y_usd_per_hour", "reserved_3y_usd_per_hour", "reserved_usd_per_hour_by_term_months"}) {
    INFO(field);
    const FigureProvenance* f = find_figure(nd.provenance, field);
    REQUIRE(f != nullptr);
    CHECK(f->as_of == "2026-09-19");
    CHECK(f->source.find("Second-hand quote") != std::string::npos);
  }
  CHECK(find_figure(nd.provenance, "on_demand_usd_per_hour")->as_of == "2026-09-17");
}

TEST_CASE("pricing-data: H100, H200, A100 80GB and L40S offers at clouds and GPU clouds") {
  const Catalog catalog = Catalog::load(catalog_dir());
  std::map<std::string, std::set<std::string>> providers_by_gpu;
  for (const CatalogRecord& record : catalog.records())
    if (record.kind == "cloud_offer")
      providers_by_gpu[record.fields.at("gpu_model").get<std::string>()].insert(record.fields.at("provider").get<std::string>());
  CHECK(providers_by_gpu["h100-sxm-80gb"] == std::set<std::string>{"aws", "azure", "gcp", "lambda", "runpod"});
  CHECK(providers_by_gpu["a100-sxm-80gb"] == std::set<std::string>{"aws", "azure", "gcp", "lambda", "runpod"});
  CHECK(providers_by_gpu["h200-sxm-141gb"] == std::set<std::string>{"aws", "runpod"});
  CHECK(providers_by_gpu["l40s"] == std::set<std::string>{"aws", "runpod"});
  CHECK(providers_by_gpu["b200"] == std::set<std::string>{"aws", "runpod"});
  // The GCP record is host + accelerator: 1.18251 + 4.20076 = 5.38327 (us-central1-a).
  const CloudOffer a3 = parsed<CloudOffer>(catalog, "cloud_offer", "gcp/a3-highgpu-1g/us-central1", parse_cloud_offer);
  CHECK(a3.on_demand_usd_per_hour == doctest::Approx(1.18251 + 4.20076).epsilon(1e-12));
}

TEST_CASE("cli: validate exits 0 on a clean catalog and 2 on errors") {
  std::ostringstream out, err;
  CHECK(tco::cli::run_main({"validate", catalog_dir()}, out, err) == 0);
  CHECK(out.str() == "0 errors, 0 warnings\n");

  auto dir = tco::test::scratch_dir("cli-validate-bad");
  std::ofstream(dir / "gpus.json") << R"({"kind": "gpu", "records": [
    {"id": "g", "name": "G", "perf_relative": 1, "memory_gb": 80, "tdp_w": 700, "as_of": "2025-06-01"},
    {"id": "g2", "name": "G2", "perf_relative": 1, "memory_gb": 80, "tdp_w": 700, "source": "s", "as_of": "2025-06-01",
     "tdp_kw": 0.7}]})";
  std::ostringstream out2, err2;
  CHECK(tco::cli::run_main({"validate", dir.string()}, out2, err2) == 2);
  const std::string text = out2.str();
  const std::string file = (dir / "gpus.json").string();
  CHECK(text.find("error: " + file + ": /records/0/source: the record has no \"source\"") != std::string::npos);
  CHECK(text.find("[missing-provenance]") != std::string::npos);
  CHECK(text.find("error: " + file + ": /records/1/tdp_kw: unknown key \"tdp_kw\"") != std::string::npos);
  CHECK(text.find("2 errors, 0 warnings\n") != std::string::npos);

  // --today: a future as_of is an error; a single catalog file is checked on its own.
  std::ostringstream out3, err3;
  CHECK(tco::cli::run_main({"validate", catalog_dir() + "/gpus.json", "--today", "2025-05-01"}, out3, err3) == 2);
  CHECK(out3.str().find("[as-of-in-future]") != std::string::npos);
  CHECK(out3.str().find("cloud_offers.json") == std::string::npos);

  std::ostringstream out4, err4;
  CHECK(tco::cli::run_main({"validate", (dir / "missing").string()}, out4, err4) == 2);
  std::ostringstream out5, err5;
  CHECK(tco::cli::run_main({"validate", catalog_dir(), "--today", "July"}, out5, err5) == 2);
}

TEST_CASE("cli: pricing import needs --as-of and writes a valid catalog file") {
  TCO_REQUIRE_SHARED_DATA();
  const std::string csv = tco::test::shared_data_path("skypilot-catalog/lambda_vms_v7_first-gpu-groups.csv");
  auto dir = tco::test::scratch_dir("cli-pricing-import");
  const std::string out_path = (dir / "offers.json").string();

  std::ostringstream out, err;
  CHECK(tco::cli::run_main({"pricing", "import", "--format", "skypilot", csv, "-o", out_path}, out, err) == 2);
  CHECK(err.str().find("--as-of YYYY-MM-DD is required") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out_path));

  std::ostringstream out2, err2;
  CHECK(tco::cli::run_main({"pricing", "import", "--format", "skypilot", csv, "-o", out_path, "--as-of", "2025-06-01",
                            "--source", "commit 11580132"},
                           out2, err2) == 0);
  // 4 groups (8x V100, 4x/2x/1x A6000) x 17 regions = 68 records.
  CHECK(out2.str() == "wrote 68 cloud_offer records to " + out_path + " (68 rows read, 0 with a $0 price left out, 0 with NaN dropped, 1 notes)\n");
  CHECK(err2.str().find("lambda has no spot price") != std::string::npos);
  std::ostringstream out3, err3;
  CHECK(tco::cli::run_main({"validate", out_path}, out3, err3) == 0);

  std::ostringstream out4, err4;
  CHECK(tco::cli::run_main({"pricing", "import", "--format", "csv", csv, "-o", out_path, "--as-of", "2025-06-01"},
                           out4, err4) == 2);
}

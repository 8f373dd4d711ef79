#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include "core/error.hpp"
#include "core/io/json_reader.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "test_support.hpp"

using namespace tco;

namespace {

void write(const std::filesystem::path& path, const Json& document) {
  std::ofstream out(path, std::ios::binary);
  out << document.dump(2);
}

Json offer(const std::string& provider, const std::string& instance, const std::string& region, int gpus,
           double on_demand) {
  return Json{{"id", provider + "/" + instance + "/" + region},
              {"provider", provider},
              {"instance_type", instance},
              {"region", region},
              {"gpu_model", "h100-sxm-80gb"},
              {"gpus_per_instance", gpus},
              {"on_demand_usd_per_hour", on_demand},
              {"source", "test"},
              {"as_of", "2025-06-01"}};
}

Json catalog_file(const std::string& kind, const Json& records) {
  return Json{{"kind", kind}, {"records", records}};
}

// Writes a catalog of cloud offers (and one gpu) and validates it.
std::vector<Finding> validate_offers(const std::string& name, const Json& offers, const ValidationOptions& options = {}) {
  auto dir = tco::test::scratch_dir(name);
  write(dir / "cloud_offers.json", catalog_file("cloud_offer", offers));
  write(dir / "gpus.json", catalog_file("gpu", Json::array({Json{{"id", "h100-sxm-80gb"},
                                                                  {"name", "H100"},
                                                                  {"perf_relative", 1.0},
                                                                  {"memory_gb", 80},
                                                                  {"tdp_w", 700},
                                                                  {"source", "datasheet"},
                                                                  {"as_of", "2026-06-01"}}})));
  return validate_catalog_dir(dir.string(), options);
}

// "code where" of each finding, for compact assertions.
std::vector<std::string> summary(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings)
    out.push_back(std::string(f.severity == Finding::Severity::error ? "E " : "W ") + f.code + " " + f.where);
  return out;
}

bool has(const std::vector<Finding>& findings, const std::string& line) {
  const auto s = summary(findings);
  return std::find(s.begin(), s.end(), line) != s.end();
}

}  // namespace

TEST_CASE("catalog validation: a clean catalog has no findings") {
  Json good = offer("aws", "p5.48xlarge", "us-east-1", 8, 98.32);
  good["spot_usd_per_hour"] = 19.66;  // 19.66 / 98.32 = 20% of on-demand
  CHECK(validate_offers("val-clean", Json::array({good})).empty());
}

TEST_CASE("catalog validation: invalid-record carries the pointer inside the file") {
  auto dir = tco::test::scratch_dir("val-invalid");
  Json servers = Json::array();
  for (int i = 0; i < 4; ++i) {
    servers.push_back(Json{{"id", "s" + std::to_string(i)}, {"gpu_model", "g"}, {"gpus", 8}, {"price_usd", 1000},
                           {"idle_kw", 1.0}, {"peak_kw", 10.0}, {"source", "s"}, {"as_of", "2025-06-01"}});
  }
  servers[3]["peak_kw"] = -10.2;
  write(dir / "servers.json", catalog_file("server", servers));
  const auto findings = validate_catalog_dir(dir.string());
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].code == "invalid-record");
  CHECK(findings[0].severity == Finding::Severity::error);
  CHECK(findings[0].where == "/records/3/peak_kw");
  CHECK(findings[0].file == (dir / "servers.json").string());
  CHECK(findings[0].message.find("expected a number in (0, 1000], found number -10.2") == 0);
}

TEST_CASE("catalog validation: invalid-file for a file that is not a catalog") {
  auto dir = tco::test::scratch_dir("val-invalid-file");
  write(dir / "a.json", Json{{"kind", "offers"}, {"records", Json::array()}});
  std::ofstream(dir / "b.json") << "{ not json";
  const auto findings = validate_catalog_dir(dir.string());
  CHECK(has(findings, "E invalid-file /kind"));
  CHECK(has(findings, "E invalid-file line 1, column 4"));
}

TEST_CASE("catalog validation: duplicate ids, within a file and across files") {
  auto dir = tco::test::scratch_dir("val-dup");
  const Json o = offer("aws", "p5.48xlarge", "us-east-1", 8, 98.32);
  write(dir / "a.json", catalog_file("cloud_offer", Json::array({o, o})));
  write(dir / "b.json", catalog_file("cloud_offer", Json::array({o})));
  const auto findings = validate_catalog_dir(dir.string());
  CHECK(summary(findings) == std::vector<std::string>{"E duplicate-id /records/1/id", "E duplicate-id /records/0/id"});
  CHECK(findings[1].file == (dir / "b.json").string());
  CHECK(findings[1].message.find("first at " + (dir / "a.json").string() + ": /records/0") != std::string::npos);
}

TEST_CASE("catalog validation: zero prices are errors, spot above on-demand a warning") {
  Json zero = offer("aws", "p5.48xlarge", "us-east-1", 8, 98.32);
  zero["reserved_1y_usd_per_hour"] = 0;
  Json above = offer("gcp", "a3-highgpu-1g", "asia-northeast1", 1, 5.71934);
  above["spot_usd_per_hour"] = 11.08982;  // the real GCP quirk: host 1.07106 + H100 10.01876
  const auto findings = validate_offers("val-zero", Json::array({zero, above}));
  CHECK(summary(findings) == std::vector<std::string>{"E zero-price /records/0/reserved_1y_usd_per_hour",
                                                      "W spot-above-on-demand /records/1/spot_usd_per_hour"});
  // 11.08982 / 5.71934 = 1.939...
  CHECK(findings[1].message.find("(x1.94)") != std::string::npos);
}

TEST_CASE("catalog validation: the 730x monthly slip") {
  // $98.32/h typed as the monthly 98.32 x 730 = 71,773.6: / 8 GPUs = $8,971.70 per GPU-hour.
  const Json monthly = offer("aws", "p5.48xlarge", "us-east-1", 8, 71773.6);
  const auto findings = validate_offers("val-monthly", Json::array({monthly}));
  REQUIRE(summary(findings) == std::vector<std::string>{"W unit-slip-monthly /records/0/on_demand_usd_per_hour"});
  CHECK(findings[0].message.find("$8971.70 per GPU-hour") != std::string::npos);
  CHECK(findings[0].message.find("98.3200 per hour") != std::string::npos);
  // $12.29 per GPU-hour (98.32 / 8) is fine, and so is $100 exactly.
  CHECK(validate_offers("val-monthly-ok", Json::array({offer("aws", "p5.48xlarge", "us-east-1", 8, 800.0)})).empty());
}

TEST_CASE("catalog validation: per-GPU vs per-instance confusion") {
  // Spot 2.46 = 19.66 / 8 typed per GPU: 2.46 / 98.32 = 2.5% of on-demand < 5%.
  Json low = offer("aws", "p5.48xlarge", "us-east-1", 8, 98.32);
  low["spot_usd_per_hour"] = 2.46;
  // Reserved 800 > on-demand 98.32 x 8 = 786.56: multiplied by the GPU count twice.
  Json high = offer("aws", "p5.48xlarge", "us-east-2", 8, 98.32);
  high["reserved_3y_usd_per_hour"] = 800.0;
  // One GPU per instance: the confusion cannot happen, so no warning even at 2.5%.
  Json single = offer("gcp", "a3-highgpu-1g", "us-central1", 1, 5.38327);
  single["spot_usd_per_hour"] = 0.13;
  const auto findings = validate_offers("val-per-gpu", Json::array({low, high, single}));
  CHECK(summary(findings) == std::vector<std::string>{"W unit-slip-per-gpu /records/0/spot_usd_per_hour",
                                                      "W unit-slip-per-gpu /records/1/reserved_3y_usd_per_hour"});
  CHECK(findings[0].message.find("2.5% of on-demand") != std::string::npos);
  CHECK(findings[0].message.find("x 8 GPUs = 19.68") != std::string::npos);
}

TEST_CASE("catalog validation: missing provenance is reported before the strict parse") {
  Json no_source = offer("aws", "p5.48xlarge", "us-east-1", 8, 98.32);
  no_source.erase("source");
  Json no_date = offer("aws", "p5.48xlarge", "us-west-2", 8, 98.32);
  no_date.erase("as_of");
  no_date["spot_usd_per_hour"] = -1;  // still found: the strict parse runs with a placeholder date
  const auto findings = validate_offers("val-provenance", Json::array({no_source, no_date}));
  CHECK(summary(findings) == std::vector<std::string>{"E missing-provenance /records/0/source",
                                                      "E missing-provenance /records/1/as_of",
                                                      "E invalid-record /records/1/spot_usd_per_hour"});
}

TEST_CASE("catalog validation: as_of in the future or stale, against --today") {
  Json future = offer("aws", "p5.48xlarge", "us-east-1", 8, 98.32);
  future["as_of"] = "2026-07-02";
  Json stale = offer("aws", "p5.48xlarge", "us-west-2", 8, 98.32);
  stale["as_of"] = "2024-06-30";
  Json fresh = offer("aws", "p5.48xlarge", "us-east-2", 8, 98.32);
  fresh["as_of"] = "2025-07-01";
  ValidationOptions options;
  options.today = "2026-07-01";
  const auto findings = validate_offers("val-dates", Json::array({future, stale, fresh}), options);
  CHECK(summary(findings) == std::vector<std::string>{"E as-of-in-future /records/0/as_of",
                                                      "W as-of-stale /records/1/as_of"});
  CHECK(findings[0].message.find("1 days after today") != std::string::npos);
  // 2024-06-30 -> 2025-06-30 is 365 days (no Feb 29 in between), -> 2026-07-01 another 366;
  // 2025-07-01 -> 2026-07-01 = 365 days is not above the default 365, so no warning.
  CHECK(findings[1].message.find("is 731 days old") != std::string::npos);
  // Without --today the checks are skipped.
  CHECK(validate_offers("val-dates-skip", Json::array({future, stale})).empty());
  options.today = "01/07/2026";
  CHECK_THROWS_AS(validate_offers("val-dates-bad", Json::array({future}), options), InputError);
}

TEST_CASE("catalog validation: GPU count of known instance types") {
  const Json wrong = offer("aws", "p5.48xlarge", "us-east-1", 4, 98.32);
  const auto findings = validate_offers("val-count", Json::array({wrong}));
  REQUIRE(summary(findings) == std::vector<std::string>{"E gpu-count-mismatch /records/0/gpus_per_instance"});
  CHECK(findings[0].message == "aws p5.48xlarge has 8 GPUs, found gpus_per_instance 4");

  CHECK(known_gpus_per_instance("aws", "p4d.24xlarge") == 8);
  CHECK(known_gpus_per_instance("gcp", "a3-highgpu-8g") == 8);
  CHECK(known_gpus_per_instance("gcp", "a2-megagpu-16g") == 16);
  CHECK(known_gpus_per_instance("gcp", "a3-edgegpu-8g-nolssd") == 8);
  CHECK(known_gpus_per_instance("gcp", "a2-ultragpu-1g") == 1);
  CHECK(known_gpus_per_instance("azure", "ND96isr_H100_v5") == 8);
  CHECK(known_gpus_per_instance("azure", "Standard_ND96isr_H100_v5") == 8);
  CHECK(known_gpus_per_instance("lambda", "gpu_8x_h100_sxm5") == 8);
  CHECK(known_gpus_per_instance("runpod", "8x_H100-SXM_SECURE") == 8);
  CHECK_FALSE(known_gpus_per_instance("aws", "m5.large").has_value());
  CHECK_FALSE(known_gpus_per_instance("gcp", "n2-standard-8").has_value());
}

TEST_CASE("catalog validation: id format and unknown gpu ids") {
  Json renamed = offer("aws", "p5.48xlarge", "us-east-1", 8, 98.32);
  renamed["id"] = "aws-p5-use1";
  Json unknown_gpu = offer("aws", "p5.48xlarge", "us-west-2", 8, 98.32);
  unknown_gpu["gpu_model"] = "h100";
  const auto findings = validate_offers("val-ids", Json::array({renamed, unknown_gpu}));
  CHECK(summary(findings) == std::vector<std::string>{"W id-format /records/0/id",
                                                      "E unknown-gpu-model /records/1/gpu_model"});
}

TEST_CASE("catalog validation: a cooling rack limit that needs more air than the room gives") {
  auto dir = tco::test::scratch_dir("val-airflow");
  // 3.16 x 50,000 W / 20 F = 7,900 CFM > 5,000.
  write(dir / "cooling.json",
        catalog_file("cooling", Json::array({Json{{"id", "air"}, {"type", "air"}, {"pue_model", "constant"},
                                                   {"pue", 1.5}, {"rack_limit_kw", 50}, {"max_cfm_per_rack", 5000},
                                                   {"source", "s"}, {"as_of", "2025-06-01"}}})));
  const auto findings = validate_catalog_dir(dir.string());
  REQUIRE(summary(findings) == std::vector<std::string>{"W airflow-above-limit /records/0/rack_limit_kw"});
  CHECK(findings[0].message.find("= 7900 CFM") != std::string::npos);
}

TEST_CASE("catalog validation: an id that disappeared since the previous catalog") {
  const Json kept = offer("aws", "p5.48xlarge", "us-east-1", 8, 98.32);
  const Json dropped = offer("aws", "p4d.24xlarge", "us-east-1", 8, 32.7726);
  auto old_dir = tco::test::scratch_dir("val-against-old");
  write(old_dir / "cloud_offers.json", catalog_file("cloud_offer", Json::array({kept, dropped})));
  ValidationOptions options;
  options.against_dir = old_dir.string();
  const auto findings = validate_offers("val-against-new", Json::array({kept}), options);
  REQUIRE(summary(findings) == std::vector<std::string>{"W sku-disappeared /records/1"});
  CHECK(findings[0].file == (old_dir / "cloud_offers.json").string());
  CHECK(findings[0].message.find("cloud_offer \"aws/p4d.24xlarge/us-east-1\"") == 0);
}

TEST_CASE("catalog validation: a number too large for a double is an invalid file, not a crash") {
  auto dir = tco::test::scratch_dir("val-overflow");
  std::ofstream(dir / "gpus.json") << R"({"kind": "gpu", "records": [{"id": "g", "name": "G", "perf_relative": 1,
    "memory_gb": 80, "tdp_w": 1e999, "source": "s", "as_of": "2025-06-01"}]})";
  const auto findings = validate_catalog_dir(dir.string());
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].code == "invalid-file");
  CHECK(findings[0].message.find("number overflow") != std::string::npos);
}

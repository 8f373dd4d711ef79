#include <doctest/doctest.h>

#include "core/error.hpp"
#include "models/catalog/records.hpp"

using namespace tco;

namespace {

// Runs a strict parser on a JSON text and returns the error text ("" when it parsed).
template <typename Parse>
std::string error_of(const std::string& text, Parse parse) {
  const Json j = Json::parse(text);
  try {
    JsonObjectReader r(j, "cat.json", "/records/0");
    parse(r);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const char* kOffer = R"({
  "id": "aws/p5.48xlarge/us-east-1", "provider": "aws", "instance_type": "p5.48xlarge",
  "region": "us-east-1", "gpu_model": "h100-sxm-80gb", "gpus_per_instance": 8,
  "on_demand_usd_per_hour": 98.32, "spot_usd_per_hour": 19.66, "spot_notice_s": 120,
  "source": "test", "as_of": "2025-06-01"})";

}  // namespace

TEST_CASE("records: a cloud offer parses with its defaults") {
  const Json j = Json::parse(kOffer);
  JsonObjectReader r(j, "cat.json", "/records/0");
  const CloudOffer o = parse_cloud_offer(r, "aws/p5.48xlarge/us-east-1");
  CHECK(o.provider == "aws");
  CHECK(o.gpus_per_instance == 8);
  CHECK(o.on_demand_usd_per_hour == doctest::Approx(98.32).epsilon(1e-12));
  REQUIRE(o.spot_usd_per_hour.has_value());
  CHECK(*o.spot_usd_per_hour == doctest::Approx(19.66).epsilon(1e-12));
  CHECK_FALSE(o.reserved_1y_usd_per_hour.has_value());
  CHECK(*o.spot_notice_s == doctest::Approx(120.0).epsilon(1e-12));
  // Defaults from models/catalog/records.hpp.
  CHECK(o.billing_granularity_s == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(o.minimum_billed_s == doctest::Approx(60.0).epsilon(1e-12));
  CHECK_FALSE(o.pue.has_value());
  CHECK(o.provenance.kind == "cloud_offer");
  CHECK(o.provenance.id == "aws/p5.48xlarge/us-east-1");
  CHECK(o.provenance.as_of == "2025-06-01");
}

TEST_CASE("records: unknown keys, negative prices and bad dates are errors with pointers") {
  auto parse = [](JsonObjectReader& r) { parse_cloud_offer(r, "x"); };
  Json j = Json::parse(kOffer);
  j["on_demand_usd_per_hr"] = 1.0;  // misspelt
  CHECK(error_of(j.dump(), parse).find("/records/0/on_demand_usd_per_hr: unknown key") != std::string::npos);

  j = Json::parse(kOffer);
  j["spot_usd_per_hour"] = -1.0;
  CHECK(error_of(j.dump(), parse).find("/records/0/spot_usd_per_hour: expected a number in [0, 100000]") !=
        std::string::npos);

  j = Json::parse(kOffer);
  j["as_of"] = "2025-02-30";
  CHECK(error_of(j.dump(), parse).find("/records/0/as_of: expected a date") != std::string::npos);

  j = Json::parse(kOffer);
  j.erase("source");
  CHECK(error_of(j.dump(), parse).find("/records/0/source") != std::string::npos);

  j = Json::parse(kOffer);
  j["gpus_per_instance"] = 0;
  CHECK(error_of(j.dump(), parse).find("/records/0/gpus_per_instance") != std::string::npos);

  j = Json::parse(kOffer);
  j["pue"] = 0.9;
  CHECK(error_of(j.dump(), parse).find("/records/0/pue: expected a number in [1, 5]") != std::string::npos);

  // A price of 0 parses (an override may zero a price; the catalog validator flags it).
  j = Json::parse(kOffer);
  j["spot_usd_per_hour"] = 0;
  CHECK(error_of(j.dump(), parse).empty());
}

TEST_CASE("records: a server's idle power may not exceed its peak") {
  const std::string ok = R"({"gpu_model": "h100-sxm-80gb", "gpus": 8, "price_usd": 300000,
    "idle_kw": 2.0, "peak_kw": 10.2, "source": "t", "as_of": "2025-01-01"})";
  const Json j = Json::parse(ok);
  JsonObjectReader r(j, "servers.json", "/records/1");
  const ServerModel s = parse_server(r, "hgx-h100-8");
  CHECK(s.peak_kw == doctest::Approx(10.2).epsilon(1e-12));
  CHECK(s.idle_kw == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(s.gpus == 8);

  Json bad = j;
  bad["idle_kw"] = 11.0;
  const std::string err = error_of(bad.dump(), [](JsonObjectReader& rr) { parse_server(rr, "x"); });
  CHECK(err.find("/records/0/idle_kw: expected idle_kw <= peak_kw (10.2 kW), found 11 kW") != std::string::npos);
}

TEST_CASE("records: gpu, power region and colocation") {
  const Json gpu = Json::parse(R"({"name": "NVIDIA H100 SXM5 80GB", "perf_relative": 1.0,
    "memory_gb": 80, "tdp_w": 700, "source": "datasheet", "as_of": "2025-06-01"})");
  JsonObjectReader rg(gpu, "gpus.json", "/records/0");
  CHECK(parse_gpu(rg, "h100-sxm-80gb").tdp_w == doctest::Approx(700.0).epsilon(1e-12));

  Json zero_perf = gpu;
  zero_perf["perf_relative"] = 0;
  CHECK(error_of(zero_perf.dump(), [](JsonObjectReader& r) { parse_gpu(r, "x"); }).find("perf_relative") !=
        std::string::npos);

  const Json power = Json::parse(R"({"name": "ref", "usd_per_kwh": 0.12, "g_co2_per_kwh": 367,
    "source": "s", "as_of": "2025-06-01"})");
  JsonObjectReader rp(power, "p.json", "/records/0");
  CHECK(parse_power_region(rp, "us-reference-0.12").usd_per_kwh == doctest::Approx(0.12).epsilon(1e-12));

  const Json colo = Json::parse(R"({"name": "c", "usd_per_rack_month": 1500, "source": "s", "as_of": "2025-06-01"})");
  JsonObjectReader rc(colo, "c.json", "/records/0");
  const Colocation c = parse_colocation(rc, "c");
  CHECK(c.usd_per_kw_month == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(c.usd_per_rack_month == doctest::Approx(1500.0).epsilon(1e-12));
  CHECK(error_of(R"({"name": "c", "source": "s", "as_of": "2025-06-01"})",
                 [](JsonObjectReader& r) { parse_colocation(r, "c"); })
            .find("/records/0/usd_per_kw_month") != std::string::npos);
}

TEST_CASE("records: a cooling record carries the fields of its PUE model only") {
  const Json air = Json::parse(R"({"type": "air", "pue_model": "constant", "pue": 1.5,
    "rack_limit_kw": 15, "max_cfm_per_rack": 2500, "source": "s", "as_of": "2025-06-01"})");
  JsonObjectReader ra(air, "cooling.json", "/records/0");
  const CoolingType c = parse_cooling(ra, "air");
  CHECK(c.pue == doctest::Approx(1.5).epsilon(1e-12));
  CHECK(c.delta_t_f == doctest::Approx(20.0).epsilon(1e-12));

  Json mixed = air;
  mixed["pue_min"] = 1.1;
  CHECK(error_of(mixed.dump(), [](JsonObjectReader& r) { parse_cooling(r, "x"); })
            .find("/records/0/pue_min: \"pue_min\" applies to pue_model \"ambient\" only") != std::string::npos);

  const Json ambient = Json::parse(R"({"type": "air", "pue_model": "ambient", "pue_min": 1.15,
    "pue_slope_per_c": 0.02, "free_cooling_c": 18, "rack_limit_kw": 15, "source": "s", "as_of": "2025-06-01"})");
  JsonObjectReader rb(ambient, "cooling.json", "/records/1");
  const CoolingType e = parse_cooling(rb, "air-economizer");
  CHECK(e.pue_slope_per_c == doctest::Approx(0.02).epsilon(1e-12));

  Json low = air;
  low["pue"] = 0.95;
  CHECK(error_of(low.dump(), [](JsonObjectReader& r) { parse_cooling(r, "x"); }).find("/records/0/pue") !=
        std::string::npos);
}

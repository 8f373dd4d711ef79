// `tcosim validate` on the mistakes real public catalogs make (issue 6; SkyPilot's and
// OpenCost's trackers), one test each, through the command line as CI runs it: a small
// catalog written into a scratch folder, then the exit code and the finding's code.
// Errors exit 2, warnings are printed and exit 0 (cli/commands/cmd_validate.cpp).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "cli/app.hpp"
#include "core/io/json_reader.hpp"
#include "test_support.hpp"

namespace {

using tco::Json;

struct Result {
  int exit_code;
  std::string out;
};

Result validate(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  std::vector<std::string> full = {"validate"};
  full.insert(full.end(), args.begin(), args.end());
  const int code = tco::cli::run_main(full, out, err);
  return {code, out.str() + err.str()};
}

// The reference offer of SPEC §11: 8x H100 at $98.32/h on-demand, $19.66/h spot.
Json h100_offer() {
  return {{"id", "aws/p5.48xlarge/us-east-1"},
          {"provider", "aws"},
          {"instance_type", "p5.48xlarge"},
          {"region", "us-east-1"},
          {"gpu_model", "h100"},
          {"gpus_per_instance", 8},
          {"on_demand_usd_per_hour", 98.32},
          {"spot_usd_per_hour", 19.66},
          {"source", "https://aws.amazon.com/ec2/pricing/on-demand/"},
          {"as_of", "2026-01-01"}};
}

using tco::test::write_text;

// A scratch catalog: one gpu record and the given cloud offers. Returns its folder.
std::string write_catalog(const std::string& name, const Json& offers) {
  const auto dir = tco::test::scratch_dir("validate-mistakes-" + name);
  const Json gpus = {{"kind", "gpu"},
                     {"records",
                      {{{"id", "h100"},
                        {"name", "H100 SXM 80GB"},
                        {"perf_relative", 1.0},
                        {"memory_gb", 80},
                        {"tdp_w", 700},
                        {"source", "NVIDIA H100 datasheet"},
                        {"as_of", "2026-01-01"}}}}};
  write_text(dir / "gpus.json", gpus.dump(2));
  write_text(dir / "cloud_offers.json", Json{{"kind", "cloud_offer"}, {"records", offers}}.dump(2));
  return dir.string();
}

std::string write_catalog(const std::string& name, const Json& offer, const char* key, const Json& value) {
  Json changed = offer;
  if (value.is_null()) changed.erase(key);
  else changed[key] = value;
  return write_catalog(name, Json::array({changed}));
}

bool mentions(const Result& r, const std::string& code) { return r.out.find("[" + code + "]") != std::string::npos; }

}  // namespace

TEST_CASE("validate mistakes: the clean reference catalog passes with no finding") {
  const Result r = validate({write_catalog("clean", Json::array({h100_offer()})), "--today", "2026-03-01"});
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("0 errors, 0 warnings") != std::string::npos);
}

TEST_CASE("validate mistakes: a price of 0 is an error") {
  const Result r = validate({write_catalog("zero", h100_offer(), "spot_usd_per_hour", 0.0)});
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(mentions(r, "zero-price"));
  CHECK(r.out.find("/records/0/spot_usd_per_hour") != std::string::npos);
}

TEST_CASE("validate mistakes: a NaN price is an error, as a bare literal or as a string") {
  SUBCASE("NaN literal (what some exporters write): not JSON at all") {
    const std::string dir = write_catalog("nan-literal", Json::array({h100_offer()}));
    std::string text = Json{{"kind", "cloud_offer"}, {"records", Json::array({h100_offer()})}}.dump(2);
    const std::string from = "\"on_demand_usd_per_hour\": 98.32";
    REQUIRE(text.find(from) != std::string::npos);
    text.replace(text.find(from), from.size(), "\"on_demand_usd_per_hour\": NaN");
    write_text(std::filesystem::path(dir) / "cloud_offers.json", text);
    const Result r = validate({dir});
    INFO(r.out);
    CHECK(r.exit_code == 2);
    CHECK(mentions(r, "invalid-file"));
  }
  SUBCASE("\"NaN\" as a string") {
    const Result r = validate({write_catalog("nan-string", h100_offer(), "on_demand_usd_per_hour", "NaN")});
    INFO(r.out);
    CHECK(r.exit_code == 2);
    CHECK(mentions(r, "invalid-record"));
    CHECK(r.out.find("/records/0/on_demand_usd_per_hour") != std::string::npos);
  }
}

// An overflowing number (1e999) is how an infinity leaks into JSON.
TEST_CASE("validate mistakes: an infinite price (1e999) is an error, not an internal error") {
  const std::string dir = write_catalog("inf", Json::array({h100_offer()}));
  std::string text = Json{{"kind", "cloud_offer"}, {"records", Json::array({h100_offer()})}}.dump(2);
  const std::string from = "\"on_demand_usd_per_hour\": 98.32";
  text.replace(text.find(from), from.size(), "\"on_demand_usd_per_hour\": 1e999");
  write_text(std::filesystem::path(dir) / "cloud_offers.json", text);
  const Result r = validate({dir});
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(mentions(r, "invalid-file"));
}

TEST_CASE("validate mistakes: spot above on-demand is a warning") {
  const Result r = validate({write_catalog("spot-above", h100_offer(), "spot_usd_per_hour", 120.0)});
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(mentions(r, "spot-above-on-demand"));
}

TEST_CASE("validate mistakes: --warnings-as-errors turns a warning into exit 1, an error stays exit 2") {
  const std::string warned = write_catalog("strict-warning", h100_offer(), "spot_usd_per_hour", 120.0);
  CHECK(validate({warned}).exit_code == 0);
  CHECK(validate({warned, "--warnings-as-errors"}).exit_code == 1);
  CHECK(validate({write_catalog("strict-clean", Json::array({h100_offer()})), "--warnings-as-errors"}).exit_code == 0);
  CHECK(validate({write_catalog("strict-error", h100_offer(), "spot_usd_per_hour", 0.0), "--warnings-as-errors"})
            .exit_code == 2);
}

TEST_CASE("validate mistakes: an hourly price that looks monthly (x730) is a warning") {
  // 98.32 x 730 = 71,773.60 per "hour": $8,971.70 per GPU-hour.
  const Result r = validate({write_catalog("monthly", h100_offer(), "on_demand_usd_per_hour", 98.32 * 730.0)});
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(mentions(r, "unit-slip-monthly"));
  CHECK(r.out.find("on_demand_usd_per_hour") != std::string::npos);
}

TEST_CASE("validate mistakes: per-GPU vs per-instance confusion (x GPU count) is a warning") {
  SUBCASE("spot given per GPU: 19.66 / 8 = 2.4575, 2.5% of on-demand") {
    const Result r = validate({write_catalog("per-gpu-spot", h100_offer(), "spot_usd_per_hour", 19.66 / 8.0)});
    INFO(r.out);
    CHECK(r.exit_code == 0);
    CHECK(mentions(r, "unit-slip-per-gpu"));
  }
  SUBCASE("on-demand given per GPU: 98.32 / 8 = 12.29, below spot x 8 GPUs") {
    Json offer = h100_offer();
    offer["on_demand_usd_per_hour"] = 98.32 / 8.0;
    offer["spot_usd_per_hour"] = 12.29 * 8.0 + 1.0;  // spot per instance above on-demand x 8
    const Result r = validate({write_catalog("per-gpu-od", Json::array({offer}))});
    INFO(r.out);
    CHECK(mentions(r, "unit-slip-per-gpu"));
  }
}

TEST_CASE("validate mistakes: a record without source or as_of is an error") {
  SUBCASE("no source") {
    const Result r = validate({write_catalog("no-source", h100_offer(), "source", nullptr)});
    INFO(r.out);
    CHECK(r.exit_code == 2);
    CHECK(mentions(r, "missing-provenance"));
    CHECK(r.out.find("/records/0/source") != std::string::npos);
  }
  SUBCASE("no as_of") {
    const Result r = validate({write_catalog("no-as-of", h100_offer(), "as_of", nullptr)});
    INFO(r.out);
    CHECK(r.exit_code == 2);
    CHECK(mentions(r, "missing-provenance"));
    CHECK(r.out.find("/records/0/as_of") != std::string::npos);
  }
}

TEST_CASE("validate mistakes: as_of in the future is an error, older than --max-age-days a warning") {
  SUBCASE("2027-01-01 against today 2026-03-01") {
    const Result r = validate({write_catalog("future", h100_offer(), "as_of", "2027-01-01"), "--today", "2026-03-01"});
    INFO(r.out);
    CHECK(r.exit_code == 2);
    CHECK(mentions(r, "as-of-in-future"));
  }
  SUBCASE("2026-01-01 is 59 days before 2026-03-01: stale at --max-age-days 30, fine at 60") {
    const std::string dir = write_catalog("stale", Json::array({h100_offer()}));
    const Result stale = validate({dir, "--today", "2026-03-01", "--max-age-days", "30"});
    INFO(stale.out);
    CHECK(stale.exit_code == 0);
    CHECK(mentions(stale, "as-of-stale"));
    const Result fresh = validate({dir, "--today", "2026-03-01", "--max-age-days", "60"});
    CHECK_FALSE(mentions(fresh, "as-of-stale"));
  }
}

TEST_CASE("validate mistakes: a duplicate id is an error") {
  const Result r = validate({write_catalog("duplicate", Json::array({h100_offer(), h100_offer()}))});
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(mentions(r, "duplicate-id"));
  CHECK(r.out.find("/records/1/id") != std::string::npos);
}

TEST_CASE("validate mistakes: a GPU count that disagrees with the instance type is an error") {
  // p5.48xlarge has 8 H100s.
  const Result r = validate({write_catalog("gpu-count", h100_offer(), "gpus_per_instance", 4)});
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(mentions(r, "gpu-count-mismatch"));
}

TEST_CASE("validate mistakes: a SKU that disappeared since the previous catalog (--against) is a warning") {
  Json gone = h100_offer();
  gone["id"] = "aws/p5.48xlarge/us-west-2";
  gone["region"] = "us-west-2";
  const std::string old_dir = write_catalog("against-old", Json::array({h100_offer(), gone}));
  const std::string new_dir = write_catalog("against-new", Json::array({h100_offer()}));
  const Result r = validate({new_dir, "--against", old_dir});
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(mentions(r, "sku-disappeared"));
  CHECK(r.out.find("aws/p5.48xlarge/us-west-2") != std::string::npos);
  CHECK(r.out.find("aws/p5.48xlarge/us-east-1") == std::string::npos);
}

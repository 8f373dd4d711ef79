// `tcosim pricing import --format term-structure` (models/importers/prices/term_structure_import.hpp)
// and the forwards a reserved-price curve implies (models/price_path/implied_forward.hpp): by
// hand on a 3-point curve; the 12/36-month curve gives the 1y/3y pair's forward; malformed rows
// exit 2 naming the file and line, and write nothing.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "models/importers/prices/term_structure_import.hpp"
#include "models/price_path/implied_forward.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

TEST_CASE("term structure: the forwards a 3-point curve implies, by hand") {
  // 1 month at $3.00, 3 months at $2.50, 6 months at $2.20 per GPU-hour. At r = 0, A(a, b) = b - a:
  //   [0, 1): F = P_1 = $3.00
  //   [1, 3): F = (2.50 x 3 - 3.00 x 1) / 2 = 4.50 / 2 = $2.25
  //   [3, 6): F = (2.20 x 6 - 2.50 x 3) / 3 = (13.20 - 7.50) / 3 = $1.90
  const std::vector<TermPoint> curve = {{1, 3.00}, {3, 2.50}, {6, 2.20}};
  const auto forwards = implied_forwards_from_curve(curve, 0.0);
  REQUIRE(forwards.size() == 3);
  CHECK(forwards[0].start_month == 0);
  CHECK(forwards[0].end_month == 1);
  CHECK(forwards[0].usd_per_gpu_hour == doctest::Approx(3.00).epsilon(1e-12));
  CHECK(forwards[1].start_month == 1);
  CHECK(forwards[1].end_month == 3);
  CHECK(forwards[1].usd_per_gpu_hour == doctest::Approx(2.25).epsilon(1e-12));
  CHECK(forwards[2].start_month == 3);
  CHECK(forwards[2].usd_per_gpu_hour == doctest::Approx(1.90).epsilon(1e-12));

  // At r = 8%, d_m = 1.08^(-(m+1)/12): A(0, 1) = 0.993607, A(0, 3) = 2.961806, A(1, 3) = 1.968199,
  // A(0, 6) = 5.867170, A(3, 6) = 2.905365:
  //   [1, 3): (2.50 x 2.961806 - 3.00 x 0.993607) / 1.968199 = 4.423693 / 1.968199 = $2.247585
  //   [3, 6): (2.20 x 5.867170 - 2.50 x 2.961806) / 2.905365 = 5.503260 / 2.905365 = $1.894172
  const auto discounted = implied_forwards_from_curve(curve, 0.08);
  CHECK(discounted[0].usd_per_gpu_hour == doctest::Approx(3.00).epsilon(1e-12));
  CHECK(discounted[1].usd_per_gpu_hour == doctest::Approx(2.247585).epsilon(1e-6));
  CHECK(discounted[2].usd_per_gpu_hour == doctest::Approx(1.894172).epsilon(1e-6));

  // The 12/36-month curve is the 1y/3y pair: P1 = $12, P3 = $10 at 8% gives 10 - 2 x 1.08^2 / 2.08
  // = $8.878462 (docs/model.md §4 "Implied forward price").
  const auto pair = implied_forwards_from_curve({{12, 12.0}, {36, 10.0}}, 0.08);
  CHECK(pair[1].usd_per_gpu_hour == doctest::Approx(8.878462).epsilon(1e-6));
  CHECK(pair[1].usd_per_gpu_hour == doctest::Approx(implied_forward_usd_per_hour(12.0, 10.0, 0.08)).epsilon(1e-12));
}

TEST_CASE("term-structure import: a curve file becomes each term's reserved price and the implied forwards") {
  const auto dir = scratch_dir("term-structure-ok");
  const auto csv = dir / "curve.csv";
  std::ofstream(csv, std::ios::binary) << "term_months,usd_per_gpu_hour,as_of,source\r\n"
                                          "1,3.00,2026-11-27,index a\r\n"
                                          "3,2.50,2026-11-27,index a\r\n"
                                          "6,1.00,2026-11-27,index b\r\n";
  const auto out = dir / "curve.json";
  const CliResult r = run_cli({"pricing", "import", "--format", "term-structure", csv.string(), "-o", out.string(),
                               "--discount-rate", "0"});
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("wrote a term structure of 3 reserved terms") != std::string::npos);
  const Json curve = Json::parse(read_text_file(out));
  CHECK(curve.at("kind") == "term_structure");
  CHECK(curve.at("as_of") == "2026-11-27");
  CHECK(curve.at("discount_rate_per_year").get<double>() == 0.0);
  const Json& terms = curve.at("reserved_terms");
  REQUIRE(terms.size() == 3);
  CHECK(terms[2].at("term_months") == 6);
  CHECK(terms[2].at("usd_per_gpu_hour").get<double>() == 1.00);
  CHECK(terms[2].at("source") == "index b");
  // [3, 6) at r = 0: (1.00 x 6 - 2.50 x 3) / 3 = -1.50 / 3 = -$0.50: kept, and warned.
  const Json& forwards = curve.at("implied_forwards");
  REQUIRE(forwards.size() == 3);
  CHECK(forwards[1].at("usd_per_gpu_hour").get<double>() == doctest::Approx(2.25));
  CHECK(forwards[2].at("start_month") == 3);
  CHECK(forwards[2].at("usd_per_gpu_hour").get<double>() == doctest::Approx(-0.50));
  CHECK(r.err.find("implied-forward-not-positive") != std::string::npos);
  CHECK(r.err.find("term_months 6") != std::string::npos);

  // --discount-rate is required here and refused elsewhere.
  const CliResult missing = run_cli({"pricing", "import", "--format", "term-structure", csv.string(), "-o",
                                     (dir / "none.json").string()});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("--discount-rate is required") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "none.json"));
}

TEST_CASE("term-structure import: a malformed curve exits 2 naming the file and line, and writes nothing") {
  const auto dir = scratch_dir("term-structure-bad");
  struct Case {
    const char* name;
    const char* text;
    const char* where;
  };
  const Case cases[] = {
      {"unsorted", "as_of,term_months,usd_per_gpu_hour,source\n2026-11-27,6,2.0,s\n2026-11-27,3,2.5,s\n",
       "line 3, column 12"},
      {"duplicate", "as_of,term_months,usd_per_gpu_hour,source\n2026-11-27,3,2.0,s\n2026-11-27,3,2.5,s\n",
       "line 3, column 12"},
      {"zero-price", "as_of,term_months,usd_per_gpu_hour,source\n2026-11-27,3,0,s\n", "line 2, column 14"},
      {"negative-price", "as_of,term_months,usd_per_gpu_hour,source\n2026-11-27,3,-1.5,s\n", "line 2, column 14"},
      {"nan-price", "as_of,term_months,usd_per_gpu_hour,source\n2026-11-27,3,nan,s\n", "line 2, column 14"},
      {"missing-column", "as_of,term_months,source\n2026-11-27,3,s\n", "line 1"},
      {"fractional-term", "date,term_months,usd_per_gpu_hour,source\n2026-11-27,1.5,2.0,s\n", "line 2, column 12"},
      {"two-dates", "date,term_months,usd_per_gpu_hour,source\n2026-11-27,1,2.0,s\n2026-11-28,3,2.0,s\n",
       "line 3, column 1"},
      {"no-source", "as_of,term_months,usd_per_gpu_hour,source\n2026-11-27,1,2.0,\n", "line 2, column 18"},
      {"fields", "as_of,term_months,usd_per_gpu_hour,source\n2026-11-27,1\n", "line 2, column 13"},
  };
  for (const Case& c : cases) {
    INFO("case " << c.name);
    const auto csv = dir / (std::string(c.name) + ".csv");
    std::ofstream(csv, std::ios::binary) << c.text;
    const auto out = dir / (std::string(c.name) + ".json");
    const CliResult r = run_cli({"pricing", "import", "--format", "term-structure", csv.string(), "-o", out.string(),
                                 "--discount-rate", "0.08"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(csv.string()) != std::string::npos);
    CHECK(r.err.find(c.where) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out));
  }
}

}  // namespace tco::test

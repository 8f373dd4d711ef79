// `tcosim pricing import --format price-index` (models/importers/prices/price_index_import.hpp): the
// published H100 rental index read in place into a price schedule that a scenario runs on; $0
// and NaN rows skipped and counted; malformed rows exit 2 naming the file, line and column.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "models/importers/prices/price_index_import.hpp"
#include "scenario_builder.hpp"

namespace tco::test {

TEST_CASE("price-index import: the published H100 rental index becomes a schedule a scenario runs on") {
  TCO_REQUIRE_SHARED_DATA();
  const std::string csv = shared_data_path("published-prices/h100_rental_index.csv");
  const auto dir = scratch_dir("price-index-h100");
  const auto out = dir / "h100_schedule.json";
  const CliResult r = run_cli({"pricing", "import", "--format", "price-index", csv, "-o", out.string(),
                               "--interpolation", "step"});
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("wrote a price schedule of 8 points") != std::string::npos);
  CHECK(r.err.find("mixed-kinds") != std::string::npos);  // market ranges, on-demand, 1-year contracts
  const Json schedule = Json::parse(read_text_file(out));
  CHECK(schedule.at("interpolation") == "step");
  const Json& points = schedule.at("points");
  REQUIRE(points.size() == 8);
  CHECK(points[0].at("date") == "2023-06-01");
  CHECK(points[0].at("usd_per_gpu_hour").get<double>() == 10.0);
  CHECK(points[5].at("date") == "2025-10-01");
  CHECK(points[5].at("usd_per_gpu_hour").get<double>() == 1.70);
  CHECK(points[0].at("source").get<std::string>().find("compux.net") != std::string::npos);

  // On one 8-GPU instance from 2023-06-01 (test/gpu8, $16/h = $2 per GPU-hour in the catalog,
  // replaced by the index): month 0 at $10.00: 730 x 8 x 10 = $58,400. Month 9 (hours 6,570 to
  // 7,299) starts 2024-03-03 (day 273.75): 2024-03-01 is day 274 (t = 6,576 h), so 6 h at
  // $10.00 and 724 h at $2.85: 8 x (6 x 10 + 724 x 2.85) = 8 x 2,123.4 = $16,987.20.
  Json doc = base_scenario_json();
  doc["start"] = "2023-06-01";
  doc["horizon_months"] = 12;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 8}}}}};
  doc["cloud"]["price_schedule"] = {{"on_demand", schedule}};
  doc["plans"] = {{{"name", "cloud"}, {"kind", "cloud"}}};
  doc["baseline"] = "cloud";
  const ScenarioOutcome o = run_scenario_json(doc);
  const PlanResult& cloud = o.plan("cloud");
  CHECK(cloud.ledger.month_category_usd(0, Category::cloud_on_demand) == doctest::Approx(58400.0).epsilon(1e-12));
  CHECK(cloud.ledger.month_category_usd(9, Category::cloud_on_demand) == doctest::Approx(16987.2).epsilon(1e-12));
}

TEST_CASE("price-index import: $0 rows are skipped and NaN rows dropped, both counted") {
  const auto dir = scratch_dir("price-index-zero-nan");
  const auto csv = dir / "index.csv";
  std::ofstream(csv, std::ios::binary) << "date,usd_per_gpu_hour,kind,source\n"
                                          "2024-01,3.00,on-demand,\"a, b\"\n"
                                          "2024-02,0,on-demand,c\n"
                                          "2024-03,nan,on-demand,d\n"
                                          "2024-04,2.50,on-demand,e\n";
  const PriceIndexImport imported = import_price_index(csv.string(), "log_linear");
  CHECK(imported.rows_read == 4);
  CHECK(imported.zero_price_rows == 1);
  CHECK(imported.nan_rows == 1);
  const Json& points = imported.schedule.at("points");
  REQUIRE(points.size() == 2);
  CHECK(points[0].at("source") == "a, b");
  CHECK(points[1].at("date") == "2024-04-01");
  REQUIRE(imported.notes.size() == 2);  // one kind only: no mixed-kinds note
  CHECK(imported.notes[0].code == "zero-price");
  CHECK(imported.notes[0].where == "lines 3");
  CHECK(imported.notes[1].code == "nan-price");
  CHECK(imported.notes[1].where == "lines 4");
}

TEST_CASE("price-index import: a file of several indices of one GPU, each row with its own source, read by --series") {
  const auto dir = scratch_dir("price-index-series");
  const auto csv = dir / "h100_indices.csv";
  // Two indices of one GPU interleaved; each restarts its dates (the dates rise within a series).
  std::ofstream(csv, std::ios::binary) << "series,date,usd_per_gpu_hour,source\n"
                                          "index-a,2025-01,2.40,page a\n"
                                          "index-b,2025-01,4.60,page b\n"
                                          "index-a,2025-02,2.30,page a\n"
                                          "index-b,2025-02,4.50,page b2\n";
  const PriceIndexImport b = import_price_index(csv.string(), "step", "index-b");
  CHECK(b.rows_read == 2);  // index-a's two rows are passed over, not counted
  const Json& points = b.schedule.at("points");
  REQUIRE(points.size() == 2);
  CHECK(points[0].at("usd_per_gpu_hour").get<double>() == 4.60);
  CHECK(points[1].at("date") == "2025-02-01");
  CHECK(points[1].at("usd_per_gpu_hour").get<double>() == 4.50);
  CHECK(points[1].at("source") == "page b2");

  const auto out = dir / "a.json";
  const CliResult a = run_cli({"pricing", "import", "--format", "price-index", csv.string(), "-o", out.string(),
                               "--series", "index-a"});
  INFO("stderr: " << a.err);
  REQUIRE(a.exit_code == 0);
  CHECK(Json::parse(read_text_file(out)).at("points")[1].at("usd_per_gpu_hour").get<double>() == 2.30);

  // Without --series the file is refused at the second series' first row (line 3, column 1),
  // naming the series; an unknown name lists those there are; nothing is written.
  const CliResult none = run_cli({"pricing", "import", "--format", "price-index", csv.string(), "-o",
                                  (dir / "none.json").string()});
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("line 3, column 1") != std::string::npos);
  CHECK(none.err.find("index-a, index-b") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "none.json"));
  const CliResult unknown = run_cli({"pricing", "import", "--format", "price-index", csv.string(), "-o",
                                     (dir / "unknown.json").string(), "--series", "index-c"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("found only index-a, index-b") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "unknown.json"));
}

TEST_CASE("price-index import: a malformed row exits 2 naming the file, line and column, and writes nothing") {
  const auto dir = scratch_dir("price-index-bad");
  struct Case {
    const char* name;
    const char* text;
    const char* where;
  };
  const Case cases[] = {
      {"price", "date,usd_per_gpu_hour\n2024-01,3.0\n2024-02,abc\n", "line 3, column 9"},
      {"date", "date,usd_per_gpu_hour\n2024-13,3.0\n", "line 2, column 1"},
      {"order", "date,usd_per_gpu_hour\n2024-03,3.0\n2024-02,2.0\n", "line 3, column 1"},
      {"header", "month,price\n2024-03,3.0\n", "line 1"},
      {"fields", "date,usd_per_gpu_hour\n2024-03\n", "line 2, column 8"},
  };
  for (const Case& c : cases) {
    INFO("case " << c.name);
    const auto csv = dir / (std::string(c.name) + ".csv");
    std::ofstream(csv, std::ios::binary) << c.text;
    const auto out = dir / (std::string(c.name) + ".json");
    const CliResult r = run_cli({"pricing", "import", "--format", "price-index", csv.string(), "-o", out.string()});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(csv.string()) != std::string::npos);
    CHECK(r.err.find(c.where) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out));
  }
}

}  // namespace tco::test

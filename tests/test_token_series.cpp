// An hourly token series in workload.tokens (models/serving/token_demand.hpp TokenSeries;
// docs/tokens.md §5): the tokens.csv of `tcosim demand import --format azure-llm` read in place
// of a request rate, tiled to the horizon, grown; malformed files are exit 2 naming the file and
// line; the Azure conversation trace's hour tiled to a year (skipped without ../shared/data).
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "models/scenario.hpp"
#include "models/serving/token_demand.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

// tests/fixtures/scenarios/tokens.json with its request rate replaced by `series`.
Json series_scenario(const Json& series) {
  Json s = read_json_file(source_path("tests/fixtures/scenarios/tokens.json"));
  Json& tokens = s["workload"]["tokens"];
  for (const char* key : {"requests_per_second", "input_tokens_per_request", "output_tokens_per_request"})
    tokens.erase(key);
  tokens["series"] = series;
  s["catalog_dir"] = source_path("tests/fixtures/catalog");
  return s;
}

std::string write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST_CASE("token series: an hourly token file is tiled over the horizon, grown, and becomes whole replicas") {
  const auto dir = scratch_dir("token_series");
  write(dir / "tokens.csv",
        "time_h,requests,input_tokens,output_tokens\n0,100,4000000,1000000\n1,50,8000000,2000000\n");
  const Scenario s = load_scenario_json(series_scenario({{"file", "tokens.csv"}}), "s.json", dir.string(),
                                        source_path("tests/fixtures/catalog"));
  REQUIRE(s.workload.tokens != nullptr);
  REQUIRE(s.workload.tokens->series);
  // Two rows, tiled: 5e6, 1e7, 5e6, 1e7 tokens; at 5.28e6 tokens a replica-hour (8 GPUs):
  // ceil(0.947) = 1 replica = 8 GPUs, ceil(1.894) = 2 = 16 GPUs.
  const TokenHours hours = token_hours(*s.workload.tokens, 4, s.calendar);
  CHECK(hours.tokens == std::vector<double>{5e6, 1e7, 5e6, 1e7});
  CHECK(hours.input_tokens == std::vector<double>{4e6, 8e6, 4e6, 8e6});
  CHECK(hours.gpus == std::vector<double>{8.0, 16.0, 8.0, 16.0});

  // Growth 0.2 a year and scale 2: hour 8,760 = row 0 x 2 x 1.2 = 1.2e7 tokens.
  const Scenario grown = load_scenario_json(
      series_scenario({{"file", "tokens.csv"}, {"scale", 2}, {"growth_per_year", 0.2}}), "s.json", dir.string(),
      source_path("tests/fixtures/catalog"));
  CHECK(token_hours(*grown.workload.tokens, 8761, grown.calendar).tokens[8760] ==
        doctest::Approx(1.2e7).epsilon(1e-12));
  // Not repeated: past the file's two hours there is no demand.
  const Scenario once = load_scenario_json(series_scenario({{"file", "tokens.csv"}, {"repeat", false}}), "s.json",
                                           dir.string(), source_path("tests/fixtures/catalog"));
  CHECK(token_hours(*once.workload.tokens, 3, once.calendar).tokens == std::vector<double>{5e6, 1e7, 0.0});
  // The report echoes the series as written.
  CHECK(to_json(*s.workload.tokens).at("series").at("file") == "tokens.csv");
}

TEST_CASE("token series: a malformed file or a series beside a request rate is exit 2 naming where") {
  const auto dir = scratch_dir("token_series_bad");
  const std::string catalog = source_path("tests/fixtures/catalog");
  write(dir / "bad.csv", "time_h,requests,input_tokens,output_tokens\n0,1,100,10\n1,1,lots,10\n");
  Json bad = series_scenario({{"file", "bad.csv"}});
  const CliResult r = run_cli({"run", write(dir / "bad.json", bad.dump()), "--catalog", catalog, "--out",
                               (dir / "bad-report.json").string()});
  CHECK(r.exit_code == 2);
  CHECK((r.out + r.err).find("bad.csv") != std::string::npos);
  CHECK((r.out + r.err).find("line 3") != std::string::npos);
  CHECK(!std::filesystem::exists(dir / "bad-report.json"));

  write(dir / "columns.csv", "time_h,requests,prompt_tokens\n0,1,100\n");
  const CliResult c =
      run_cli({"run", write(dir / "columns.json", series_scenario({{"file", "columns.csv"}}).dump()), "--catalog",
               catalog, "--out", (dir / "c.json").string()});
  CHECK(c.exit_code == 2);
  CHECK((c.out + c.err).find("missing column \"input_tokens\"") != std::string::npos);

  const CliResult missing =
      run_cli({"validate", write(dir / "missing.json", series_scenario({{"file", "nowhere.csv"}}).dump()),
               "--catalog", catalog});
  CHECK(missing.exit_code == 2);
  CHECK((missing.out + missing.err).find("/workload/tokens/series/file") != std::string::npos);

  Json both = series_scenario({{"file", "bad.csv"}});
  both["workload"]["tokens"]["input_tokens_per_request"] = 100;
  const CliResult b = run_cli({"validate", write(dir / "both.json", both.dump()), "--catalog", catalog});
  CHECK(b.exit_code == 2);
  CHECK((b.out + b.err).find("/workload/tokens/input_tokens_per_request") != std::string::npos);
}

TEST_CASE("token series: the Azure conversation trace's hour tiled to a year (../shared/data/inference)") {
  TCO_REQUIRE_SHARED_DATA();
  const auto dir = scratch_dir("token_series_azure");
  const std::string csv = (dir / "tokens.csv").string();
  const CliResult imported = run_cli({"demand", "import", "--format", "azure-llm",
                                      shared_data_path("inference/traces/AzureLLMInferenceTrace_conv.csv"), "-o", csv});
  INFO(imported.err);
  REQUIRE(imported.exit_code == 0);
  const Scenario s = load_scenario_json(series_scenario({{"file", "tokens.csv"}}), "s.json", dir.string(),
                                        source_path("tests/fixtures/catalog"));
  // One hour: 22,361,870 input + 4,088,665 output = 26,450,535 tokens, in every hour of the year.
  const TokenHours hours = token_hours(*s.workload.tokens, 8760, s.calendar);
  CHECK(hours.tokens[0] == 26450535.0);
  CHECK(hours.tokens[8759] == 26450535.0);
  CHECK(hours.input_tokens[4000] == 22361870.0);
  // 26,450,535 / 5.28e6 = 5.01 -> 6 replicas = 48 GPUs.
  CHECK(hours.gpus[100] == 48.0);
}

}  // namespace tco::test

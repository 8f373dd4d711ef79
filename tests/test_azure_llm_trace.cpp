// `tcosim demand import --format azure-llm` (models/importers/serving/azure_llm_trace.hpp): a
// hand-made trace gives the hourly sums worked out below; the real Azure LLM traces in
// ../shared/data/inference/traces import whole; malformed rows exit 2 naming the file and the
// line and column, and write nothing.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "models/importers/serving/azure_llm_trace.hpp"
#include "import_test_support.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("demand import azure-llm: requests and tokens summed per hour from the first request") {
  const auto dir = scratch_dir("azure_llm_hand");
  // t0 = 18:15:46.5. 18:15:50 is hour 0; 19:15:46.4 is 3,599.9 s after t0: hour 0; 19:15:46.5 is
  // 3,600 s after: hour 1; 21:00:00 is 9,853.5 s after: hour 2 (2.74 h).
  const std::string trace = write_file(dir, "trace.csv",
                                       "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                                       "2023-11-16 18:15:46.5,374,44\n"
                                       "2023-11-16 18:15:50,396,109\n"
                                       "2023-11-16 19:15:46.4000000,100,10\n"
                                       "2023-11-16 19:15:46.5000000,200,20\n"
                                       "2023-11-16 21:00:00,1,2\n");
  const std::string out = (dir / "tokens.csv").string();
  const CliResult r = run_cli({"demand", "import", "--format", "azure-llm", trace, "-o", out});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // hour 0: 3 requests, 374 + 396 + 100 = 870 in, 44 + 109 + 10 = 163 out; hour 1: 1, 200, 20;
  // hour 2: 1, 1, 2. The last hour covers 9,853.5 - 7,200 = 2,653.5 s.
  CHECK(read_text(out) ==
        "time_h,requests,input_tokens,output_tokens\n0,3,870,163\n1,1,200,20\n2,1,1,2\n");
  CHECK(r.out.find("read 5 requests") != std::string::npos);
  CHECK(r.out.find("wrote 3 hours") != std::string::npos);
  CHECK(r.out.find("the last covers 2654 s") != std::string::npos);
}

TEST_CASE("demand import azure-llm: malformed traces exit 2 naming the file and the line, and write nothing") {
  const auto dir = scratch_dir("azure_llm_bad");
  const std::string header = "TIMESTAMP,ContextTokens,GeneratedTokens\n";
  check_rejected("demand", "azure-llm", "trace.csv",
                 {
                     {"a wrong header", "TIME,ContextTokens,GeneratedTokens\n", "line 1, column 1"},
                     {"a bad time", header + "2023-11-16 18:15:46,1,2\n2023-11-16 25:00:00,1,2\n", "line 3, column 1"},
                     {"a negative count", header + "2023-11-16 18:15:46,-1,2\n", "line 2, column 2"},
                     {"a fractional count", header + "2023-11-16 18:15:46,1,2.5\n", "line 2, column 3"},
                     {"out of time order", header + "2023-11-16 18:15:46,1,2\n2023-11-16 18:15:45,1,2\n",
                      "line 3, column 1"},
                     {"a missing column", header + "2023-11-16 18:15:46,1\n", "line 2"},
                     {"no request", header, "line 2"},
                 },
                 dir);
}

TEST_CASE("demand import azure-llm: the real Azure conversation and code traces (../shared/data/inference)") {
  TCO_REQUIRE_SHARED_DATA();
  const auto dir = scratch_dir("azure_llm_real");
  // The README's figures, summed with Python's csv module: conversation 19,366 requests,
  // 22,361,870 input and 4,088,665 output tokens from 18:15:46.68 to 19:14:08.40 (3,501.7 s: one
  // hour); code 8,819 requests, 18,059,974 and 245,896 tokens, 18:17:03.98 to 19:14:19.93.
  const HourlyTokens conv = import_azure_llm_trace(shared_data_path("inference/traces/AzureLLMInferenceTrace_conv.csv"));
  REQUIRE(conv.requests.size() == 1);
  CHECK(conv.rows == 19366);
  CHECK(conv.requests[0] == 19366.0);
  CHECK(conv.input_tokens[0] == 22361870.0);
  CHECK(conv.output_tokens[0] == 4088665.0);
  CHECK(conv.last_hour_s == doctest::Approx(3501.721937).epsilon(1e-9));
  const HourlyTokens code = import_azure_llm_trace(shared_data_path("inference/traces/AzureLLMInferenceTrace_code.csv"));
  REQUIRE(code.requests.size() == 1);
  CHECK(code.input_tokens[0] == 18059974.0);
  CHECK(code.output_tokens[0] == 245896.0);
}

}  // namespace tco::test

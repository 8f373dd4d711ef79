// `tcosim demand import --format azure-llm`: a request trace of the Azure LLM inference dataset
// (Azure/AzurePublicDataset AzureLLMInferenceTrace_{code,conv}.csv: TIMESTAMP
// "YYYY-MM-DD HH:MM:SS[.fffffff]", ContextTokens, GeneratedTokens; rows sorted by time) into the
// hourly token demand a serving workload reads (docs/tokens.md):
//   hour h = [t0 + 3,600 h, t0 + 3,600 (h + 1)) s, t0 the first request's arrival
//   requests, input_tokens (= ContextTokens), output_tokens (= GeneratedTokens) summed per hour
// The CSV written: "time_h,requests,input_tokens,output_tokens". The trace states no time zone,
// so no "# start:" line is written. The last hour is usually partial: `last_hour_s` says how much
// of it the trace covers.
// Example: requests at 18:15:46 (374 in, 44 out) and 18:15:50 (396, 109): hour 0 = 2 requests,
// 770 input and 153 output tokens.
// A malformed row (a bad time, a count that is not a whole number >= 0, a row out of time order,
// a missing column) is an InputError naming the file and "line N, column C".
#pragma once

#include <string>
#include <vector>

#include "models/serving/trace_request.hpp"

namespace tco {

struct HourlyTokens {
  std::vector<double> requests;
  std::vector<double> input_tokens;
  std::vector<double> output_tokens;
  long rows = 0;
  double last_hour_s = 0.0;  // seconds of the last hour between t0 + 3,600 (hours - 1) and the last request
  std::string first_time;    // the first TIMESTAMP as written
};

HourlyTokens import_azure_llm_trace(const std::string& path);

// The trace's requests one by one (the request replay's trace: docs/des.md "Requests"), arrival
// times in seconds after the first request; the same checks and errors.
std::vector<serving::TraceRequest> read_azure_llm_requests(const std::string& path);

// "time_h,requests,input_tokens,output_tokens" and one line per hour.
std::string hourly_tokens_csv(const HourlyTokens& tokens);

}  // namespace tco

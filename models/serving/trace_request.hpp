// One request of a serving trace (issue 47): when it arrived, in seconds from the trace's first
// request, and its input (prompt) and output (generated) tokens. The Azure LLM trace reader
// (models/importers/serving/azure_llm_trace.hpp) gives them; the request replay
// (engine/des/serving/request_replay.hpp) serves them.
#pragma once

namespace tco::serving {

struct TraceRequest {
  double arrival_s;
  double input_tokens;
  double output_tokens;
};

}  // namespace tco::serving

// The sizing's answer for a reviewer (issue #44), from a report's "sizing" section: one sentence
// ("Own 3 nodes: the cheapest on average; 4 if you want the 90th percentile no worse than
// $2,016,918.") and the efficient frontier of mean NPV against CVaR95 as a Markdown table. Both
// empty for a report without a sizing (so other summaries keep their bytes). For a replay sizing
// of a plan that shifts time, one sentence naming the node counts where shifting adds deadline
// misses (docs/decisions.md "Service limits"); empty otherwise.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string sizing_answer_sentence(const Json& sizing);
std::string sizing_shifting_sentence(const Json& sizing);
std::string sizing_markdown(const Json& report);

}  // namespace tco

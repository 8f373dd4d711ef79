// The report's decision sections (docs/decisions.md documents every key):
//   "sizing"       tcosim optimize: the cost curve over on-prem nodes, the best N per risk measure
//   "spares_sizing" tcosim optimize --spares: the replay's cost per hot-spare count, the best per measure
//   "latency_sizing" tcosim optimize --latency-replicas: the slo share per owned replica count, the cheapest that meets it
//   "sensitivity"  a scenario with `uncertain`: the tornado, standardised regression coefficients
//   "uncertainty"  a scenario with `uncertain`: the inputs as drawn, the payback-month
//                  distribution, the price and utilization breakevens under uncertainty
// They only render engine results (engine/decisions/sizing.hpp, engine/decisions/uncertainty_analysis.hpp).
#pragma once

#include "core/io/json_reader.hpp"
#include "engine/decisions/latency_sizing.hpp"
#include "engine/decisions/sizing.hpp"
#include "engine/decisions/spares_sizing.hpp"
#include "engine/decisions/uncertainty_analysis.hpp"

namespace tco {

Json sizing_json(const SizingResult& sizing);
Json spares_sizing_json(const SparesSizingResult& sizing);
Json latency_sizing_json(const LatencySizingResult& sizing);
Json sensitivity_json(const UncertaintyAnalysis& analysis);
Json uncertainty_json(const UncertaintyAnalysis& analysis);

// Adds "sensitivity" and "uncertainty" to a report.
void add_uncertainty_sections(Json& report, const UncertaintyAnalysis& analysis);

}  // namespace tco

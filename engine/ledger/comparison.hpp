// A plan against the baseline (SPEC §8, §12.14):
//   NPV saving    = NPV(baseline) - NPV(plan)
//   payback month = the first month m whose cumulative discounted cost of the plan is at or
//                   below the baseline's (within 1e-6 USD) and stays so to the horizon's end
//   IRR           = the annual rate at which the incremental flows (baseline's costs minus
//                   the plan's, at their own timing) have zero NPV; a return on an investment
//                   only when those flows start with one (the plan first costs more), which
//                   starts_with_investment says: a plan that saves from its first month has
//                   an IRR of hundreds of percent that measures nothing
#pragma once

#include <optional>
#include <string>

#include "engine/ledger/ledger.hpp"

namespace tco {

struct Comparison {
  std::string plan;
  std::string baseline;
  double npv_saving_usd = 0.0;
  double nominal_saving_usd = 0.0;
  std::optional<int> payback_month;
  std::optional<double> irr_per_year;
  bool starts_with_investment = false;
};

inline constexpr double kPaybackToleranceUsd = 1e-6;

std::optional<int> payback_month(const Ledger& plan, const Ledger& baseline, double rate_per_year);

Comparison compare(const std::string& plan_name, const Ledger& plan, const std::string& baseline_name,
                   const Ledger& baseline, double rate_per_year);

}  // namespace tco

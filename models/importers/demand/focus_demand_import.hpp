// Measured GPU demand from a FOCUS billing export (FinOps Foundation, FOCUS 1.2; docs/own-history.md
// "From a FOCUS bill"): the GPU rows' GPU-hours spread evenly over their charge periods, summed
// into UTC clock hours. A row is read when ChargeCategory is "Usage", ChargeClass is not
// "Correction" and CommitmentDiscountStatus is not "Unused" (unused commitment is paid, not used);
// its quantity is ConsumedQuantity in ConsumedUnit (PricingQuantity / PricingUnit when the export
// has no Consumed columns). It is a GPU row when
//   the unit is "GPU-Hours":                      GPU-hours = quantity
//   the unit is "Hours" and an instance type of `gpus_per_instance` is part of its SkuId, SkuMeter,
//   ResourceType or ChargeDescription (the longest such type):  GPU-hours = quantity x its GPUs
// Every other row is left out (counted), and with a billing account those of other accounts. Hour 0 is the hour of the earliest GPU row's start; an
// hour no GPU row covers is 0 GPUs (a bill has no row for what was not used).
// Example: one row of 1,460 GPU-Hours from 2026-01-01T00:00:00Z to 2026-01-01T02:00:00Z gives
// hours [730, 730].
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tco {

struct FocusDemandOptions {
  std::map<std::string, double> gpus_per_instance;  // instance type -> GPUs ("p5.48xlarge" -> 8)
  std::string billing_account;  // non-empty: only the rows of this BillingAccountId
};

struct FocusDemand {
  std::vector<double> gpus_by_hour;
  std::int64_t start_utc_s = 0;  // hour 0
  long rows = 0;                 // data rows read
  long gpu_rows = 0;             // of which GPU rows
  double gpu_hours = 0.0;
};

// Throws InputError naming the file and "line N, column C" (the header's line for a missing
// column) for a malformed CSV, time, number or period, and when no row is a GPU row.
FocusDemand import_focus_demand(const std::string& path, const FocusDemandOptions& options);

}  // namespace tco

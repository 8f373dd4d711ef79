// A rented cluster's costs besides its GPU-hours (the ClusterMAX TCO calculator's areas,
// docs/model.md "Hidden costs of renting"), per month m of a horizon of M months:
//   storage   = storage_gib x storage_usd_per_gib_month
//   network   = network_usd_per_month
//   cpu_vms   = cpu_vms x cpu_vm_usd_per_hour x 730 h
//   setup     = setup_usd / M (amortised) or setup_usd at the start of month 0 (at_start)
//   debugging = debugging_engineer_h_per_month x debugging_usd_per_engineer_h
//   lost_work = (1 / goodput - 1) x the month's GPU bill (the work needs 1 / goodput GPU-hours)
//   support   = support_share_of_bill x (GPU bill + storage + network + cpu_vms): the
//               provider's bill, as the ClusterMAX calculator's (5% of $6,428,439 = $321,422)
// Example: 100 GiB at $0.10, 2 VMs at $0.50/h, goodput 0.8 on a $1,000 GPU bill: storage $10, CPU
// VMs $730, lost work $250 (the work costs $1,250 = 1.25 x), support at 10% of $1,740 = $174.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

struct HiddenCosts {
  enum class SetupPaid { amortised, at_start };
  double storage_gib = 0.0;
  double storage_usd_per_gib_month = 0.0;
  double network_usd_per_month = 0.0;
  int cpu_vms = 0;
  double cpu_vm_usd_per_hour = 0.0;
  double support_share_of_bill = 0.0;  // of the provider's bill: GPUs, storage, network, CPU VMs
  double setup_usd = 0.0;
  SetupPaid setup_paid = SetupPaid::amortised;
  double debugging_engineer_h_per_month = 0.0;
  double debugging_usd_per_engineer_h = 0.0;
  double goodput = 1.0;  // share of the paid GPU-hours that does useful work, in [0.01, 1]
  std::string source;    // where the figures come from (free text, echoed; "ESTIMATE: ..." for a guess)

  // True when any field costs something (the report then shows the hidden-cost categories).
  bool any() const;
};

// Reads the fields present in `r` over `defaults` (the offer's, when a scenario overrides them);
// unknown keys and out-of-range values are errors naming the pointer.
HiddenCosts parse_hidden_costs(JsonObjectReader& r, const HiddenCosts& defaults);

std::string to_string(HiddenCosts::SetupPaid paid);
Json to_json(const HiddenCosts& h);

}  // namespace tco

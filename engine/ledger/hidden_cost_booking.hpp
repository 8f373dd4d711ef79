// A rented cluster's hidden costs booked into a plan's ledger (models/catalog/hidden_costs.hpp has
// the formulas). The GPU bill of month m is what the month's cloud_on_demand, cloud_spot and
// cloud_reserved categories hold (commitments included); goodput adds (1/goodput - 1) of it as
// lost_work (a goodput of 0.8 makes the work's GPU-hours cost 1.25 times), and support is its
// share of the provider's bill: GPUs, storage, network and CPU VMs (the lost work is not billed). Plans of kind onprem have no cloud and api plans no GPU bill:
// neither books any (owned plans keep their own goodput, from spares and failures).
#pragma once

#include <array>

#include "engine/ledger/ledger.hpp"
#include "models/catalog/hidden_costs.hpp"
#include "models/scenario.hpp"

namespace tco {

// The hidden costs a plan pays: its cloud's, when it rents (kind cloud or hybrid) and they cost
// something; null otherwise.
const HiddenCosts* rented_hidden_costs(const Plan& plan);

// Both kinds into a plan's ledger, after every cloud category is booked.
void book_hidden_costs(const Plan& plan, Ledger& ledger);

// The costs that do not depend on the GPU bill: storage, network, CPU VMs, setup and debugging.
void book_fixed_hidden_costs(const HiddenCosts& h, int months, Ledger& ledger);

// lost_work and support from the bills already in the ledger (book them after every cloud category
// and the fixed hidden costs).
void book_gpu_bill_uplifts(const HiddenCosts& h, Ledger& ledger);

// The same uplifts on one month's category row of a replay path (engine/des), where the path's own
// GPU bill is known only at its end.
void add_gpu_bill_uplifts(const HiddenCosts& h, std::array<double, kCategoryCount>& month_row);

// The factor on a GPU-hour's price that the uplifts make: 1 / goodput + support.
double gpu_bill_uplift_factor(const HiddenCosts& h);

}  // namespace tco

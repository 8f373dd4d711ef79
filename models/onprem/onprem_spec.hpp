// A plan's owned fleet: the server and its GPU, capex, financing, procurement, the site, carbon,
// the depreciation and tax views, residual value, staff, failures, spares, power, cooling,
// ambient temperature and colocation. Read by models/onprem/onprem_reader.cpp.
#pragma once

#include <optional>

#include "models/catalog/records.hpp"
#include "models/finance/depreciation.hpp"
#include "models/finance/financing.hpp"
#include "models/finance/procurement.hpp"
#include "models/finance/resale_price_path.hpp"
#include "models/next_generation/generation_step.hpp"
#include "models/site/ambient.hpp"
#include "models/site/carbon.hpp"
#include "models/site/power.hpp"
#include "models/site/site_capacity.hpp"
#include "models/site/spares.hpp"

namespace tco {

struct StaffSpec {
  double fixed_fte = 0.0;
  double fte_per_node = 0.0;
  double usd_per_fte_year = 0.0;
  double escalation_per_year = 0.0;
};

// Hardware failures (SPEC §4): each node fails as a Poisson process of rate
// afr_per_year / 8760 per hour, rising by afr_growth_per_year (fractional) per year of age;
// a failed node is back after repair_h.
struct FailureSpec {
  double afr_per_year = 0.0;
  double afr_growth_per_year = 0.0;
  double repair_h = 24.0;
};

struct OnPremSpec {
  ServerModel server;
  GpuModel gpu;
  double network_usd_per_node = 0.0;
  double storage_usd_per_node = 0.0;
  double install_usd_per_node = 0.0;
  double room_capex_usd = 0.0;
  // Share of the GPUs the hourly fluid model can fill with jobs, in (0, 1] (fragmentation:
  // 5-GPU jobs on 8-GPU nodes fill 5 of 8). The discrete-event replay packs jobs itself and
  // ignores it; `tcosim calibrate` fits it from a replay (docs/calibration.md).
  double packing_efficiency = 1.0;
  int purchase_month = 0;             // the planned delivery month (models/finance/procurement.hpp)
  std::optional<ProcurementSpec> procurement;  // order, deposit and delivery slip (bought fleets only)
  SiteCapacity site;
  CarbonSpec carbon;
  double maintenance_per_year = 0.0;  // fraction of capex per year
  Financing financing;
  double life_years = 5.0;            // depreciation and the utilization breakeven
  double salvage_fraction = 0.0;      // of the depreciable cost
  BookMethod book_method = BookMethod::straight_line;
  // The tax view (MACRS, bonus, section 179); absent = the tax shield follows the book view.
  std::optional<TaxDepreciationSpec> tax_depreciation;
  bool residual_enabled = true;
  double resale_decline_per_year = 0.3;
  GenerationStep resale_step;  // the next generation's step on the resale value (models/next_generation/)
  bool resale_follows_cloud_price = false;  // residual.follows_cloud_price as written
  std::optional<ResalePricePath> resale_price_path;  // filled from the plan's cloud (models/finance/resale_price_path.hpp)
  double tax_rate = 0.0;
  bool tax_shield_enabled = false;
  StaffSpec staff;
  FailureSpec failures;
  std::optional<SparesSpec> spares;  // hot spares, repair cost and goodput (models/site/spares.hpp)
  PowerSpec power;
  CoolingType cooling;
  std::optional<AmbientSpec> ambient;
  std::optional<Colocation> colocation;

  // The month the hardware arrives without a Monte Carlo path (a drawn slip at its median).
  int planned_delivery_month() const {
    return procurement ? tco::planned_delivery_month(purchase_month, *procurement) : purchase_month;
  }
  bool delivery_drawn() const { return procurement && procurement->slip_drawn; }
  int spare_nodes() const { return spares ? spares->nodes : 0; }
  double capex_per_node_usd() const {
    return server.price_usd + network_usd_per_node + storage_usd_per_node + install_usd_per_node;
  }
  // Installation has no resale value (SPEC §12.5).
  double resale_base_per_node_usd() const {
    return server.price_usd + network_usd_per_node + storage_usd_per_node;
  }
};

}  // namespace tco

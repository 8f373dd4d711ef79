// Carbon of an owned fleet beyond its grid power (docs/model.md "Carbon"): the servers' embodied
// CO2, amortised over their depreciation life, and an optional carbon price.
//   embodied_kg(m) = N x embodied_kg_co2_per_server / (12 life_years) for each month m of the
//                    life from delivery (the last month takes the fraction left), inside the horizon
//   carbon_usd(m)  = (grid_kg(m) + embodied_kg(m)) / 1000 x usd_per_tonne, category `carbon`
// where grid_kg(m) = the month's facility kWh x g_co2_per_kwh / 1000 (SPEC §5).
// Example: 2 servers of 2,500 kg over 5 years: 5,000 / 60 = 83.33 kg a month; with 9,855 kWh of
// facility energy a month at 400 g/kWh (3,942 kg) and $80/t: (3,942 + 83.33) / 1000 x 80 = $322.03.
#pragma once

namespace tco {

struct CarbonSpec {
  double embodied_kg_co2_per_server = 0.0;
  double usd_per_tonne = 0.0;  // 0: no carbon price (no `carbon` cost)
  bool operator==(const CarbonSpec&) const = default;
};

}  // namespace tco

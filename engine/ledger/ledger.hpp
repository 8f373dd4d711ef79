// The monthly cash-flow ledger of one plan (SPEC §6). Each entry is booked in a month and a
// category, at the start of the month (capex, lease) or at its end (operating costs, loan
// payments, the residual), which decides its discounting:
//   start of month m: (1+r)^(-m/12)      end of month m: (1+r)^(-(m+1)/12)
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "models/finance.hpp"

namespace tco {

enum class Category {
  capex,
  financing_interest,
  lease,
  maintenance,
  facility,
  energy,
  staff,
  cloud_on_demand,
  cloud_spot,
  cloud_reserved,
  egress,
  waiting,
  residual,
  tax_shield,
  carbon,  // the carbon price on on-prem CO2 (models/site/carbon.hpp)
  repair,  // parts and labour per node failure (models/site/spares.hpp); reported only when a plan opts in
  api,     // tokens bought from an API (engine/ledger/api_booking.hpp); reported only when a plan buys them
  // A rented cluster's hidden costs (engine/ledger/hidden_cost_booking.hpp); reported only when a
  // plan's cloud has some.
  storage,
  network,
  cpu_vms,
  support,
  setup,
  debugging,
  lost_work,  // the paid GPU-hours that do no useful work: (1 - goodput) of the GPU bill
};
inline constexpr int kCategoryCount = 24;

// The hidden-cost categories, in ledger order.
inline constexpr Category kHiddenCostCategories[] = {Category::storage, Category::network, Category::cpu_vms,
                                                     Category::support, Category::setup,   Category::debugging,
                                                     Category::lost_work};

// The categories that do not move with the volume of work served (the Monte Carlo sweep takes them
// from the deterministic run; the self-host-vs-API breakeven holds them fixed).
inline constexpr Category kVolumeFixedCategories[] = {Category::capex,     Category::financing_interest,
                                                      Category::lease,     Category::maintenance,
                                                      Category::facility,  Category::staff,
                                                      Category::cloud_reserved, Category::residual,
                                                      Category::tax_shield, Category::storage,
                                                      Category::network,    Category::cpu_vms,
                                                      Category::setup,      Category::debugging};

std::string_view category_name(Category c);
inline Category category_at(int index) { return static_cast<Category>(index); }

enum class Timing { start_of_month, end_of_month };

class Ledger {
 public:
  explicit Ledger(int months = 0);

  void add(int month, Category c, double usd, Timing timing);
  // Adds weight x every entry of `other` (same months), keeping each entry's timing.
  void add_scaled(const Ledger& other, double weight);

  int months() const { return static_cast<int>(start_.size()); }
  double month_category_usd(int month, Category c) const;
  double month_total_usd(int month) const;
  // The part of month_total_usd booked at the start of the month (the rest is at its end).
  double month_start_usd(int month) const;
  double category_total_usd(Category c) const;
  double total_usd() const;
  double category_npv_usd(Category c, double rate_per_year) const;
  double npv_usd(double rate_per_year) const;
  // Discounted cost up to and including each month.
  std::vector<double> cumulative_discounted_usd(double rate_per_year) const;
  // Every non-zero entry as a timed flow (years), costs positive.
  std::vector<TimedFlow> flows() const;

 private:
  using Row = std::array<double, kCategoryCount>;
  std::vector<Row> start_;
  std::vector<Row> end_;
};

}  // namespace tco

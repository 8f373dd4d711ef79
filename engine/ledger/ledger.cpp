#include "engine/ledger/ledger.hpp"

#include <bit>
#include <cstdint>
#include <stdexcept>

namespace tco {

namespace {

// The discount factors of each month's start and end at one rate, computed once per thread and
// rate: an NPV needs 2 per month, and calling pow for every category and month (24 x 2 x months
// per NPV, one NPV per plan and path) was most of what the ledger cost. The factors are the very
// pow values discount_start_of_month and discount_end_of_month return, so the sums are unchanged.
struct DiscountFactors {
  std::uint64_t rate_bits = 0;
  bool filled = false;
  std::vector<double> start, end;  // by month
};

const DiscountFactors& discount_factors(double rate_per_year, int months) {
  thread_local DiscountFactors f;
  const auto bits = std::bit_cast<std::uint64_t>(rate_per_year);
  if (!f.filled || f.rate_bits != bits) {
    f.rate_bits = bits;
    f.filled = true;
    f.start.clear();
    f.end.clear();
  }
  for (int m = static_cast<int>(f.start.size()); m < months; ++m) {
    f.start.push_back(discount_start_of_month(rate_per_year, m));
    f.end.push_back(discount_end_of_month(rate_per_year, m));
  }
  return f;
}

}  // namespace

std::string_view category_name(Category c) {
  static constexpr std::array<std::string_view, kCategoryCount> names = {
      "capex",           "financing_interest", "lease",          "maintenance", "facility",
      "energy",          "staff",              "cloud_on_demand", "cloud_spot",  "cloud_reserved",
      "egress",          "waiting",            "residual",       "tax_shield",
      "carbon",          "repair",             "api",            "storage",     "network",
      "cpu_vms",         "support",            "setup",          "debugging",   "lost_work"};
  return names[static_cast<int>(c)];
}

Ledger::Ledger(int months) : start_(months, Row{}), end_(months, Row{}) {}

void Ledger::add(int month, Category c, double usd, Timing timing) {
  if (month < 0 || month >= months()) throw std::out_of_range("ledger month out of range");
  (timing == Timing::start_of_month ? start_ : end_)[month][static_cast<int>(c)] += usd;
}

void Ledger::add_scaled(const Ledger& other, double weight) {
  if (other.months() != months()) throw std::invalid_argument("ledgers of different horizons");
  for (int m = 0; m < months(); ++m)
    for (int c = 0; c < kCategoryCount; ++c) {
      start_[m][c] += weight * other.start_[m][c];
      end_[m][c] += weight * other.end_[m][c];
    }
}

double Ledger::month_category_usd(int month, Category c) const {
  return start_[month][static_cast<int>(c)] + end_[month][static_cast<int>(c)];
}

double Ledger::month_total_usd(int month) const {
  double total = 0.0;
  for (int c = 0; c < kCategoryCount; ++c) total += start_[month][c] + end_[month][c];
  return total;
}

double Ledger::month_start_usd(int month) const {
  double total = 0.0;
  for (int c = 0; c < kCategoryCount; ++c) total += start_[month][c];
  return total;
}

double Ledger::category_total_usd(Category c) const {
  double total = 0.0;
  for (int m = 0; m < months(); ++m) total += month_category_usd(m, c);
  return total;
}

double Ledger::total_usd() const {
  double total = 0.0;
  for (int m = 0; m < months(); ++m) total += month_total_usd(m);
  return total;
}

double Ledger::category_npv_usd(Category c, double rate_per_year) const {
  const DiscountFactors& f = discount_factors(rate_per_year, months());
  double total = 0.0;
  const int i = static_cast<int>(c);
  for (int m = 0; m < months(); ++m) total += start_[m][i] * f.start[m] + end_[m][i] * f.end[m];
  return total;
}

double Ledger::npv_usd(double rate_per_year) const {
  const DiscountFactors& f = discount_factors(rate_per_year, months());
  double total = 0.0;
  for (int c = 0; c < kCategoryCount; ++c) {
    double category = 0.0;  // category_npv_usd's sum, in its order
    for (int m = 0; m < months(); ++m) category += start_[m][c] * f.start[m] + end_[m][c] * f.end[m];
    total += category;
  }
  return total;
}

std::vector<double> Ledger::cumulative_discounted_usd(double rate_per_year) const {
  const DiscountFactors& f = discount_factors(rate_per_year, months());
  std::vector<double> out(months());
  double running = 0.0;
  for (int m = 0; m < months(); ++m) {
    double start = 0.0, end = 0.0;
    for (int c = 0; c < kCategoryCount; ++c) {
      start += start_[m][c];
      end += end_[m][c];
    }
    running += start * f.start[m] + end * f.end[m];
    out[m] = running;
  }
  return out;
}

std::vector<TimedFlow> Ledger::flows() const {
  std::vector<TimedFlow> out;
  for (int m = 0; m < months(); ++m) {
    double start = 0.0, end = 0.0;
    for (int c = 0; c < kCategoryCount; ++c) {
      start += start_[m][c];
      end += end_[m][c];
    }
    if (start != 0.0) out.push_back({m / 12.0, start});
    if (end != 0.0) out.push_back({(m + 1) / 12.0, end});
  }
  return out;
}

}  // namespace tco

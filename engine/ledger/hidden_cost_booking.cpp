#include "engine/ledger/hidden_cost_booking.hpp"

#include "core/calendar.hpp"

namespace tco {

namespace {

constexpr int index_of(Category c) { return static_cast<int>(c); }

struct Uplifts {
  double lost_work_usd = 0.0;
  double support_usd = 0.0;
};

// `other_bill_usd`: the provider's bill besides GPUs (storage, network, CPU VMs), which support
// is a share of too; the lost work is not on the provider's bill.
Uplifts uplifts(const HiddenCosts& h, double gpu_bill_usd, double other_bill_usd) {
  Uplifts u;
  u.lost_work_usd = gpu_bill_usd * (1.0 / h.goodput - 1.0);
  u.support_usd = h.support_share_of_bill * (gpu_bill_usd + other_bill_usd);
  return u;
}

double gpu_bill_of(const Ledger& ledger, int m) {
  return ledger.month_category_usd(m, Category::cloud_on_demand) + ledger.month_category_usd(m, Category::cloud_spot) +
         ledger.month_category_usd(m, Category::cloud_reserved);
}

double other_bill_of(const Ledger& ledger, int m) {
  return ledger.month_category_usd(m, Category::storage) + ledger.month_category_usd(m, Category::network) +
         ledger.month_category_usd(m, Category::cpu_vms);
}

}  // namespace

const HiddenCosts* rented_hidden_costs(const Plan& plan) {
  if (!plan.cloud || plan.kind == Plan::Kind::api || plan.kind == Plan::Kind::onprem) return nullptr;
  return plan.cloud->hidden_costs.any() ? &plan.cloud->hidden_costs : nullptr;
}

void book_hidden_costs(const Plan& plan, Ledger& ledger) {
  const HiddenCosts* h = rented_hidden_costs(plan);
  if (!h) return;
  book_fixed_hidden_costs(*h, ledger.months(), ledger);
  book_gpu_bill_uplifts(*h, ledger);
}

void book_fixed_hidden_costs(const HiddenCosts& h, int months, Ledger& ledger) {
  if (months < 1) return;
  const double storage = h.storage_gib * h.storage_usd_per_gib_month;
  const double cpu_vms = h.cpu_vms * h.cpu_vm_usd_per_hour * static_cast<double>(kHoursPerMonth);
  const double debugging = h.debugging_engineer_h_per_month * h.debugging_usd_per_engineer_h;
  const bool amortised = h.setup_paid == HiddenCosts::SetupPaid::amortised;
  for (int m = 0; m < months; ++m) {
    if (storage > 0.0) ledger.add(m, Category::storage, storage, Timing::end_of_month);
    if (h.network_usd_per_month > 0.0) ledger.add(m, Category::network, h.network_usd_per_month, Timing::end_of_month);
    if (cpu_vms > 0.0) ledger.add(m, Category::cpu_vms, cpu_vms, Timing::end_of_month);
    if (debugging > 0.0) ledger.add(m, Category::debugging, debugging, Timing::end_of_month);
    if (h.setup_usd > 0.0 && amortised) ledger.add(m, Category::setup, h.setup_usd / months, Timing::end_of_month);
  }
  if (h.setup_usd > 0.0 && !amortised) ledger.add(0, Category::setup, h.setup_usd, Timing::start_of_month);
}

void book_gpu_bill_uplifts(const HiddenCosts& h, Ledger& ledger) {
  for (int m = 0; m < ledger.months(); ++m) {
    const Uplifts u = uplifts(h, gpu_bill_of(ledger, m), other_bill_of(ledger, m));
    if (u.lost_work_usd != 0.0) ledger.add(m, Category::lost_work, u.lost_work_usd, Timing::end_of_month);
    if (u.support_usd != 0.0) ledger.add(m, Category::support, u.support_usd, Timing::end_of_month);
  }
}

void add_gpu_bill_uplifts(const HiddenCosts& h, std::array<double, kCategoryCount>& row) {
  const double bill = row[index_of(Category::cloud_on_demand)] + row[index_of(Category::cloud_spot)] +
                      row[index_of(Category::cloud_reserved)];
  const Uplifts u = uplifts(h, bill, 0.0);  // a path's rows hold no storage, network or CPU VMs
  row[index_of(Category::lost_work)] += u.lost_work_usd;
  row[index_of(Category::support)] += u.support_usd;
}

double gpu_bill_uplift_factor(const HiddenCosts& h) { return 1.0 / h.goodput + h.support_share_of_bill; }

}  // namespace tco

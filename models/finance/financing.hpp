// How an owned fleet is paid for: cash at delivery, a loan, or a lease (docs/model.md). Read by
// models/finance/finance_reader.cpp.
#pragma once

namespace tco {

struct Financing {
  enum class Kind { cash, loan, lease };
  Kind kind = Kind::cash;
  double apr = 0.0;
  int term_months = 0;
  double down_payment_fraction = 0.0;
  double lease_usd_per_node_month = 0.0;
  bool maintenance_included = false;  // lease only
};

}  // namespace tco

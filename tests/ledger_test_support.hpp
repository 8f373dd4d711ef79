// The one helper the ledger tests share (a unity batch puts several of them in one unit).
#pragma once

#include "engine/ledger/plan_evaluator.hpp"

namespace tco::test {

// A plan's USD in one category and month of its ledger.
inline double in_month(const PlanResult& r, int month, Category c) { return r.ledger.month_category_usd(month, c); }

}  // namespace tco::test

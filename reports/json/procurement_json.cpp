#include "reports/json/procurement_json.hpp"

namespace tco {

Json procurement_json(const ProcurementFigures& f) {
  return {{"order_month", f.order_month},
          {"purchase_month", f.purchase_month},
          {"planned_delivery_month", f.planned_delivery_month},
          {"deposit_usd", f.deposit_usd},
          {"delivery_slip", f.drawn ? "drawn per path" : "fixed"},
          {"delivery_month",
           {{"paths", f.paths},
            {"mean", f.delivery_month_mean},
            {"p5", f.delivery_month_p5},
            {"p50", f.delivery_month_p50},
            {"p95", f.delivery_month_p95}}},
          {"share_later_than_planned", f.share_later_than_planned},
          {"share_past_horizon", f.share_past_horizon}};
}

}  // namespace tco

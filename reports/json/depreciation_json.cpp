#include "reports/json/depreciation_json.hpp"

namespace tco {

namespace {

Json book_json(BookMethod method, const DepreciationViews& v) {
  Json rows = Json::array();
  double book_value_usd = v.cost_usd;
  for (std::size_t k = 0; k < v.book_usd_by_year.size(); ++k) {
    book_value_usd -= v.book_usd_by_year[k];
    rows.push_back(Json::array({k + 1, v.book_usd_by_year[k], book_value_usd}));
  }
  return {{"method", method == BookMethod::double_declining_balance ? "double_declining_balance" : "straight_line"},
          {"columns", {"year", "depreciation_usd", "book_value_after_usd"}},
          {"rows", rows}};
}

Json tax_json(const TaxDepreciationSpec& spec, const DepreciationViews& v) {
  Json rows = Json::array();
  for (std::size_t k = 0; k < v.tax_by_year.size(); ++k) {
    const TaxDepreciationYear& y = v.tax_by_year[k];
    rows.push_back(Json::array({k + 1, y.section_179_usd, y.bonus_usd, y.macrs_usd, y.total_usd, y.basis_after_usd}));
  }
  Json out = {{"macrs_class_years", spec.macrs_class_years},
              {"convention", macrs_convention_name(spec.convention)},
              {"columns", {"year", "section_179_usd", "bonus_usd", "macrs_usd", "deduction_usd", "tax_basis_after_usd"}},
              {"rows", rows}};
  if (spec.convention == MacrsConvention::mid_quarter) out["placed_in_service_quarter"] = v.placed_in_service_quarter;
  return out;
}

}  // namespace

Json depreciation_views_json(const OnPremSpec& o, const DepreciationViews& v) {
  Json out = {{"cost_usd", v.cost_usd},
              {"book", book_json(o.book_method, v)},
              {"tax", nullptr},
              {"sale", nullptr},
              {"tax_shield_view", o.tax_depreciation ? "tax" : "book"}};
  if (o.tax_depreciation) {
    out["tax"] = tax_json(*o.tax_depreciation, v);
    out["sale"] = {{"ordinary_recapture_usd", v.sale.ordinary_recapture_usd},
                   {"capital_gain_usd", v.sale.capital_gain_usd},
                   {"loss_usd", v.sale.loss_usd},
                   {"tax_usd", v.sale_tax_usd}};
  }
  return out;
}

}  // namespace tco

#include "reports/json/depreciation_json.hpp"

#include <algorithm>

#include "models/finance/economic_depreciation.hpp"

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

// Over the book life from the planned delivery, for the fleet the residual sells (spares too).
Json economic_json(const Plan& plan, const DepreciationViews& v) {
  const OnPremSpec& o = *plan.onprem;
  if (!o.residual_enabled) return nullptr;
  const std::vector<EconomicYear> years =
      economic_depreciation(v.cost_usd, owned_nodes(plan) * o.resale_base_per_node_usd(), o.resale_decline_per_year,
                            o.resale_step, o.planned_delivery_month(), static_cast<int>(v.book_usd_by_year.size()),
                            o.resale_price_path ? &*o.resale_price_path : nullptr);
  Json rows = Json::array();
  for (std::size_t k = 0; k < years.size(); ++k)
    rows.push_back(Json::array({k + 1, years[k].depreciation_usd, years[k].value_after_usd}));
  Json out = {{"resale_decline_per_year", o.resale_decline_per_year},
              {"columns", {"year", "depreciation_usd", "resale_value_after_usd"}},
              {"rows", rows}};
  if (o.resale_price_path) out["follows_cloud_price"] = true;  // only when on: other reports keep their bytes
  return out;
}

// Row k's column c of a {columns, rows} view, or null past its last row (or without the view).
Json view_cell(const Json& view, std::size_t k, std::size_t c) {
  return !view.is_null() && k < view.at("rows").size() ? view.at("rows")[k][c] : Json(nullptr);
}

std::size_t view_years(const Json& view) { return view.is_null() ? 0 : view.at("rows").size(); }

}  // namespace

Json depreciation_views_json(const Plan& plan, const DepreciationViews& v) {
  const OnPremSpec& o = *plan.onprem;
  Json out = {{"cost_usd", v.cost_usd},
              {"book", book_json(o.book_method, v)},
              {"economic", economic_json(plan, v)},
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

const std::vector<std::string>& depreciation_columns() {
  static const std::vector<std::string> columns = {
      "plan", "book_method", "tax_shield_view", "year", "book_depreciation_usd", "book_value_after_usd",
      "tax_section_179_usd", "tax_bonus_usd", "tax_macrs_usd", "tax_deduction_usd", "tax_basis_after_usd",
      "economic_depreciation_usd", "resale_value_after_usd"};
  return columns;
}

std::vector<Json> depreciation_rows(const Json& report) {
  std::vector<Json> rows;
  for (const auto& p : report.at("plans")) {
    if (!p.contains("depreciation_views")) continue;
    const Json& v = p.at("depreciation_views");
    const Json economic = v.value("economic", Json(nullptr));
    const std::size_t years = std::max({view_years(v.at("book")), view_years(v.at("tax")), view_years(economic)});
    for (std::size_t k = 0; k < years; ++k) {
      Json line = Json::array({p.at("name"), v.at("book").at("method"), v.at("tax_shield_view"), k + 1});
      for (std::size_t c = 1; c < 3; ++c) line.push_back(view_cell(v.at("book"), k, c));
      for (std::size_t c = 1; c < 6; ++c) line.push_back(view_cell(v.at("tax"), k, c));
      for (std::size_t c = 1; c < 3; ++c) line.push_back(view_cell(economic, k, c));
      rows.push_back(std::move(line));
    }
  }
  return rows;
}

}  // namespace tco

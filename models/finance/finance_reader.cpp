#include "models/finance/finance_reader.hpp"

#include "models/input_limits.hpp"

namespace tco {

Financing parse_financing(JsonObjectReader& r) {
  Financing f;
  const std::string type = r.choice("type", {"cash", "loan", "lease"});
  if (type == "loan") {
    f.kind = Financing::Kind::loan;
    f.apr = r.number("apr", Bounds::between(0.0, 1.0));
    f.term_months = static_cast<int>(r.integer("term_months", 1, 600));
    f.down_payment_fraction = r.number_or("down_payment_fraction", 0.0, Bounds::fraction());
  } else if (type == "lease") {
    f.kind = Financing::Kind::lease;
    f.lease_usd_per_node_month = r.number("usd_per_node_month", limits::kUsdPerNodeMonth);
    f.maintenance_included = r.boolean_or("maintenance_included", false);
  }
  r.finish();
  return f;
}

TaxDepreciationSpec parse_tax_depreciation(JsonObjectReader& r) {
  TaxDepreciationSpec t;
  t.macrs_class_years = static_cast<int>(r.integer("macrs_class_years", 3, 7));
  if (macrs_half_year_percent(t.macrs_class_years).empty())
    r.fail("macrs_class_years", "3, 5 or 7 (the MACRS classes of IRS Publication 946, Table A-1)",
           &r.value("macrs_class_years"));
  t.convention = r.choice_or("convention", {"half_year", "mid_quarter"}, "half_year") == "mid_quarter"
                     ? MacrsConvention::mid_quarter
                     : MacrsConvention::half_year;
  t.bonus_fraction = r.number_or("bonus_fraction", 0.0, Bounds::fraction());
  t.section_179_usd = r.number_or("section_179_usd", 0.0, limits::kUsdPerSite);
  r.finish();
  return t;
}

}  // namespace tco

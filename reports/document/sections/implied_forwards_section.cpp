// Implied forward reserved price (docs/report.md, `pricing.implied_forwards`): per offer with a
// 1-year and a 3-year reserved price, the 1-year price for years two and three the pair implies.
#include "reports/document/report_section.hpp"

namespace tco {

Section implied_forwards_section(const Json& report) {
  const Json& pricing = report.at("pricing");
  if (!pricing.contains("implied_forwards")) return {};
  Table t = make_table({{"offer", "offer"},
                        {"1-year $/h", "reserved_1y_usd_per_instance_hour"},
                        {"3-year $/h", "reserved_3y_usd_per_instance_hour"},
                        {"implied forward $/h", "implied_forward_usd_per_instance_hour"},
                        {"$/GPU-h", "implied_forward_usd_per_gpu_hour"},
                        {"vs 1-year", "forward_change_vs_1y"},
                        {"", "discount_rate_per_year", Shown::csv}},
                       "implied_forwards.csv");
  for (const auto& f : pricing.at("implied_forwards"))
    t.rows.push_back(
        {{text_cell(f.at("offer")), usd_price_cell(f.at("reserved_1y_usd_per_instance_hour")),
          usd_price_cell(f.at("reserved_3y_usd_per_instance_hour")),
          usd_price_cell(f.at("implied_forward_usd_per_instance_hour")),
          usd_price_cell(f.at("implied_forward_usd_per_gpu_hour")), signed_percent_cell(f.at("forward_change_vs_1y")),
          percent_cell(f.at("discount_rate_per_year"))}});
  return make_section(
      "implied_forwards", "Implied forward reserved price",
      "the 1-year price for years two and three that the 3-year price implies, discounted at the scenario's rate", {t});
}

}  // namespace tco

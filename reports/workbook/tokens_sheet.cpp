#include "reports/workbook/tokens_sheet.hpp"

#include <tuple>
#include <utility>

#include <fmt/format.h>

namespace tco {

namespace {

// Excel's column letters for 0-based columns below 26.
std::string cell(int col, int row) { return fmt::format("{}{}", static_cast<char>('A' + col), row + 1); }

}  // namespace

void write_tokens_sheet(lxw_workbook* wb, const Json& report, const std::vector<std::string>& plan_total_cells,
                        const TokensSheetFormats& f, lxw_error* first_error) {
  const Json& plans = report.at("plans");
  bool any = false;
  for (const Json& p : plans) any = any || p.contains("tokens");
  if (!any) return;
  lxw_worksheet* ws = workbook_add_worksheet(wb, "Tokens");
  const auto check = [&](lxw_error e) {
    if (e != LXW_NO_ERROR && *first_error == LXW_NO_ERROR) *first_error = e;
  };
  if (!ws) {
    check(LXW_ERROR_MEMORY_MALLOC_FAILED);
    return;
  }
  enum : int { plan, demanded, served, unserved, input, output, cost, busy, weight, res_blended, res_input, res_output,
               use_blended, use_input, use_output, columns };
  const char* header[columns] = {"plan", "tokens_demanded", "tokens_served", "tokens_unserved", "input_tokens_served",
                                 "output_tokens_served", "cost_usd", "busy_cost_usd", "output_token_cost_weight",
                                 "usd_per_million_tokens_reservation", "usd_per_million_input_tokens_reservation",
                                 "usd_per_million_output_tokens_reservation", "usd_per_million_tokens_usage",
                                 "usd_per_million_input_tokens_usage", "usd_per_million_output_tokens_usage"};
  for (int c = 0; c < columns; ++c) check(worksheet_write_string(ws, 0, c, header[c], f.bold));
  // A plan whose API's rate-limited tokens burst to venues (api_next_venue): three columns more,
  // the tokens over the limit, those the venues served, and (a formula) those left unserved.
  bool over_limit = false;
  for (const Json& p : plans) over_limit = over_limit || (p.contains("api") && p.at("api").is_object() &&
                                                          p.at("api").contains("venue_tokens"));
  enum : int { over = columns, to_venues, left_over, all_columns };
  if (over_limit)
    for (const auto& [col, name] : {std::pair{int{over}, "api_tokens_over_rate_limit"},
                                    std::pair{int{to_venues}, "api_venue_tokens"},
                                    std::pair{int{left_over}, "api_tokens_over_rate_limit_unserved"}})
      check(worksheet_write_string(ws, 0, col, name, f.bold));
  int row = 1;
  for (std::size_t i = 0; i < plans.size(); ++i, ++row) {
    const Json& p = plans[i];
    if (!p.contains("tokens")) {
      --row;
      continue;
    }
    const Json& k = p.at("tokens");
    const auto number = [&](int col, const Json& v, lxw_format* format = nullptr) {
      check(worksheet_write_number(ws, row, col, v.get<double>(), format));
    };
    const auto formula = [&](int col, const std::string& text, const Json& cached, lxw_format* format) {
      if (cached.is_null()) {  // nothing served: no price, as the CSV's empty cell
        check(worksheet_write_string(ws, row, col, "(none)", nullptr));
        return;
      }
      check(worksheet_write_formula_num(ws, row, col, ("=" + text).c_str(), format, cached.get<double>()));
    };
    check(worksheet_write_string(ws, row, plan, p.at("name").get<std::string>().c_str(), nullptr));
    number(demanded, k.at("demanded"));
    number(served, k.at("served"));
    formula(unserved, cell(demanded, row) + "-" + cell(served, row), k.at("unserved"), nullptr);
    number(input, k.at("input_served"));
    number(output, k.at("output_served"));
    formula(cost, plan_total_cells.at(i), k.at("cost_usd"), f.usd);
    number(busy, k.at("busy_cost_usd"), f.usd);
    number(weight, k.at("output_token_cost_weight"));
    const Json& reservation = k.at("usd_per_million_tokens").at("reservation_basis");
    const Json& usage = k.at("usd_per_million_tokens").at("usage_basis");
    const std::string weighted = "(" + cell(input, row) + "+" + cell(weight, row) + "*" + cell(output, row) + ")";
    for (const auto& [basis, figures, first] :
         {std::tuple{cost, &reservation, int{res_blended}}, std::tuple{busy, &usage, int{use_blended}}}) {
      formula(first, cell(basis, row) + "/" + cell(served, row) + "*1000000", figures->at("blended"), f.usd);
      formula(first + 1, cell(basis, row) + "/" + weighted + "*1000000", figures->at("input"), f.usd);
      formula(first + 2, cell(weight, row) + "*" + cell(first + 1, row), figures->at("output"), f.usd);
    }
    if (over_limit && p.contains("api") && p.at("api").is_object() && p.at("api").contains("venue_tokens")) {
      const Json& a = p.at("api");
      number(over, a.at("tokens_over_rate_limit"));
      number(to_venues, a.at("venue_tokens"));
      formula(left_over, cell(over, row) + "-" + cell(to_venues, row), a.at("unserved_tokens"), nullptr);
    }
  }
  check(worksheet_set_column(ws, 0, 0, 24, nullptr));
  check(worksheet_set_column(ws, 1, (over_limit ? int{all_columns} : int{columns}) - 1, 18, nullptr));
}

}  // namespace tco

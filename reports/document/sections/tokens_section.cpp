// Tokens per plan (docs/report.md, `tokens`; docs/tokens.md §6): for a scenario whose workload
// serves tokens, each plan's tokens demanded and served, $ per million tokens on the reservation
// basis (its whole cost) and the usage basis (its busy GPU-hours' cost), blended and per input and
// output token, tokens per facility MWh where it owns, and the replicas of the peak hour.
#include <fmt/format.h>

#include "reports/document/cell_text.hpp"
#include "reports/document/report_section.hpp"

namespace tco {

namespace {

Cell per_million_cell(const Json& usd) {
  Cell c = usd_price_cell(usd, 3);
  return c.has_number() ? c : shown_as(c, "n/a (no token served)");
}

// Tokens shown in billions (the CSV keeps the count).
Cell billions_cell(const Json& tokens) { return count_cell(tokens.get<double>() / 1e9, 1); }

Cell owned_cell(const Json& figure, int decimals) {
  Cell c = count_cell(figure, decimals);
  return c.has_number() ? c : shown_as(c, "-");
}

}  // namespace

Section tokens_section(const Json& report) {
  // An output token's weight: one table says it once; with 1 (by count) the input and output
  // figures are the blended one, and only the CSV repeats them.
  double weight = 1.0;
  bool weighted = false;
  for (const Json& p : report.at("plans"))
    if (p.contains("tokens")) {
      weight = p.at("tokens").at("output_token_cost_weight").get<double>();
      weighted = weighted || weight != 1.0;
    }
  // A plan whose API's rate-limited tokens burst to venues (api_next_venue): the tokens over the
  // limit and those the venues served get columns; other reports keep their bytes.
  bool over_limit = false;
  for (const Json& p : report.at("plans"))
    over_limit = over_limit || (p.contains("api") && p.at("api").is_object() && p.at("api").contains("venue_tokens"));
  const Shown in_out = Shown::csv;
  std::vector<Column> columns = {{"plan", "plan"},
                                 {"served, bn", "", Shown::human},
                                 {"unserved, bn", "", Shown::human}};
  if (over_limit)
    for (Column c : std::vector<Column>{{"over API limit, bn", "", Shown::human}, {"to venues, bn", "", Shown::human}})
      columns.push_back(std::move(c));
  for (Column c : std::vector<Column>{{"", "tokens_demanded", Shown::csv},
                                      {"", "tokens_served", Shown::csv},
                                      {"", "tokens_unserved", Shown::csv}})
    columns.push_back(std::move(c));
  if (over_limit)
    for (Column c : std::vector<Column>{{"", "api_tokens_over_rate_limit", Shown::csv},
                                        {"", "api_venue_tokens", Shown::csv}})
      columns.push_back(std::move(c));
  for (Column c : std::vector<Column>{{"", "input_tokens_served", Shown::csv},
                                 {"", "output_tokens_served", Shown::csv},
                                 {"", "cost_usd", Shown::csv},
                                 {"", "busy_cost_usd", Shown::csv},
                                 {"", "output_token_cost_weight", Shown::csv},
                                 {"$/M reservation", "usd_per_million_tokens_reservation"},
                                 {"", "usd_per_million_input_tokens_reservation", in_out},
                                 {"", "usd_per_million_output_tokens_reservation", in_out},
                                 {"$/M usage", "usd_per_million_tokens_usage"},
                                 {"", "usd_per_million_input_tokens_usage", in_out},
                                 {"", "usd_per_million_output_tokens_usage", in_out}})
    columns.push_back(std::move(c));
  if (weighted) columns.push_back({"$/M in / out", "", Shown::human});
  for (Column c : std::vector<Column>{{"M tokens/MWh", "", Shown::human},
                                      {"", "tokens_per_facility_mwh", Shown::csv},
                                      {"", "tokens_per_s_per_peak_facility_mw", Shown::csv},
                                      {"replicas at peak", "replicas_at_peak"},
                                      {"", "gpus_per_replica", Shown::csv}})
    columns.push_back(std::move(c));
  Table t = make_table(std::move(columns), "tokens.csv");
  for (const Json& p : report.at("plans")) {
    if (!p.contains("tokens")) continue;
    const Json& k = p.at("tokens");
    const Json& reservation = k.at("usd_per_million_tokens").at("reservation_basis");
    const Json& usage = k.at("usd_per_million_tokens").at("usage_basis");
    const Cell per_mwh = owned_cell(k.at("per_facility_mwh"), 0);
    // "-" for a plan whose API does not burst (or that buys no tokens).
    const bool bursts = p.contains("api") && p.at("api").is_object() && p.at("api").contains("venue_tokens");
    const auto api_figure = [&](const char* key, bool billions) {
      if (!bursts) return shown_as(count_cell(Json()), "-");
      return billions ? billions_cell(p.at("api").at(key)) : count_cell(p.at("api").at(key));
    };
    std::vector<Cell> cells = {text_cell(p.at("name")), billions_cell(k.at("served")), billions_cell(k.at("unserved"))};
    if (over_limit) {
      cells.push_back(api_figure("tokens_over_rate_limit", true));
      cells.push_back(api_figure("venue_tokens", true));
    }
    for (Cell c : {count_cell(k.at("demanded")), count_cell(k.at("served")), count_cell(k.at("unserved"))})
      cells.push_back(std::move(c));
    if (over_limit) {
      cells.push_back(api_figure("tokens_over_rate_limit", false));
      cells.push_back(api_figure("venue_tokens", false));
    }
    for (Cell c : {count_cell(k.at("input_served")),
                               count_cell(k.at("output_served")),
                               usd_cell(k.at("cost_usd")),
                               usd_cell(k.at("busy_cost_usd")),
                               count_cell(k.at("output_token_cost_weight"), 2),
                               per_million_cell(reservation.at("blended")),
                               per_million_cell(reservation.at("input")),
                               per_million_cell(reservation.at("output")),
                               per_million_cell(usage.at("blended")),
                               per_million_cell(usage.at("input")),
                               per_million_cell(usage.at("output"))})
      cells.push_back(std::move(c));
    if (weighted)
      cells.push_back(text_cell(fmt::format("{} / {}", cell_text(per_million_cell(reservation.at("input"))),
                                            cell_text(per_million_cell(reservation.at("output"))))));
    cells.push_back(per_mwh.has_number() ? count_cell(per_mwh.number() / 1e6, 1) : per_mwh);
    cells.push_back(per_mwh);
    cells.push_back(owned_cell(k.at("per_s_per_peak_facility_mw"), 0));
    cells.push_back(count_cell(k.at("replicas_at_peak")));
    cells.push_back(count_cell(k.at("gpus_per_replica")));
    t.rows.push_back({std::move(cells)});
  }
  return make_section(
      "tokens", "Tokens per plan",
      fmt::format("tokens over the horizon, in billions; $/M = dollars per million tokens served: reservation basis "
                  "= the plan's whole nominal cost / tokens served, usage basis = the cost of its busy GPU-hours "
                  "(idle owned and reserved capacity and waiting left out) / tokens served; {}; M tokens/MWh = "
                  "millions of tokens served on owned GPUs per MWh of facility energy (IT x PUE); replicas at peak "
                  "= the peak hour's whole replicas; tokens.csv has every count and both bases per input and output "
                  "token{}; docs/tokens.md",
                  weighted ? fmt::format("input / output split the reservation basis's cost by token count, an "
                                         "output token weighing {:g} input tokens",
                                         weight)
                           : "input and output tokens carry the same cost (split by count)",
                  over_limit ? "; over API limit = tokens above a plan's API rate limit, sent down its venues "
                               "(api_next_venue), to venues = those the venues served (the rest are unserved)"
                             : ""),
      {t});
}

}  // namespace tco

// The breakevens (docs/report.md, `breakevens`; SPEC §8): the utilization above which owning a
// fleet's node beats renting the same GPU-hours, for the prices the plans pay, and the multiple of
// today's cloud prices at which two plans cost the same NPV, where one exists. The other rows are
// counted under the tables; the JSON report holds them all.
#include "reports/document/report_section.hpp"
#include "reports/verdict/verdict_text.hpp"

namespace tco {

namespace {

Table utilization_table(const Json& report) {
  Table t = make_table({{"server", "server"},
                        {"fleet (nodes)", "fleet_nodes"},
                        {"cloud offer", "offer"},
                        {"price", "price_basis"},
                        {"cloud price at the start, path", "", Shown::human},
                        {"", "start_usd_per_gpu_hour", Shown::csv},
                        {"", "change_per_year", Shown::csv},
                        {"breakeven per node, " + horizon_header(report), "utilization_over_horizon"},
                        {"over the node's life", "utilization_over_life"},
                        {"", "life_months", Shown::csv},
                        {"GPU-hours per node per month (horizon)", "gpu_hours_per_node_month_over_horizon"}},
                       "breakevens_utilization.csv");
  // Every format ends a caption with ":" (the table follows), so it reads as one sentence.
  t.caption = "Utilization breakeven, for the prices the plans pay: one node, with its share of the fleet's fixed staff, "
              "room and racks, against renting the same GPU-hours on the cloud price's path; over the horizon the node "
              "ends as the plans do, sold at the horizon's end when they book a resale";
  for (const auto& b : report.at("breakevens").at("utilization")) {
    if (!utilization_row_decides(b)) continue;
    const Json none(nullptr);
    const Json* horizon = b.contains("over_horizon") ? &b.at("over_horizon") : nullptr;
    const Json* path = b.contains("price_path") ? &b.at("price_path") : nullptr;
    Cell over_horizon = percent_cell(horizon ? horizon->at("utilization") : none);
    if (!over_horizon.has_number()) over_horizon = shown_as(over_horizon, horizon_breakeven_cell(b));  // "never", "n/a"
    Cell over_life = percent_cell(b.at("utilization"));
    over_life = shown_as(over_life, life_breakeven_cell(b));  // "41.8% (60 months)"
    t.rows.emplace_back(std::vector<Cell>{
        text_cell(b.at("server")), count_cell(b.value("fleet_nodes", Json(1))), text_cell(b.value("offer", none)),
        text_cell(b.at("price_basis")), text_cell(price_path_cell(b)),
        usd_price_cell(path ? path->at("start_usd_per_gpu_hour") : b.at("cloud_usd_per_gpu_hour")),
        signed_percent_cell(path && !path->at("scheduled").get<bool>() ? path->at("change_per_year") : none),
        over_horizon, over_life, count_cell(b.at("life_months")),
        count_cell(horizon ? horizon->at("gpu_hours_per_month") : none)});
  }
  return t;
}

Table price_table(const Json& report) {
  Table t = make_table({{"plan", "plan"},
                        {"against", "", Shown::human},
                        {"", "baseline", Shown::csv},
                        {"", "reference", Shown::csv},
                        {"cloud prices scaled", "prices"},
                        {"multiple of today's", "cloud_price_multiplier"}},
                       "breakevens_cloud_price.csv");
  t.caption = "Cloud price breakeven: the multiple of every cloud price at which two plans cost the same NPV";
  for (const auto& b : report.at("breakevens").at("cloud_price_multiplier")) {
    if (!price_row_decides(b)) continue;
    const bool baseline = b.value("reference", "baseline") == "baseline";
    t.rows.emplace_back(std::vector<Cell>{
        text_cell(b.at("plan")),
        text_cell(b.at("baseline").get<std::string>() + (baseline ? " (the baseline)" : " (the recommended plan)")),
        text_cell(b.at("baseline")), text_cell(b.value("reference", "baseline")), text_cell(b.at("prices")),
        count_cell(b.at("cloud_price_multiplier"), 3)});
  }
  return t;
}

}  // namespace

Section breakevens_section(const Json& report) {
  if (!report.contains("breakevens")) return make_section("breakevens", "Breakevens", "");
  Section s = make_section("breakevens", "Breakevens", "", {utilization_table(report), price_table(report)});
  for (const std::string& hidden : {hidden_utilization_rows_line(report), hidden_price_rows_line(report)})
    if (!hidden.empty()) s.sentences.push_back(hidden);
  return s;
}

}  // namespace tco

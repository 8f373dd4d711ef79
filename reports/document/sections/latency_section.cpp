// Latency per plan (docs/report.md, `plans[].latency`; docs/des.md "Requests in a scenario"): for a
// scenario whose workload has requests, each serving plan's replicas, the requests it served and
// dropped, the share within the slo, and TTFT, time per output token and end-to-end latency at
// p50, p90 and p99 from the request replay. Each figure that varies path by path has its Monte
// Carlo statistics (`plans[].latency.across_paths`): latency.csv has each one's path mean and 95%
// interval, and the human formats a table of them (the path mean, its 95% interval, P5 and P95) when
// more than one path was replayed. A third table gives TTFT against load (`plans[].latency.by_load`,
// latency_by_load.csv; the HTML page draws it, reports/html/html_charts.cpp).
#include <fmt/format.h>

#include "engine/des/serving/plan_latency.hpp"
#include "reports/document/cell_text.hpp"
#include "reports/document/report_section.hpp"

namespace tco {

namespace {

Cell seconds_cell(const Json& seconds, int decimals) {
  Cell c = count_cell(seconds, decimals);
  return c.has_number() ? c : shown_as(c, "-");
}

// A per-path figure's value as its kind reads: seconds, a share, tokens or requests, dollars.
Cell path_figure_cell(const std::string& key, const Json& value) {
  if (key == "share_within_slo") return percent_cell(value, 2);
  if (key.ends_with("_usd")) return usd_cell(value);
  if (key.ends_with("_s")) return seconds_cell(value, key.starts_with("tpot") ? 5 : 4);
  return count_cell(value);
}

// The words of a per-path figure's key: "TTFT p99", "tokens by the API".
std::string path_figure_words(const std::string& key) {
  if (key.size() > 6 && key.ends_with("_s")) {
    std::string figure = key.substr(0, key.find('_'));
    if (figure == "ttft") figure = "TTFT";
    return figure + " " + key.substr(key.find('_') + 1, 3) + " (s)";
  }
  if (key == "share_within_slo") return "share within the slo";
  if (key == "owned_tokens") return "tokens by owned replicas";
  if (key == "rented_tokens") return "tokens by rented replicas";
  if (key == "api_tokens") return "tokens by the API";
  if (key == "dropped_requests") return "requests dropped";
  if (key == "rented_usd") return "rented replicas' $ (replay basis)";
  return "API overflow $ (replay basis)";
}

const std::vector<std::string>& path_figure_keys() {
  static const std::vector<std::string> keys = {
      "ttft_p50_s",   "ttft_p90_s",    "ttft_p99_s", "tpot_p50_s",       "tpot_p90_s", "tpot_p99_s",
      "e2e_p50_s",    "e2e_p90_s",     "e2e_p99_s",  "share_within_slo", "owned_tokens", "rented_tokens",
      "api_tokens",   "dropped_requests", "rented_usd", "api_overflow_usd"};
  return keys;
}

const Json& path_statistic(const Json& latency, const std::string& key, const char* statistic) {
  static const Json none(nullptr);
  if (!latency.contains("across_paths") || !latency.at("across_paths").contains(key)) return none;
  const Json& figure = latency.at("across_paths").at(key);
  return figure.is_null() ? none : figure.at(statistic);
}

// The human formats' table of each plan's per-path figures (shown when more than one path ran).
Table across_paths_table(const Json& report) {
  Table t = make_table({{"plan", "", Shown::human},
                        {"figure", "", Shown::human},
                        {"path mean", "", Shown::human},
                        {"95% CI", "", Shown::human},
                        {"P5", "", Shown::human},
                        {"P95", "", Shown::human}});
  t.caption = "Across paths";
  for (const Json& p : report.at("plans")) {
    if (!p.contains("latency") || p.at("latency").is_null() || p.at("latency").at("paths").get<long>() < 2) continue;
    const Json& l = p.at("latency");
    for (const std::string& key : path_figure_keys()) {
      const Cell low = path_figure_cell(key, path_statistic(l, key, "ci95_low"));
      const Cell high = path_figure_cell(key, path_statistic(l, key, "ci95_high"));
      t.rows.push_back({{text_cell(p.at("name")), text_cell(path_figure_words(key)),
                         path_figure_cell(key, path_statistic(l, key, "mean")),
                         low.has_number() ? shown_as(low, cell_text(low) + " .. " + cell_text(high)) : low,
                         path_figure_cell(key, path_statistic(l, key, "p5")),
                         path_figure_cell(key, path_statistic(l, key, "p95"))}});
    }
  }
  return t;
}

// TTFT against load, per plan: each load bin's mean requests/s, requests and TTFT percentiles.
Table by_load_table(const Json& report) {
  Table t = make_table({{"plan", "plan"},
                        {"requests/s", "requests_per_s"},
                        {"requests", "served"},
                        {"TTFT p50", "ttft_p50_s"},
                        {"TTFT p90", "ttft_p90_s"},
                        {"TTFT p99", "ttft_p99_s"}},
                       "latency_by_load.csv");
  t.caption = "TTFT against load";
  t.folded = true;
  for (const Json& p : report.at("plans")) {
    if (!p.contains("latency") || p.at("latency").is_null()) continue;
    for (const Json& b : p.at("latency").value("by_load", Json::array()))
      t.rows.push_back({{text_cell(p.at("name")), count_cell(b.at("requests_per_s"), 3), count_cell(b.at("served")),
                         seconds_cell(b.at("ttft_s").at("p50"), 3), seconds_cell(b.at("ttft_s").at("p90"), 3),
                         seconds_cell(b.at("ttft_s").at("p99"), 3)}});
  }
  return t;
}

}  // namespace

Section latency_section(const Json& report) {
  std::vector<Column> columns = {{"plan", "plan"},
                                 {"replicas", "replicas"},
                                 {"", "gpus_per_replica", Shown::csv},
                                 {"", "max_concurrency", Shown::csv},
                                 {"requests", "requests"},
                                 {"dropped", "dropped"},
                                 {"within slo", "share_within_slo"}};
  // The terminal's 100 columns hold TTFT p50 and p99, tpot p50 and end-to-end p99; the CSV has all nine.
  for (const char* figure : {"ttft", "tpot", "e2e"})
    for (const char* p : {"p50", "p90", "p99"}) {
      const std::string name = figure == std::string("ttft") ? "TTFT" : figure;
      const bool human = (name == "TTFT" && p != std::string("p90")) || (name == "tpot" && p == std::string("p50")) ||
                         (name == "e2e" && p == std::string("p99"));
      columns.push_back({human ? name + " " + p : "", fmt::format("{}_{}_s", figure, p),
                         human ? Shown::everywhere : Shown::csv});
    }
  for (Column c : std::vector<Column>{{"", "mean_ttft_s", Shown::csv},
                                      {"", "mean_wait_s", Shown::csv},
                                      {"", "max_queue", Shown::csv},
                                      {"", "input_tokens_served", Shown::csv},
                                      {"", "output_tokens_served", Shown::csv},
                                      {"", "hourly_model_tokens", Shown::csv},
                                      {"", "busy_gpu_hours", Shown::csv},
                                      {"", "to_api", Shown::csv},
                                      {"", "owned_tokens_per_path", Shown::csv},
                                      {"", "rented_tokens_per_path", Shown::csv},
                                      {"", "api_tokens_per_path", Shown::csv},
                                      {"", "rented_replica_hours_per_path", Shown::csv},
                                      {"", "rented_usd_per_path", Shown::csv},
                                      {"", "api_overflow_usd_per_path", Shown::csv}})
    columns.push_back(std::move(c));
  for (const std::string& key : path_figure_keys())
    for (const char* statistic : {"path_mean", "ci95_low", "ci95_high"})
      columns.push_back({"", key + "_" + statistic, Shown::csv});
  Table t = make_table(std::move(columns), "latency.csv");
  long hours = 0, paths = 0;
  for (const Json& p : report.at("plans")) {
    if (!p.contains("latency") || p.at("latency").is_null()) continue;
    const Json& l = p.at("latency");
    hours = l.at("hours").get<long>();
    paths = l.at("paths").get<long>();
    Cell within = percent_cell(l.at("share_within_slo"), 1);
    std::vector<Cell> cells = {text_cell(p.at("name")),
                               count_cell(l.at("replicas")),
                               count_cell(l.at("gpus_per_replica")),
                               count_cell(l.at("max_concurrency")),
                               count_cell(l.at("requests").at("arrived")),
                               count_cell(l.at("requests").at("dropped")),
                               within.has_number() ? within : shown_as(within, "-")};
    for (const char* figure : {"ttft_s", "tpot_s", "e2e_s"})
      for (const char* q : {"p50", "p90", "p99"})
        cells.push_back(seconds_cell(l.at(figure).at(q), figure == std::string("tpot_s") ? 4 : 3));
    cells.push_back(seconds_cell(l.at("ttft_s").at("mean"), 6));
    cells.push_back(seconds_cell(l.at("wait_s").at("mean"), 6));
    cells.push_back(count_cell(l.at("max_queue")));
    cells.push_back(count_cell(l.at("input_tokens_served")));
    cells.push_back(count_cell(l.at("output_tokens_served")));
    cells.push_back(count_cell(l.at("hourly_model_tokens")));
    cells.push_back(count_cell(l.at("busy_gpu_hours"), 3));
    cells.push_back(count_cell(l.at("requests").at("to_api")));
    for (const char* venue : {"owned", "rented", "api"}) cells.push_back(count_cell(l.at("tokens_served_per_path").at(venue)));
    cells.push_back(count_cell(l.at("rented_replica_hours_per_path"), 3));
    cells.push_back(usd_cell(l.at("rented_usd_per_path")));
    cells.push_back(usd_cell(l.at("api_overflow_usd_per_path")));
    for (const std::string& key : path_figure_keys())
      for (const char* statistic : {"mean", "ci95_low", "ci95_high"})
        cells.push_back(path_figure_cell(key, path_statistic(l, key, statistic)));
    t.rows.push_back({std::move(cells)});
  }
  return make_section(
      "latency", "Latency per plan",
      fmt::format("the scenario's requests replayed one by one over the first {} hour{} ({} path{}) on each serving "
                  "plan's replicas, by continuous batching at its serving profile's measured rates; dropped = waited "
                  "past max_wait_s; within slo = the share of requests whose TTFT and decode speed meet "
                  "workload.tokens.slo; TTFT = time to first token, tpot = time per output token, e2e = "
                  "end-to-end, in seconds (a percentile within 0.4%); latency.csv adds the slots a replica, "
                  "every p50/p90/p99, the means, the longest queue, the tokens served beside the hourly "
                  "model's, the tokens a path served by owned and rented replicas and the API (overflow past "
                  "max_wait_s, after the venues of workload.requests.venues) and what the rented hours and the API cost a path "
                  "(\"replay $\": {}), and each figure's mean over the "
                  "paths with its 95% interval (Student t, as the costs'); \"Across paths\" gives them with P5 and "
                  "P95 when more than one path ran; \"TTFT against load\" groups the requests by their arrival "
                  "hour's requests/s; docs/des.md",
                  hours, hours == 1 ? "" : "s", paths, paths == 1 ? "" : "s", kReplayUsdBasis),
      {t, across_paths_table(report), by_load_table(report)});
}

}  // namespace tco

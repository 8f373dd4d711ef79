// Latency per plan (docs/report.md, `plans[].latency`; docs/des.md "Requests in a scenario"): for a
// scenario whose workload has requests, each serving plan's replicas, the requests it served and
// dropped, the share within the slo, and TTFT, time per output token and end-to-end latency at
// p50, p90 and p99 from the request replay.
#include <fmt/format.h>

#include "reports/document/cell_text.hpp"
#include "reports/document/report_section.hpp"

namespace tco {

namespace {

Cell seconds_cell(const Json& seconds, int decimals) {
  Cell c = count_cell(seconds, decimals);
  return c.has_number() ? c : shown_as(c, "-");
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
                  "max_wait_s) and what the rented hours and the API cost a path; docs/des.md",
                  hours, hours == 1 ? "" : "s", paths, paths == 1 ? "" : "s"),
      {t});
}

}  // namespace tco

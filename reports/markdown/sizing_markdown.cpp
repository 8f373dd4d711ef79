#include "reports/markdown/sizing_markdown.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reports/markdown/markdown_summary.hpp"

namespace tco {

namespace {

// " (R replicas of G GPUs, $X per million tokens)" for a serving plan's point; "" otherwise.
std::string replicas_words(const Json& a, const char* which) {
  const std::string replicas = std::string(which) + "_replicas";
  if (!a.contains(replicas)) return "";
  const long r = a.at(replicas).get<long>();
  const Json& usd = a.at(std::string(which) + "_usd_per_million_tokens");
  return fmt::format(" ({} replica{} of {} GPUs{})", r, r == 1 ? "" : "s", a.at("gpus_per_replica").get<long>(),
                     usd.is_number() ? fmt::format(", ${:.3f} per million tokens", usd.get<double>()) : "");
}

}  // namespace

std::string sizing_answer_sentence(const Json& sizing) {
  if (!sizing.contains("answer")) return "";
  const Json& a = sizing.at("answer");
  const long n = a.at("mean_nodes").get<long>(), n90 = a.at("p90_nodes").get<long>();
  if (n == n90)
    return fmt::format("Own {} node{}{}: the cheapest on average (mean NPV {}), and the lowest 90th percentile too ({}).", n,
                       n == 1 ? "" : "s", replicas_words(a, "mean"), format_usd(a.at("mean_npv_usd")),
                       format_usd(a.at("p90_usd")));
  return fmt::format("Own {} node{}{}: the cheapest on average (mean NPV {}, 90th percentile {}); {}{} if you want the "
                     "90th percentile no worse than {} (mean NPV {}).",
                     n, n == 1 ? "" : "s", replicas_words(a, "mean"), format_usd(a.at("mean_npv_usd")),
                     format_usd(a.at("mean_p90_usd")), n90, replicas_words(a, "p90"), format_usd(a.at("p90_usd")),
                     format_usd(a.at("p90_npv_usd")));
}

std::string sizing_shifting_sentence(const Json& sizing) {
  if (!sizing.contains("service_limits") || !sizing.at("service_limits").is_object() ||
      sizing.at("service_limits").value("max_deadline_misses_added_by_shifting", Json()).is_null())
    return "";  // not a replay of a plan that shifts time
  std::vector<std::string> added;
  for (const auto& p : sizing.at("points").is_null() ? sizing.at("curve") : sizing.at("points"))
    if (const double d = p.at("deadline_misses_added_by_shifting").get<double>(); d > 1e-9)
      added.push_back(fmt::format("{} (+{:.2f} a path)", p.at("nodes").get<long>(), d));
  if (added.empty())
    return "Time shifting adds no deadline miss at any node count evaluated (against the same count without shifting, "
           "on the same paths).";
  return fmt::format("Time shifting adds deadline misses at these node counts (against the same count without "
                     "shifting, on the same paths), which therefore do not meet the service limits: {}.",
                     fmt::join(added, ", "));
}

std::string sizing_markdown(const Json& report) {
  if (!report.contains("sizing") || !report.at("sizing").contains("frontier")) return "";
  const Json& sizing = report.at("sizing");
  std::string md = fmt::format("\n**How many nodes** ({}, {} paths). {}\n\n", sizing.at("plan").get<std::string>(),
                               sizing.at("paths").get<long>(), sizing_answer_sentence(sizing));
  if (const std::string shifting = sizing_shifting_sentence(sizing); !shifting.empty()) md += shifting + "\n\n";
  md += "The efficient frontier: the node counts no other beats on both the mean NPV and the CVaR95 (the mean of the "
        "worst 5% of paths); each row buys a lower tail with a higher mean.\n\n"
        "| nodes | mean NPV | P90 | CVaR95 |\n|---:|---:|---:|---:|\n";
  for (const auto& f : sizing.at("frontier"))
    md += fmt::format("| {} | {} | {} | {} |\n", f.at("nodes").get<long>(), format_usd(f.at("npv_mean_usd")),
                      format_usd(f.at("npv_p90_usd")), format_usd(f.at("npv_cvar95_usd")));
  if (const Json& r = sizing.at("randomness"); r.is_array() && !r.empty()) {
    md += "\nThe curve drew";
    for (std::size_t i = 0; i < r.size(); ++i) md += (i == 0 ? " " : "; and ") + r.at(i).get<std::string>();
    md += ".\n";
  }
  return md;
}

}  // namespace tco

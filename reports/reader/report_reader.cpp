#include "reports/reader/report_reader.hpp"

#include <array>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco {

namespace {

bool is_money_key(const std::string& key) {
  constexpr std::string_view suffix = "_usd";
  return (key.size() >= suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0) ||
         key == "usd_per_useful_gpu_hour";
}

std::string describe(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_string()) return "the string " + v.dump();
  return v.dump();
}

// Every leaf under a money key is a number (JSON cannot hold inf or NaN, so a number is finite).
void check_money_leaves(const Json& node, const std::string& pointer, const std::string& file) {
  if (node.is_object()) {
    for (const auto& item : node.items()) check_money_leaves(item.value(), pointer_join(pointer, item.key()), file);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) check_money_leaves(node[i], pointer_join(pointer, std::to_string(i)), file);
  } else if (!node.is_number()) {
    throw InputError(file, pointer,
                     "expected a finite amount in USD, found " + describe(node) +
                         " (a report tcosim wrote never holds one; was the file edited or cut?)");
  }
}

void check_entries(const Json& report, const std::string& list_pointer, const std::string& file) {
  const Json::json_pointer p(list_pointer);
  if (!report.contains(p)) return;
  const Json& list = report.at(p);
  if (!list.is_array()) throw InputError(file, list_pointer, "expected an array, found " + describe(list));
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string entry_pointer = pointer_join(list_pointer, std::to_string(i));
    if (!list[i].is_object()) throw InputError(file, entry_pointer, "expected an object, found " + describe(list[i]));
    for (const auto& item : list[i].items())
      if (is_money_key(item.key())) check_money_leaves(item.value(), pointer_join(entry_pointer, item.key()), file);
  }
}

}  // namespace

void check_report_figures(const Json& report, const std::string& file) {
  if (!report.is_object()) throw InputError(file, "", "expected a tcosim report (a JSON object), found " + describe(report));
  if (!report.contains("schema_version") || !report.at("schema_version").is_string())
    throw InputError(file, "/schema_version",
                     "expected a tcosim report, which names its schema_version (\"tcosim.report/1\"), found " +
                         (report.contains("schema_version") ? describe(report.at("schema_version")) : std::string("none")));
  if (!report.contains("plans") || !report.at("plans").is_array() || report.at("plans").empty())
    throw InputError(file, "/plans", "expected the report's plans (a non-empty array), found none");
  const Json& plans = report.at("plans");
  for (std::size_t i = 0; i < plans.size(); ++i)
    if (plans[i].is_object() && !plans[i].contains("npv_usd"))
      throw InputError(file, "/plans/" + std::to_string(i) + "/npv_usd", "expected a finite amount in USD, found none");
  for (const char* list : {"/plans", "/comparisons", "/monte_carlo/plans", "/monte_carlo/comparisons"})
    check_entries(report, list, file);
}

void check_report_inputs(const Json& report, const std::string& file) {
  const auto inputs = report.find("inputs");
  if (inputs == report.end() || !inputs->is_object())
    throw InputError(file, "/inputs",
                     "expected the inputs the report was computed from (an object, in every report tcosim run "
                     "writes), found " + (inputs == report.end() ? std::string("none") : describe_json(*inputs)));
  const auto plans = inputs->find("plans");
  const std::size_t expected = report.at("plans").size();
  if (plans == inputs->end() || !plans->is_array() || plans->size() != expected)
    throw InputError(file, "/inputs/plans",
                     fmt::format("expected the inputs of the report's {} plans (an array of {}), found {}", expected,
                                 expected,
                                 plans == inputs->end()  ? std::string("none")
                                 : plans->is_array() ? fmt::format("an array of {}", plans->size())
                                                     : describe_json(*plans)));
}

Json read_report_file(const std::string& path) {
  Json report = read_json_file(path);
  check_report_figures(report, path);
  return report;
}

}  // namespace tco

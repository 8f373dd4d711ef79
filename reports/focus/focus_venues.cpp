#include "reports/focus/focus_venues.hpp"

#include <cmath>
#include <cstddef>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco {

namespace {

// One venue of the category's price: its echoed offer and its figures.
struct VenueFigure {
  FocusVenueRow row;
  double billed_gpu_hours = 0.0, cost_usd = 0.0;
  std::vector<double> billed_by_month, cost_by_month;  // empty in a replay's report
};

std::vector<VenueFigure> venues_of_price(const FocusPlan& c, const std::string& price, int months,
                                         const std::string& file) {
  std::vector<VenueFigure> out;
  const Json& list = c.venues->at("list");
  if (!c.input_venues || c.input_venues->size() != list.size())
    throw InputError(file, c.input_venues_pointer, fmt::format("not one echoed venue per venue of {}/list", c.venues_pointer));
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Json& v = list[i];
    const Json& input = (*c.input_venues)[i];
    const std::string pointer = fmt::format("{}/list/{}", c.venues_pointer, i);
    if (v.at("name") != input.at("name"))
      throw InputError(file, pointer + "/name", "not the name of the echoed venue " + c.input_venues_pointer + "/" +
                                                    std::to_string(i));
    if (v.at("price").get<std::string>() != price) continue;
    VenueFigure f;
    const Json& offer = input.at("offer");
    f.row.name = v.at("name").get<std::string>();
    f.row.provider = offer.value("provider", c.provider);
    f.row.region = offer.value("region", "");
    f.row.offer_id = offer.at("provenance").at("id").get<std::string>();
    f.billed_gpu_hours = v.at("billed_gpu_hours").get<double>();
    f.cost_usd = v.at("cost_nominal_usd").get<double>();
    for (const char* key : {"billed_gpu_hours_by_month", "cost_usd_by_month"})
      if (v.contains(key) && static_cast<int>(v.at(key).size()) != months)
        throw InputError(file, pointer + "/" + key, "not one figure per month of plans[].monthly");
    if (v.contains("billed_gpu_hours_by_month") && v.contains("cost_usd_by_month")) {
      f.billed_by_month = v.at("billed_gpu_hours_by_month").get<std::vector<double>>();
      f.cost_by_month = v.at("cost_usd_by_month").get<std::vector<double>>();
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

bool focus_venue_rows(FocusPlanRows& rows, const FocusPlan& c, const FocusCategory& map,
                      const std::vector<double>& usd_by_month, bool one_time, const std::string& file) {
  const std::string category = map.category;
  if (!c.venues || (category != "cloud_on_demand" && category != "cloud_spot")) return false;
  const int months = static_cast<int>(usd_by_month.size());
  const std::string price = category == "cloud_spot" ? "spot" : "on_demand";
  std::vector<VenueFigure> venues = venues_of_price(c, price, months, file);
  if (venues.empty()) return false;
  bool monthly = true;
  double cost_usd = 0.0, total_usd = 0.0;
  for (const VenueFigure& v : venues) {
    monthly = monthly && !v.cost_by_month.empty();
    cost_usd += v.cost_usd;
  }
  for (double u : usd_by_month) total_usd += u;
  // A replay's venues that cost nothing over the horizon leave nothing to split by: the plan's row.
  if (!monthly && cost_usd == 0.0) return false;
  for (int m = 0; m < months; ++m) {
    if (usd_by_month[m] == 0.0) continue;  // as every category: a month of no dollars has no row
    std::vector<double> usd(venues.size()), gpu_hours(venues.size());
    double sum_usd = 0.0;
    std::size_t largest = 0;
    for (std::size_t i = 0; i < venues.size(); ++i) {
      const VenueFigure& v = venues[i];
      if (monthly) {
        usd[i] = v.cost_by_month[m];
        gpu_hours[i] = v.billed_by_month[m];
      } else {
        usd[i] = usd_by_month[m] * v.cost_usd / cost_usd;
        gpu_hours[i] = v.cost_usd != 0.0 ? v.billed_gpu_hours * usd[i] / v.cost_usd : 0.0;
      }
      sum_usd += usd[i];
      if (std::abs(usd[i]) > std::abs(usd[largest])) largest = i;
    }
    // The ledger's month, to the ulp; more than half a cent apart, the venues are not the category's.
    if (std::abs(usd_by_month[m] - sum_usd) > 0.005)
      throw InputError(file, c.venues_pointer + "/list",
                       fmt::format("the {} venues' month {} adds up to {:.2f}, not the {} of plans[].monthly: {:.2f}",
                                   price, m, sum_usd, map.category, usd_by_month[m]));
    usd[largest] += usd_by_month[m] - sum_usd;
    for (std::size_t i = 0; i < venues.size(); ++i) {
      if (usd[i] == 0.0 && gpu_hours[i] == 0.0) continue;
      FocusVenueRow row = venues[i].row;
      row.gpu_hours = gpu_hours[i];
      rows.plain(map, m, usd[i], total_usd, one_time, &row);
    }
  }
  return true;
}

}  // namespace tco

#include "models/commitment/savings_plan_venues.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"

namespace tco {

void check_savings_plan_venue(std::vector<Commitment>& commitments, const std::vector<CloudVenue>& venues,
                               const std::string& file, const std::string& commitments_pointer) {
  for (std::size_t k = 0; k < commitments.size(); ++k) {
    Commitment& c = commitments[k];
    if (c.kind != Commitment::Kind::savings_plan) continue;
    const std::string pointer = commitments_pointer + "/" + std::to_string(k);
    if (venues.empty()) {
      if (!c.venue.empty() || c.venues_written)
        throw InputError(file, pointer + (c.venues_written ? "/venues" : "/venue"),
                         fmt::format("no \"{}\" in a plan without \"venues\" (\"{}\" covers the plan's own "
                                     "offer): remove it, or give the plan its venue list",
                                     c.venues_written ? "venues" : "venue", c.name));
      continue;
    }
    std::vector<std::string> on_demand;
    for (const CloudVenue& v : venues)
      if (v.price == CloudVenue::PriceKind::on_demand) on_demand.push_back(v.name);
    if (!c.venues_written) c.venue_rates = {{c.venue, c.usd_per_instance_hour}};
    std::vector<double> discounts;
    for (std::size_t i = 0; i < c.venue_rates.size(); ++i) {
      const Commitment::VenueRate& rate = c.venue_rates[i];
      const std::string at = c.venues_written ? fmt::format("{}/venues/{}", pointer, i) : pointer;
      const auto venue =
          std::find_if(venues.begin(), venues.end(), [&](const CloudVenue& v) { return v.name == rate.venue; });
      if (venue == venues.end() || venue->price != CloudVenue::PriceKind::on_demand)
        throw InputError(file, at + (rate.venue.empty() ? "" : "/venue"),
                         fmt::format("the savings plan \"{}\" in a plan with venues names the on-demand venue whose "
                                     "usage it covers (\"venue\": one of {}), found {}",
                                     c.name, on_demand.empty() ? std::string("none: every venue is spot") : fmt::format("\"{}\"", fmt::join(on_demand, "\", \"")),
                                     rate.venue.empty() ? std::string("none") : "\"" + rate.venue + "\"" +
                                         (venue == venues.end() ? "" : " (a spot venue)")));
      if (rate.usd_per_instance_hour > venue->offer.on_demand_usd_per_hour)
        throw InputError(file, at + "/usd_per_instance_hour",
                         fmt::format("a savings-plan rate at or below the venue's on-demand {} USD/h (\"{}\", offer "
                                     "\"{}\"), found {}",
                                     venue->offer.on_demand_usd_per_hour, venue->name, venue->offer.provenance.id,
                                     rate.usd_per_instance_hour));
      discounts.push_back(1.0 - rate.usd_per_instance_hour / venue->offer.on_demand_usd_per_hour);
    }
    std::vector<std::size_t> order(c.venue_rates.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return discounts[a] > discounts[b]; });
    std::vector<Commitment::VenueRate> sorted;
    for (const std::size_t i : order) sorted.push_back(c.venue_rates[i]);
    c.venue_rates = std::move(sorted);
    c.venue = c.venue_rates.front().venue;
    c.usd_per_instance_hour = c.venue_rates.front().usd_per_instance_hour;
  }
}

}  // namespace tco

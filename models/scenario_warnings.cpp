#include "models/scenario_warnings.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "models/catalog/figure_age.hpp"
#include "models/price_path/implied_forward.hpp"

namespace tco {

namespace {

void warn(Scenario& s, std::string code, std::string where, std::string message) {
  s.warnings.push_back({Finding::Severity::warning, std::move(code), s.file, std::move(where), std::move(message)});
}

}  // namespace

void drop_unused_figures(Scenario& s) {
  auto block_used = [&s](const std::string& offer_id) {
    for (const Plan& plan : s.plans) {
      if (!plan.cloud || plan.cloud->offer.provenance.id != offer_id) continue;
      const auto& rate = plan.cloud->offer.capacity_block_usd_per_hour;
      for (const Commitment& c : plan.commitments)
        if (c.kind == Commitment::Kind::capacity_block && rate && c.usd_per_instance_hour == *rate) return true;
    }
    return false;
  };
  for (Provenance& p : s.records_used) {
    if (p.kind != "cloud_offer" || block_used(p.id)) continue;
    p.figures.erase(std::remove_if(p.figures.begin(), p.figures.end(),
                                   [](const FigureProvenance& f) { return f.field == "capacity_block_usd_per_hour"; }),
                    p.figures.end());
  }
}

// The oldest price of each record (its own date when it lists no figures; none for a record of
// specifications only, a gpu: a datasheet does not age).
void add_provenance_warnings(Scenario& s) {
  for (const auto& p : s.records_used) {
    const std::string oldest = oldest_figure_as_of({p});
    Date as_of;
    if (!parse_date(oldest, as_of)) continue;
    const long age_days = days_between(as_of, s.start);
    if (age_days > 365) {
      warn(s, "catalog-stale", p.kind + ":" + p.id,
           fmt::format("{} \"{}\" is dated {}, {} days before the scenario start: check the price is still current",
                       p.kind, p.id, oldest, age_days));
    }
  }
}

void add_plan_warnings(Scenario& s, const Plan& plan, const std::string& pointer) {
  if (plan.cloud) {
    const auto& o = plan.cloud->offer;
    if (o.spot_usd_per_hour && *o.spot_usd_per_hour > o.on_demand_usd_per_hour)
      warn(s, "spot-above-on-demand", pointer + "/cloud",
           fmt::format("the spot price {} is above the on-demand price {} USD/h", *o.spot_usd_per_hour,
                       o.on_demand_usd_per_hour));
    const int months = plan.reserved_term_months;
    const bool years = months == 12 || months == 36;
    const std::string term_pointer = pointer + (years ? "/reserved_term_years" : "/reserved_term_months");
    const std::string term = fmt::format("{}-{}", years ? months / 12 : months, years ? "year" : "month");
    if (plan.reserved_instances > 0 && months > s.horizon_months) {
      warn(s, "reserved-term-beyond-horizon", term_pointer,
           fmt::format("plan \"{}\": the {} commitment runs past the {}-month horizon; only the months inside "
                       "the horizon are counted",
                       plan.name, term, s.horizon_months));
    } else if (plan.reserved_instances > 0 && s.horizon_months % months != 0) {
      // Terms renew back to back from month 0: the last one starts inside the horizon and ends
      // past it, an obligation the report counts only to the horizon's end (docs/model.md §4).
      const int renewed_at_month = s.horizon_months / months * months;
      const int months_beyond = renewed_at_month + months - s.horizon_months;
      warn(s, "reserved-renewal-beyond-horizon", term_pointer,
           fmt::format("plan \"{}\": the {} commitment renews at month {} for a whole term, which ends {} months "
                       "after the {}-month horizon; only the months inside the horizon are counted, not the "
                       "renewal's last {} months of reserved payments",
                       plan.name, term, renewed_at_month, months_beyond, s.horizon_months, months_beyond));
    }
  }
}

void add_implied_forward_warnings(Scenario& s) {
  std::set<std::string> warned;
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    if (!s.plans[i].cloud) continue;
    const CloudOffer& o = s.plans[i].cloud->offer;
    if (!has_implied_forward(o.reserved_1y_usd_per_hour, o.reserved_3y_usd_per_hour)) continue;
    const double forward =
        implied_forward_usd_per_hour(*o.reserved_1y_usd_per_hour, *o.reserved_3y_usd_per_hour, s.discount_rate_per_year);
    if (forward > 0.0 || !warned.insert(o.provenance.id).second) continue;
    warn(s, "implied-forward-not-positive", "/plans/" + std::to_string(i) + "/cloud",
         fmt::format("offer \"{}\": its 3-year reserved price {} and 1-year price {} USD/h imply a forward price "
                     "of {:.4f} USD/h for years 2-3 at the {:.1f}% discount rate (docs/model.md §4 \"Implied "
                     "forward price\"): no seller prices a term below nothing, so one of the two figures is "
                     "likely wrong (a 3-year price per year of the term, or a per-GPU figure?)",
                     o.provenance.id, *o.reserved_3y_usd_per_hour, *o.reserved_1y_usd_per_hour, forward,
                     100.0 * s.discount_rate_per_year));
  }
}

}  // namespace tco

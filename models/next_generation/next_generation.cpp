#include "models/next_generation/next_generation.hpp"

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "models/finance/procurement.hpp"
#include "models/input_limits.hpp"

namespace tco {

namespace {

ArrivalDraw arrival_draw_of(const UncertainDistribution& d) {
  ArrivalDraw a;
  a.drawn = 1;
  a.lognormal = d.type == UncertainDistribution::Type::lognormal ? 1 : 0;
  a.low_months = d.low;
  a.mode_months = d.mode;
  a.high_months = d.high;
  a.median_months = d.median;
  a.sigma = d.sigma;
  return a;
}

}  // namespace

NextGenerationSpec parse_next_generation(JsonObjectReader& r) {
  NextGenerationSpec s;
  s.predecessor_gpu = r.string("predecessor_gpu");
  Json arrival_as_written;
  if (r.has("arrival_month") && r.value("arrival_month").is_object()) {
    JsonObjectReader ar = r.object("arrival_month");
    s.arrival_draw = arrival_draw_of(parse_months_distribution(ar));
    s.arrival_month = planned_arrival_month(s.arrival_draw);
    arrival_as_written = r.value("arrival_month");
  } else {
    s.arrival_month = static_cast<int>(r.integer("arrival_month", 0, limits::kMaxArrivalMonth));
    arrival_as_written = s.arrival_month;
  }
  s.rental_price_step_factor = r.number_or("rental_price_step_factor", 1.0, limits::kGenerationStepFactor);
  s.resale_step_factor = r.number_or("resale_step_factor", 1.0, limits::kGenerationStepFactor);
  if (r.has("successor_server")) s.successor_server_ref = r.value("successor_server");
  r.allow("successor_server");
  const std::string source = r.string_or("source", "");
  const std::string as_of = r.string_or("as_of", "");
  r.finish();
  s.as_written = {{"predecessor_gpu", s.predecessor_gpu},
                  {"arrival_month", arrival_as_written},
                  {"rental_price_step_factor", s.rental_price_step_factor},
                  {"resale_step_factor", s.resale_step_factor}};
  if (!s.successor_server_ref.is_null()) s.as_written["successor_server"] = s.successor_server_ref;
  // Provenance of the figures, echoed only when given (an estimate says ESTIMATE and why).
  if (!source.empty()) s.as_written["source"] = source;
  if (!as_of.empty()) s.as_written["as_of"] = as_of;
  return s;
}

void apply_next_generation(const NextGenerationSpec& spec, const std::string& file, std::vector<Plan>& plans) {
  const long from_hour = static_cast<long>(spec.arrival_month) * kHoursPerMonth;
  bool matched = false;
  for (Plan& p : plans) {
    if (p.cloud && p.cloud->offer.gpu_model == spec.predecessor_gpu) {
      p.cloud->generation_step = {from_hour, spec.rental_price_step_factor};
      matched = true;
    }
    if (p.onprem && p.onprem->server.gpu_model == spec.predecessor_gpu) {
      p.onprem->resale_step = {from_hour, spec.resale_step_factor};
      matched = true;
    }
  }
  if (!matched)
    throw InputError(file, "/next_generation/predecessor_gpu",
                     "expected the gpu_model id of a cloud offer or server that a plan uses, found \"" +
                         spec.predecessor_gpu + "\"");
}

bool stepped_by_next_generation(const Plan& plan) {
  return (plan.cloud && plan.cloud->generation_step.from_hour >= 0) ||
         (plan.onprem && plan.onprem->resale_step.from_hour >= 0);
}

void move_next_generation(Plan& plan, int arrival_month) {
  const long from_hour = static_cast<long>(arrival_month) * kHoursPerMonth;
  if (plan.refresh) plan.refresh->month = plan.refresh->month_for(arrival_month, plan.onprem->planned_delivery_month());
  if (plan.cloud && plan.cloud->generation_step.from_hour >= 0) plan.cloud->generation_step.from_hour = from_hour;
  if (plan.onprem && plan.onprem->resale_step.from_hour >= 0) plan.onprem->resale_step.from_hour = from_hour;
}

Scenario with_arrival_month(const Scenario& scenario, int arrival_month) {
  Scenario s = scenario;
  if (s.next_generation) s.next_generation->arrival_month = arrival_month;
  for (Plan& p : s.plans) move_next_generation(p, arrival_month);
  return s;
}

}  // namespace tco

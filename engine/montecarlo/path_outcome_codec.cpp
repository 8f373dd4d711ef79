#include "engine/montecarlo/path_outcome_codec.hpp"

#include <stdexcept>

#include "core/parallel/byte_codec.hpp"

namespace tco {

namespace {

template <class T>
void put(std::string& bytes, const T& value) {
  put_value(bytes, value);
}

template <class T>
void get(std::string_view bytes, std::size_t& offset, T& value) {
  get_value(bytes, offset, value, "a path outcome");
}

}  // namespace

void append_path_outcome(std::string& bytes, const des::PathOutcome& o) {
  put(bytes, static_cast<std::uint64_t>(o.cost_by_month.size()));
  put(bytes, static_cast<std::uint64_t>(o.peak_facility_kw_by_month.size()));
  for (const des::CostRow& row : o.cost_by_month) put(bytes, row);
  for (double kw : o.peak_facility_kw_by_month) put(bytes, kw);
  put(bytes, o.gpu_hours);
  put(bytes, o.it_energy_kwh);
  put(bytes, o.facility_energy_kwh);
  put(bytes, o.onprem_co2_kg);
  put(bytes, o.throttled_hours);
  put(bytes, o.jobs);
  put(bytes, o.events);
  put_vector(bytes, o.commitment_used_gpu_hours);
  put_vector(bytes, o.commitment_used_usd);
  put_vector(bytes, o.venue_totals);
}

des::PathOutcome read_path_outcome(std::string_view bytes, std::size_t& offset) {
  des::PathOutcome o;
  std::uint64_t months = 0, peak_months = 0;
  get(bytes, offset, months);
  get(bytes, offset, peak_months);
  if (months > bytes.size() || peak_months > bytes.size()) throw std::runtime_error("a gathered path outcome is corrupt");
  o.cost_by_month.resize(months);
  o.peak_facility_kw_by_month.resize(peak_months);
  for (des::CostRow& row : o.cost_by_month) get(bytes, offset, row);
  for (double& kw : o.peak_facility_kw_by_month) get(bytes, offset, kw);
  get(bytes, offset, o.gpu_hours);
  get(bytes, offset, o.it_energy_kwh);
  get(bytes, offset, o.facility_energy_kwh);
  get(bytes, offset, o.onprem_co2_kg);
  get(bytes, offset, o.throttled_hours);
  get(bytes, offset, o.jobs);
  get(bytes, offset, o.events);
  o.commitment_used_gpu_hours = get_vector<double>(bytes, offset, "a path outcome");
  o.commitment_used_usd = get_vector<double>(bytes, offset, "a path outcome");
  o.venue_totals = get_vector<VenueTotals>(bytes, offset, "a path outcome");
  return o;
}

}  // namespace tco

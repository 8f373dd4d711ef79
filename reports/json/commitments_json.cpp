#include "reports/json/commitments_json.hpp"

namespace tco {

Json commitments_json(const std::vector<CommitmentFigures>& figures) {
  Json out = Json::array();
  for (const CommitmentFigures& f : figures) {
    auto gpu_hours = [&](double x) { return f.gpu_hours_apply ? Json(x) : Json(nullptr); };
    out.push_back({{"name", f.name},
                   {"kind", to_string(f.kind)},
                   {"committed_usd", f.committed_usd},
                   {"used_usd", f.used_usd},
                   {"unused_usd", f.unused_usd},
                   {"committed_gpu_hours", gpu_hours(f.committed_gpu_hours)},
                   {"used_gpu_hours", gpu_hours(f.used_gpu_hours)},
                   {"unused_gpu_hours", gpu_hours(f.unused_gpu_hours)},
                   {"cost_nominal_usd", f.cost_nominal_usd},
                   {"cost_npv_usd", f.cost_npv_usd}});
    // Month by month where the hourly model followed the instrument (the FOCUS export's quantities).
    if (!f.committed_gpu_hours_by_month.empty()) {
      out.back()["committed_gpu_hours_by_month"] = f.committed_gpu_hours_by_month;
      out.back()["used_gpu_hours_by_month"] = f.used_gpu_hours_by_month;
    }
    if (f.kind == Commitment::Kind::savings_plan && !f.used_usd_by_month.empty())
      out.back()["used_usd_by_month"] = f.used_usd_by_month;
  }
  return out;
}

}  // namespace tco

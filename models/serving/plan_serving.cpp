#include "models/serving/plan_serving.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "models/scenario.hpp"

namespace tco {

std::shared_ptr<const TokenDemand> apply_plan_serving_profile(Plan& plan, const Json& plan_json,
                                                              const TokenDemand* scenario_tokens,
                                                              const Catalog& catalog, const std::string& file,
                                                              const std::string& pointer) {
  if (!plan_json.is_object() || !plan_json.contains("serving_profile")) return nullptr;
  const std::string at = pointer_join(pointer, "serving_profile");
  if (!scenario_tokens)
    throw InputError(file, at, "expected a serving profile only in a scenario whose workload has tokens");
  if (!plan.venues.empty() || plan.refresh)
    throw InputError(file, at,
                     fmt::format("plan \"{}\": a plan's own serving profile is not read with {} yet (docs/tokens.md)",
                                 plan.name, plan.venues.empty() ? "a refresh" : "venues"));
  auto own = std::make_shared<TokenDemand>(*scenario_tokens);
  resolve_serving_profile(*own, plan_json.at("serving_profile"), catalog, file, at, at);
  const ReplicaCapacity& s = scenario_tokens->capacity;
  const double perf = own->capacity.tokens_per_s_per_gpu / s.tokens_per_s_per_gpu * scenario_tokens->gpu_perf_relative;
  bool serves = false;
  if (plan.onprem && plan.onprem->server.gpu_model == own->profile.gpu_model) {
    plan.onprem->gpu.perf_relative = perf;
    if (plan.resolved["onprem"].contains("gpu")) plan.resolved["onprem"]["gpu"]["perf_relative"] = perf;
    serves = true;
  }
  if (plan.cloud && plan.cloud->offer.gpu_model == own->profile.gpu_model) {
    plan.cloud->gpu.perf_relative = perf;
    if (plan.resolved["cloud"].contains("gpu")) plan.resolved["cloud"]["gpu"]["perf_relative"] = perf;
    serves = true;
  }
  if (!serves)
    throw InputError(file, at,
                     fmt::format("plan \"{}\": the serving profile runs on \"{}\", which the plan neither owns ({}) "
                                 "nor rents ({})",
                                 plan.name, own->profile.gpu_model,
                                 plan.onprem ? "\"" + plan.onprem->server.gpu_model + "\"" : "no server",
                                 plan.cloud ? "\"" + plan.cloud->offer.gpu_model + "\"" : "no offer"));
  plan.resolved["serving_profile"] = own->serving_profile_id;
  return own;
}

}  // namespace tco

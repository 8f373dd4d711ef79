#include "models/onprem/refresh_reader.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "models/input_limits.hpp"

namespace tco {

PlanRefresh parse_refresh(JsonObjectReader& r, const std::string& plan_name, int onprem_nodes,
                          const OnPremSpec* onprem) {
  JsonObjectReader fr = r.object("refresh");
  PlanRefresh f;
  f.months_after_arrival = static_cast<int>(fr.integer("months_after_arrival", 0, limits::kMaxArrivalMonth));
  if (fr.has("nodes")) f.nodes_as_written = static_cast<int>(fr.integer("nodes", 1, limits::kMaxNodes));
  fr.finish();
  f.nodes = f.nodes_as_written.value_or(onprem_nodes);
  auto refuse = [&](const std::string& why) {
    throw InputError(r.file(), r.pointer_of("refresh"), fmt::format("plan \"{}\" refreshes its fleet: {}", plan_name, why));
  };
  if (!onprem || onprem_nodes < 1) refuse("it needs owned nodes (onprem_nodes >= 1) to sell");
  const OnPremSpec& o = *onprem;
  if (o.financing.kind == Financing::Kind::lease)
    refuse("a leased fleet is handed back, not sold: finance it with cash or a loan, or remove \"refresh\"");
  if (o.procurement) refuse("not modelled with onprem.procurement yet: give a purchase_month, or remove \"refresh\"");
  if (o.spares) refuse("not modelled with onprem.spares yet: remove the spares or \"refresh\"");
  if (o.failures.afr_per_year > 0.0)
    refuse("not modelled with node failures yet (the Monte Carlo's failure draws follow one fleet): set "
           "onprem.failures.afr_per_year to 0, or remove \"refresh\"");
  if (o.resale_follows_cloud_price)
    refuse("not modelled with residual.follows_cloud_price yet (the successor rents at no price the engine "
           "knows): remove one of the two");
  if (o.book_method != BookMethod::straight_line || o.tax_depreciation)
    refuse("not modelled with the depreciation views yet (their yearly tables follow one fleet): use the "
           "straight line without onprem.depreciation.tax, or remove \"refresh\"");
  return f;
}

void resolve_successor(NextGenerationSpec& g, JsonObjectReader& r, RecordResolver& resolver) {
  const std::string pointer = r.pointer_of("successor_server");
  g.successor_server = resolver.resolve<ServerModel>("server", r.value("successor_server"), pointer, parse_server);
  g.successor_gpu = resolve_gpu(resolver, r, g.successor_server->gpu_model, pointer);
}

}  // namespace tco

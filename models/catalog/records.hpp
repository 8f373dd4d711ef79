// Catalog records: the priced things a scenario refers to by id (SPEC §11). Every record
// carries its provenance (`source`, `as_of`). A scenario may name a record by id, or give an
// object with an optional "id" plus any fields, which override the catalog record's fields
// (models/catalog/catalog.hpp resolves that); the merged object is parsed here, strictly.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"
#include "models/catalog/hidden_costs.hpp"

namespace tco {

// One numeric field of a record with its own date and source: its "field_provenance" entry,
// each part falling back to the record's own `as_of` / `source` (models/catalog/field_provenance.hpp).
struct FigureProvenance {
  std::string field;   // "on_demand_usd_per_hour"
  std::string source;
  std::string as_of;
  bool own_as_of = false;   // dated by its own entry (or capacity_block_as_of), not the record's
  bool own_source = false;
};

// Where a record's figures come from. `as_of` is "YYYY-MM-DD"; `source` a URL or a citation.
struct Provenance {
  std::string kind;    // catalog kind, e.g. "cloud_offer"
  std::string id;      // catalog id, or "" for a record written inline in a scenario
  std::string source;
  std::string as_of;
  // Every numeric field the record carries, in the kind's field order, each with its resolved date.
  std::vector<FigureProvenance> figures;
};

// Spot preemptions above this rate (one every 6 minutes per instance) are refused: no published
// market comes near it, and a job that can never reach a checkpoint would replay for ever.
inline constexpr double kMaxPreemptionsPerInstanceHour = 10.0;

// A cloud instance type in one region. Prices are per instance-hour (all its GPUs).
struct CloudOffer {
  std::string provider;       // "aws", "gcp", "azure", "lambda", ...
  std::string instance_type;  // "p5.48xlarge"
  std::string region;         // "us-east-1"
  std::string gpu_model;      // id of a GpuModel record: "h100-sxm-80gb"
  int gpus_per_instance = 8;
  double on_demand_usd_per_hour = 0.0;
  std::optional<double> spot_usd_per_hour;         // absent: no spot market
  std::optional<double> reserved_1y_usd_per_hour;  // effective hourly price of a 1-year commitment
  std::optional<double> reserved_3y_usd_per_hour;
  // Reserved prices of other terms, by term in whole months (1 to 60, not 12 or 36: those are the
  // two fields above), per instance-hour; e.g. {6: 30.4, 24: 25.1} from a published term structure
  // (`pricing import --format term-structure --offer`). Empty: the offer reserves 1 and 3 years only.
  std::map<int, double> reserved_usd_per_hour_by_term_months;
  // EC2 Capacity Blocks for ML (models/commitment/commitment.hpp): the prepaid price per
  // instance-hour of a dated block, and the date of that rate (it changes apart from on-demand).
  std::optional<double> capacity_block_usd_per_hour;
  std::string capacity_block_as_of;  // "YYYY-MM-DD", present with the price
  double billing_granularity_s = 1.0;
  double minimum_billed_s = 60.0;
  double startup_h = 0.0;                               // provisioning delay, billed
  std::optional<double> spot_notice_s;                  // e.g. 120 (AWS), 30 (GCP, Azure)
  std::optional<double> spot_preemptions_per_instance_hour;
  double egress_usd_per_gb = 0.0;
  std::optional<double> pue;             // the provider's data-centre PUE, for CO2
  std::optional<double> g_co2_per_kwh;   // the region's grid, for CO2
  HiddenCosts hidden_costs;              // storage, network, CPU VMs, support, setup, debugging, goodput
  Provenance provenance;

  // The reserved price per instance-hour of a term of `months` (12 and 36: the 1- and 3-year
  // fields), or nullopt when the offer does not price that term.
  std::optional<double> reserved_usd_per_hour(int months) const;
};

// An on-prem server (a node). Price excludes network, storage and installation.
struct ServerModel {
  std::string gpu_model;  // id of a GpuModel record
  int gpus = 8;
  double price_usd = 0.0;
  double idle_kw = 0.0;
  double peak_kw = 0.0;
  Provenance provenance;
};

struct GpuModel {
  std::string name;             // "NVIDIA H100 SXM5 80GB"
  double perf_relative = 1.0;   // throughput relative to the reference GPU (H100 SXM = 1)
  double memory_gb = 0.0;
  double tdp_w = 0.0;
  Provenance provenance;
};

// Electricity and grid carbon for a region.
struct PowerRegion {
  std::string name;
  double usd_per_kwh = 0.0;
  double g_co2_per_kwh = 0.0;
  Provenance provenance;
};

// A cooling type: how PUE behaves and how much heat a rack may hold.
//   constant: PUE = pue
//   ambient:  PUE(T) = pue_min + pue_slope_per_c x max(0, T - free_cooling_c)
struct CoolingType {
  std::string type = "air";          // "air" or "liquid"
  std::string pue_model = "constant";  // "constant" or "ambient"
  double pue = 1.4;
  double pue_min = 1.2;
  double pue_slope_per_c = 0.0;
  double free_cooling_c = 18.0;
  double rack_limit_kw = 17.0;
  std::optional<double> max_cfm_per_rack;  // airflow the room can deliver to one rack
  double delta_t_f = 20.0;                 // air temperature rise across the rack, °F
  Provenance provenance;
};

struct Colocation {
  std::string name;
  double usd_per_kw_month = 0.0;    // on provisioned IT kW (nodes x peak_kw)
  double usd_per_rack_month = 0.0;
  Provenance provenance;
};

// Strict parsers of a merged record object (catalog fields plus scenario overrides).
// `source` and `as_of` are required (an inline record in a scenario says where its figures
// come from, e.g. "source": "vendor quote 2026-10"). `kind` and `id` fill the provenance.
CloudOffer parse_cloud_offer(JsonObjectReader& r, const std::string& id);
ServerModel parse_server(JsonObjectReader& r, const std::string& id);
GpuModel parse_gpu(JsonObjectReader& r, const std::string& id);
PowerRegion parse_power_region(JsonObjectReader& r, const std::string& id);
CoolingType parse_cooling(JsonObjectReader& r, const std::string& id);
Colocation parse_colocation(JsonObjectReader& r, const std::string& id);

// Reads `source` and `as_of` (a date that must parse) into a Provenance (figures left empty).
Provenance parse_provenance(JsonObjectReader& r, const std::string& kind, const std::string& id);

}  // namespace tco

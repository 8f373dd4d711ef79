// `tcosim pricing import --format skypilot`: SkyPilot's public v7 catalog CSVs (vms.csv per
// cloud) into one catalog file of cloud_offer records, one per (provider, instance type, region):
//   on_demand_usd_per_hour = the region's price (the zones' minimum, with a note if they differ)
//   spot_usd_per_hour      = the cheapest zone's spot price (what a launcher that picks the
//                            cheapest zone with capacity pays; the zone spread is not modelled)
//   GCP is additive: a VM = host row (InstanceType, no accelerator) + accelerator row (no
//   InstanceType) of the same zone; prices and spot prices add (e.g. a3-highgpu-1g in
//   us-central1-a: host 1.18251 + H100 x1 4.20076 = 5.38327 $/h). Only pairs present in the
//   inputs become records; rows left unpaired are counted in a note.
// The provider is the file name's prefix before "_" ("aws_vms_v7_p-family.csv") or, for an
// upstream "vms.csv", its folder ("catalogs/v7/gcp/vms.csv"). The CSVs carry no date, so as_of
// is the caller's. The quirks the real files hold come back as warning Findings: spot above
// on-demand, regions with no spot price, zones that disagree on on-demand, a >= 2x on-demand
// spread of one instance type across regions, rows without on-demand price, unknown GPU names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/io/json_reader.hpp"
#include "models/finding.hpp"

namespace tco {

struct SkypilotImportOptions {
  std::string as_of;        // YYYY-MM-DD, required (the CSVs carry no date)
  std::string source_note;  // appended to each record's source, e.g. "commit 001367d2"
};

struct SkypilotImport {
  Json catalog;                // {"kind": "cloud_offer", "records": [...]}, records in (provider, instance type, region) order
  std::vector<Finding> notes;  // the quirks found, all warnings
  long rows_read = 0;
  long zero_price_rows = 0;    // rows with a $0 price: that price left out (never written)
  long nan_rows = 0;           // rows with a NaN price or GPU count: dropped
};

// Throws InputError for a malformed file (naming the file and "line N, column C") or a bad
// as_of.
SkypilotImport import_skypilot(const std::vector<std::string>& paths, const SkypilotImportOptions& options);

// The catalog gpu id for a SkyPilot accelerator name ("H100" -> "h100-sxm-80gb"); an unknown
// name maps to its lowercase form and `known` (when given) is set false.
std::string skypilot_gpu_id(std::string_view provider, std::string_view instance_type,
                            std::string_view accelerator, bool* known = nullptr);

namespace skypilot {

struct CsvField {
  std::string text;
  int column = 1;  // 1-based character column where the field starts
};

// Splits one CSV line (RFC 4180 quoting: "a,b" is one field, "" inside quotes is a quote).
// Throws InputError(file, "line N, column C") on an unterminated or misplaced quote.
std::vector<CsvField> split_csv_line(std::string_view line, const std::string& file, long line_number);

}  // namespace skypilot

}  // namespace tco

// `tcosim validate` for pricing catalogs (SPEC §11): the strict parse of every record plus the
// checks a parser cannot make alone, each a Finding with a stable code:
//   error   invalid-file          not a catalog file (bad JSON, unknown kind, record without id)
//   error   invalid-record        a record fails its strict parser (pointer inside the file)
//   error   missing-provenance    no "source" or no "as_of" (checked before the strict parse)
//   error   duplicate-id          an id used twice within a kind (also across files)
//   error   zero-price            a price of exactly 0 (legal in an override, a slip in a catalog)
//   error   as-of-in-future       as_of after --today (the record's, or a figure's own: field_provenance,
//                                 capacity_block_as_of; models/catalog/field_provenance.hpp)
//   warning as-of-stale           a price's date more than max_age_days before --today (the same
//                                 dates; a specification such as tdp_w or peak_kw does not age:
//                                 is_price_field)
//   warning spot-above-on-demand  spot > on-demand
//   warning unit-slip-monthly     a price above $100 per GPU-hour: a monthly price typed as hourly
//                                 (the 730x slip; the dearest real GPU-hour is ~$15)
//   warning unit-slip-per-gpu     spot or reserved price per instance below 5% of on-demand (no
//                                 real discount is that deep: a per-GPU figure?) or above
//                                 on-demand x GPUs (a per-GPU on-demand, or a double multiply);
//                                 only for instances of 2+ GPUs, where the confusion can happen
//   error   gpu-count-mismatch    gpus_per_instance disagrees with the known instance type
//   warning id-format             a cloud offer's id is not provider/instance_type/region
//   error   unknown-gpu-model     an offer or server names a gpu id the catalog lacks
//   warning airflow-above-limit   a cooling record's rack limit needs more air than max_cfm_per_rack
//   warning sku-disappeared       with --against: an id of the old catalog missing from this one
// Example: spot 19.66 and on-demand 98.32 for 8 GPUs: 19.66 / 98.32 = 20% of on-demand, fine;
// spot 2.46 (per GPU) is 2.5% of on-demand: unit-slip-per-gpu.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "models/finding.hpp"

namespace tco {

struct CatalogSource;  // catalog_source.hpp

struct ValidationOptions {
  std::string today = "";    // YYYY-MM-DD, for the future/age checks; empty = skip them
  int max_age_days = 365;
  std::string against_dir;   // the previous catalog version, optional
};

// Validates every *.json in `dir` as one catalog. Throws InputError only for unusable options
// (a malformed --today, a missing folder); everything about the catalog is a Finding.
std::vector<Finding> validate_catalog_dir(const std::string& dir, const ValidationOptions& options = {});

// The same for an explicit list of catalog files taken as one catalog.
std::vector<Finding> validate_catalog_files(const std::vector<std::string>& paths,
                                            const ValidationOptions& options = {});

// Checks a catalog folder as a whole as `tcosim validate DIR` does (less the --today clock
// checks): the first error finding is thrown as an InputError naming the catalog file and the
// record's pointer. Warnings are not errors here either. Every scenario load calls it.
void require_valid_catalog(const std::string& dir);
// The same of a folder already read (catalog_source.hpp).
void require_valid_catalog(const CatalogSource& source);

// GPUs per instance of instance types whose count is known (a table of common GPU instances
// plus the naming rules of GCP a2/a3/a4 "-Ng", Lambda "gpu_Nx_" and RunPod "Nx_"); nullopt
// when unknown.
std::optional<int> known_gpus_per_instance(std::string_view provider, std::string_view instance_type);

// "error: FILE: POINTER: MESSAGE [code]" (the pointer part left out when empty), as
// `tcosim validate` and `tcosim pricing import` print findings.
std::string format_finding(const Finding& finding);

// The message of an InputError without its "file: where: " prefix (a Finding carries those).
std::string bare_error_message(const InputError& error);

}  // namespace tco

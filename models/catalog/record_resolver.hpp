// Resolves a scenario's catalog references (an id, an inline record, or an id with overrides)
// into records, and records each record's provenance once (the report's records_used).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/io/json_reader.hpp"
#include "models/catalog/catalog.hpp"
#include "models/catalog/records.hpp"

namespace tco {

class RecordResolver {
 public:
  RecordResolver(const Catalog& catalog, std::string file) : catalog_(catalog), file_(std::move(file)) {}

  template <typename Record, typename Parse>
  Record resolve(std::string_view kind, const Json& ref, const std::string& pointer, Parse parse) {
    ResolvedRecord resolved = resolve_reference(catalog_, kind, ref, file_, pointer);
    require_finite_numbers(resolved.merged, file_, pointer);
    // Messages point into the scenario for inline and overridden fields, and into the catalog
    // file for a catalog record's own fields (with the scenario's pointer in the message).
    JsonObjectReader r(resolved.merged, file_, pointer);
    Record record = [&] {
      try {
        return parse(r, resolved.id);
      } catch (const InputError& e) {
        throw blame_catalog_record(e, kind, resolved.id, pointer);
      }
    }();
    used_[std::string(kind) + "\x1f" + record.provenance.id + "\x1f" + record.provenance.source] =
        record.provenance;
    return record;
  }

  // A record written in the scenario outside the catalog's kinds (the API's prices): listed in
  // records_used and checked for staleness as the catalog's records are.
  void note_inline(const Provenance& provenance) {
    used_[provenance.kind + "\x1f" + provenance.id + "\x1f" + provenance.source] = provenance;
  }

  const Catalog& catalog() const { return catalog_; }
  std::vector<Provenance> used() const;

 private:
  // A catalog record that is invalid on its own is the catalog's mistake: the error names the
  // catalog file and /records/N/field, and the scenario pointer that uses the record. Otherwise
  // the scenario's overrides made it invalid, and the error stays the scenario's.
  InputError blame_catalog_record(const InputError& e, std::string_view kind, const std::string& id,
                                  const std::string& pointer) const;

  const Catalog& catalog_;
  std::string file_;
  std::map<std::string, Provenance> used_;
};

// The GPU record of a server or an offer: an explicit "gpu" reference, else the catalog's
// record for the named model.
GpuModel resolve_gpu(RecordResolver& resolver, JsonObjectReader& r, const std::string& gpu_model_id,
                     const std::string& owner_pointer);

}  // namespace tco

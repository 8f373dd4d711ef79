// The pricing catalog (SPEC §11): a folder of JSON files, one kind of record per file,
//   {"$schema": "...", "kind": "cloud_offer", "records": [{"id": "aws/p5.48xlarge/us-east-1", ...}]}
// read in file-name order. A scenario refers to a record by id, or by an object that names an
// id and overrides some of its fields (a shallow merge: a top-level key replaces the catalog's
// value, null removes it), or by an object without id (an inline record, which must then say
// its own source and as_of). The digest is sha256 over (file name, NUL, bytes) of every file
// in order, so a report can say which catalog priced it.
// Example: {"id": "aws/p5.48xlarge/us-east-1", "spot_usd_per_hour": 25} is the AWS record with
// its spot price replaced by $25/h.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

// The record kinds, in the order the README documents them.
const std::vector<std::string>& catalog_kinds();

struct CatalogRecord {
  std::string kind;     // "cloud_offer", "server", "gpu", "power_region", "cooling", "colocation"
  std::string id;
  std::string file;     // path of the catalog file
  std::string pointer;  // "/records/3"
  Json fields;          // the record as written, "id" included
};

// One catalog file as read, duplicates and all (validation reports them; Catalog keeps the
// first). Throws InputError when the file is not a catalog file: not JSON, no known "kind"
// (at /kind), "records" not an array of objects each with a string "id".
struct CatalogFile {
  std::string path;
  std::string kind;
  std::vector<CatalogRecord> records;
};
CatalogFile read_catalog_file(const std::string& path);

// The *.json files directly in `dir`, sorted by file name. Throws InputError when `dir` is not
// a readable folder.
std::vector<std::string> catalog_file_paths(const std::string& dir);

struct CatalogSource;  // catalog_source.hpp

class Catalog {
 public:
  // Reads every *.json in `dir` (sorted by name, not recursive).
  static Catalog load(const std::string& dir);
  // The same catalog without copying it: the one the cache holds (catalog_source.hpp), shared.
  // A scenario load only reads the catalog, and a copy of its records' JSON was a tenth of a
  // small run's load (docs/performance.md, "Python module").
  static std::shared_ptr<const Catalog> load_shared(const std::string& dir);
  // The same of a folder already read (a scenario load reads its catalog once, then loads and
  // checks the same bytes: require_valid_catalog(source)).
  static std::shared_ptr<const Catalog> load_shared(const CatalogSource& source);

  const CatalogRecord* find(std::string_view kind, std::string_view id) const;
  const std::vector<CatalogRecord>& records() const { return records_; }
  // The ids of one kind, in catalog order.
  std::vector<std::string> ids(std::string_view kind) const;
  std::string digest_sha256() const { return digest_; }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::string digest_;
  std::vector<CatalogRecord> records_;
  std::map<std::string, std::size_t, std::less<>> index_;  // kind + '\n' + id -> records_ index
};

struct ResolvedRecord {
  Json merged;     // the catalog fields with the overrides applied ("id" included when named)
  std::string id;  // "" for an inline record
};

// Resolves a scenario's reference (a string id or an object, see above). `file` and `pointer`
// say where the reference is, for errors: an unknown id is an InputError listing the closest
// known ids of that kind.
ResolvedRecord resolve_reference(const Catalog& catalog, std::string_view kind, const Json& ref,
                                 const std::string& file, const std::string& pointer);

// Parses a record of `kind` with its strict parser (models/catalog/records.hpp), only to check it;
// throws InputError with the pointer inside `pointer`.
void check_record(std::string_view kind, const Json& fields, const std::string& file,
                  const std::string& pointer, const std::string& id);

}  // namespace tco

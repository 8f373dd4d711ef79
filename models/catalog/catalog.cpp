#include "models/catalog/catalog.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/input_snapshot.hpp"
#include "core/io/json_file_bytes.hpp"
#include "core/io/sha256.hpp"
#include "core/io/utf8_text.hpp"
#include "models/catalog/catalog_source.hpp"
#include "models/catalog/records.hpp"
#include "models/serving/serving_profile.hpp"

namespace tco {

namespace fs = std::filesystem;

const std::vector<std::string>& catalog_kinds() {
  static const std::vector<std::string> kinds = {"cloud_offer", "server",     "gpu",
                                                 "power_region", "cooling", "colocation",
                                                 "serving_profile"};
  return kinds;
}

std::vector<std::string> catalog_file_paths(const std::string& dir) {
  const std::optional<std::vector<std::string>> files = list_input_folder(dir);
  if (!files) throw InputError(dir, "", "expected a catalog folder, found no such folder");
  std::vector<std::string> paths;
  for (const std::string& file : *files)
    if (fs::path(file).extension() == ".json") paths.push_back(file);
  std::sort(paths.begin(), paths.end(), [](const std::string& a, const std::string& b) {
    return fs::path(a).filename().string() < fs::path(b).filename().string();
  });
  return paths;
}

CatalogFile read_catalog_file(const std::string& path) {
  return parse_catalog_file(path, read_input_file(path, JsonLimits{}.max_file_bytes));
}

CatalogSource read_catalog_source(const std::string& dir) {
  CatalogSource source;
  source.dir = dir;
  source.paths = catalog_file_paths(dir);
  for (const std::string& path : source.paths) source.bytes.push_back(read_input_file(path));
  return source;
}

CatalogFile parse_catalog_file(const std::string& path, const std::optional<std::string>& bytes) {
  const Json document = parse_json_file_bytes(path, bytes);
  require_printable_text(document, path, "");  // ids and names reach reports and CSV cells
  JsonObjectReader r(document, path, "");
  r.allow("$schema");
  CatalogFile file;
  file.path = path;
  file.kind = r.choice("kind", catalog_kinds());
  const Json& records = r.value("records");
  if (!records.is_array()) r.fail("records", "an array of records", &records);
  // An empty list is a file cut or emptied by mistake (a scenario would then miss its records
  // with a message about the scenario, not this file): a kind with no records has no file.
  if (records.empty())
    throw InputError(path, "/records",
                     fmt::format("expected at least one {} record, found an empty array (remove the file if the "
                                 "catalog has none of this kind)",
                                 file.kind));
  r.finish();
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::string pointer = "/records/" + std::to_string(i);
    const Json& record = records[i];
    if (!record.is_object() || record.empty())
      throw InputError(path, pointer,
                       "expected a record object with its id and fields, found " +
                           (record.is_object() ? std::string("an empty object") : describe_json(record)));
    auto id = record.find("id");
    if (id == record.end() || !id->is_string() || id->get<std::string>().empty()) {
      throw InputError(path, pointer + "/id",
                       "expected a non-empty string id, found " +
                           (id == record.end() ? std::string("nothing") : describe_json(*id)));
    }
    file.records.push_back({file.kind, id->get<std::string>(), path, pointer, record});
  }
  return file;
}

static std::string index_key(std::string_view kind, std::string_view id) {
  std::string key(kind);
  key += '\n';
  key += id;
  return key;
}

namespace {
std::atomic<long> g_catalog_hits{0};
std::atomic<long> g_catalog_misses{0};
}  // namespace

CatalogSourceCache<Catalog>& loaded_catalog_cache() {
  static CatalogSourceCache<Catalog> cache;
  return cache;
}

CatalogSourceCache<std::optional<Finding>>& catalog_check_cache() {
  static CatalogSourceCache<std::optional<Finding>> cache;
  return cache;
}

CatalogCacheStats catalog_cache_stats() { return {g_catalog_hits.load(), g_catalog_misses.load()}; }

void clear_catalog_cache() {
  loaded_catalog_cache().clear();
  catalog_check_cache().clear();
  g_catalog_hits = 0;
  g_catalog_misses = 0;
}

// Made once per source (catalog_source.hpp); load's caller gets a copy of the cached catalog.
Catalog Catalog::load(const std::string& dir) { return *load_shared(dir); }

std::shared_ptr<const Catalog> Catalog::load_shared(const std::string& dir) {
  return load_shared(read_catalog_source(dir));
}

std::shared_ptr<const Catalog> Catalog::load_shared(const CatalogSource& source) {
  bool hit = false;
  auto cached = loaded_catalog_cache().get(source, [](const CatalogSource& source) {
    Catalog catalog;
    catalog.dir_ = source.dir;
    Sha256 digest;
    for (std::size_t i = 0; i < source.paths.size(); ++i) {
      const std::string& path = source.paths[i];
      digest.update(fs::path(path).filename().string());
      digest.update(std::string_view("\0", 1));
      digest.update(source.bytes[i].value_or(std::string()));  // unreadable: parse_catalog_file says so

      CatalogFile file = parse_catalog_file(path, source.bytes[i]);
      for (CatalogRecord& record : file.records) {
        const std::string key = index_key(record.kind, record.id);
        if (catalog.index_.count(key)) continue;  // duplicates: the first wins; validate reports them
        catalog.index_.emplace(key, catalog.records_.size());
        catalog.records_.push_back(std::move(record));
      }
    }
    catalog.digest_ = digest.hex_digest();
    return catalog;
  }, &hit);
  ++(hit ? g_catalog_hits : g_catalog_misses);
  return cached;
}

const CatalogRecord* Catalog::find(std::string_view kind, std::string_view id) const {
  auto it = index_.find(index_key(kind, id));
  return it == index_.end() ? nullptr : &records_[it->second];
}

std::vector<std::string> Catalog::ids(std::string_view kind) const {
  std::vector<std::string> out;
  for (const auto& record : records_)
    if (record.kind == kind) out.push_back(record.id);
  return out;
}

// Levenshtein distance, case-insensitive: ranks the ids an unknown id was probably meant to be.
static std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

static std::string closest_ids_text(const Catalog& catalog, std::string_view kind, std::string_view id) {
  constexpr std::size_t kShown = 10;
  std::vector<std::pair<std::size_t, std::string>> ranked;
  for (const std::string& known : catalog.ids(kind)) ranked.emplace_back(edit_distance(id, known), known);
  if (ranked.empty()) return "the catalog has no " + std::string(kind) + " records";
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string text = "closest known: ";
  for (std::size_t i = 0; i < ranked.size() && i < kShown; ++i) text += (i ? ", " : "") + ranked[i].second;
  if (ranked.size() > kShown) text += ", ... (" + std::to_string(ranked.size()) + " in all)";
  return text;
}

ResolvedRecord resolve_reference(const Catalog& catalog, std::string_view kind, const Json& ref,
                                 const std::string& file, const std::string& pointer) {
  auto lookup = [&](const std::string& id, const std::string& where) -> const CatalogRecord& {
    const CatalogRecord* record = catalog.find(kind, id);
    if (!record) {
      throw InputError(file, where,
                       "unknown " + std::string(kind) + " id \"" + id + "\" (" +
                           closest_ids_text(catalog, kind, id) + ")");
    }
    return *record;
  };

  if (ref.is_string()) {
    const std::string id = ref.get<std::string>();
    return {lookup(id, pointer).fields, id};
  }
  if (!ref.is_object()) {
    throw InputError(file, pointer,
                     "expected a " + std::string(kind) + " id (string) or a record object, found " +
                         describe_json(ref));
  }
  auto id_field = ref.find("id");
  if (id_field == ref.end()) {
    // An inline record: nulls mean "absent" as in an override.
    ResolvedRecord inline_record{Json::object(), ""};
    for (const auto& [key, value] : ref.items())
      if (!value.is_null()) inline_record.merged[key] = value;
    return inline_record;
  }
  if (!id_field->is_string()) {
    throw InputError(file, pointer_join(pointer, "id"),
                     "expected a string id, found " + describe_json(*id_field));
  }
  const std::string id = id_field->get<std::string>();
  ResolvedRecord resolved{lookup(id, pointer_join(pointer, "id")).fields, id};
  for (const auto& [key, value] : ref.items()) {
    if (key == "id") continue;
    if (value.is_null()) resolved.merged.erase(key);
    else resolved.merged[key] = value;
  }
  // A figure the scenario replaces (or removes) loses the catalog's date and source for it,
  // unless the override writes its own field_provenance (which replaces the catalog's whole).
  auto dates = resolved.merged.find("field_provenance");
  if (!ref.contains("field_provenance") && dates != resolved.merged.end() && dates->is_object()) {
    for (const auto& [key, value] : ref.items()) dates->erase(key);
    if (dates->empty()) resolved.merged.erase(dates);
  }
  return resolved;
}

void check_record(std::string_view kind, const Json& fields, const std::string& file,
                  const std::string& pointer, const std::string& id) {
  JsonObjectReader r(fields, file, pointer);
  if (kind == "cloud_offer") parse_cloud_offer(r, id);
  else if (kind == "server") parse_server(r, id);
  else if (kind == "gpu") parse_gpu(r, id);
  else if (kind == "power_region") parse_power_region(r, id);
  else if (kind == "cooling") parse_cooling(r, id);
  else if (kind == "colocation") parse_colocation(r, id);
  else if (kind == "serving_profile") parse_serving_profile(r, id);
  else throw InputError(file, pointer, "unknown record kind \"" + std::string(kind) + "\"");
}

}  // namespace tco

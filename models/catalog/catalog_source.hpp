// A catalog folder read once, and what the process made of it, kept for the next load of the
// same bytes. Every scenario load parses and checks the whole catalog (Catalog::load, then
// require_valid_catalog); a loop of small scenarios from Python, or an uncertain scenario's
// tornado (two loads per input), did that again on every run for the same files. Both still
// list and read the folder on every call, through read_input_file (an MPI recording sees the
// files), then reuse what was made of a byte-identical source: the same folder, the same file
// names, the same bytes, compared in full. An edited, added or removed file is another source,
// loaded and checked anew; parsing exactly the bytes compared means that a file edited during a
// load cannot be cached under bytes it does not hold. A load that throws caches nothing.
// Example: 100 runs of one scenario read pricing-data/ 100 times (8 files, 148 kB) and parse
// and check it once.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/catalog/catalog.hpp"
#include "models/finding.hpp"

namespace tco {

struct CatalogSource {
  std::string dir;
  std::vector<std::string> paths;                 // catalog_file_paths(dir)
  std::vector<std::optional<std::string>> bytes;  // each file's bytes; nothing: it could not be read

  bool operator==(const CatalogSource& other) const = default;
};
CatalogSource read_catalog_source(const std::string& dir);

// read_catalog_file of bytes already read (`bytes` nothing: "cannot open the file").
CatalogFile parse_catalog_file(const std::string& path, const std::optional<std::string>& bytes);

// How often Catalog::load found its source's catalog made already (hits) or made it (misses),
// since the process started or clear_catalog_cache(). Tests and benches read it.
struct CatalogCacheStats {
  long hits = 0;
  long misses = 0;
};
CatalogCacheStats catalog_cache_stats();
// Forgets every cached catalog and check, and zeroes the counts.
void clear_catalog_cache();

// The last kEntries values made from catalog sources, most recent first. Thread-safe: two
// threads that miss at once both make the value, and both are correct.
template <typename Value>
class CatalogSourceCache {
 public:
  static constexpr std::size_t kEntries = 4;

  // The value made from a source equal to `source`, else make(source) (kept unless it throws).
  // `hit`, when given, says which.
  template <typename Make>
  std::shared_ptr<const Value> get(const CatalogSource& source, Make make, bool* hit = nullptr) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->first != source) continue;
        entries_.splice(entries_.begin(), entries_, it);
        if (hit) *hit = true;
        return entries_.front().second;
      }
    }
    auto value = std::make_shared<const Value>(make(source));
    const std::lock_guard<std::mutex> lock(mutex_);
    entries_.emplace_front(source, value);
    if (entries_.size() > kEntries) entries_.pop_back();
    if (hit) *hit = false;
    return value;
  }

  void clear() {
    const std::lock_guard<std::mutex> lock(mutex_);
    entries_.clear();
  }

 private:
  std::mutex mutex_;
  std::list<std::pair<CatalogSource, std::shared_ptr<const Value>>> entries_;
};

// The caches (catalog.cpp): the catalogs Catalog::load made, and require_valid_catalog's first
// error finding (nothing: the catalog has none).
CatalogSourceCache<Catalog>& loaded_catalog_cache();
CatalogSourceCache<std::optional<Finding>>& catalog_check_cache();

}  // namespace tco

#include "models/importers/prices/import_drops.hpp"

#include <fmt/format.h>

namespace tco {

namespace {
constexpr std::size_t kPlacesShown = 3;
}

void ImportDrops::add(const std::string& reason, const std::string& where) {
  ++total_;
  for (Reason& r : reasons_) {
    if (r.name != reason) continue;
    ++r.count;
    if (r.first_places.size() < kPlacesShown) r.first_places.push_back(where);
    return;
  }
  reasons_.push_back({reason, 1, {where}});
}

long ImportDrops::count(const std::string& reason) const {
  for (const Reason& r : reasons_)
    if (r.name == reason) return r.count;
  return 0;
}

std::string ImportDrops::summary() const {
  std::string text;
  for (const Reason& r : reasons_) text += fmt::format("{}{} {}", text.empty() ? "" : ", ", r.count, r.name);
  return text;
}

std::vector<Finding> ImportDrops::findings(const std::string& code, const std::string& file) const {
  std::vector<Finding> out;
  for (const Reason& r : reasons_) {
    std::string where;
    for (const std::string& place : r.first_places) where += (where.empty() ? "" : ", ") + place;
    if (r.count > static_cast<long>(r.first_places.size())) where += ", ...";
    out.push_back({Finding::Severity::warning, code, file, where,
                   fmt::format("{} dropped: {}", r.count, r.name)});
  }
  return out;
}

}  // namespace tco

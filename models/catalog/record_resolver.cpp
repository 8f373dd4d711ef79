#include "models/catalog/record_resolver.hpp"

#include <fmt/format.h>

namespace tco {

InputError RecordResolver::blame_catalog_record(const InputError& e, std::string_view kind, const std::string& id,
                                                const std::string& pointer) const {
  const CatalogRecord* record = id.empty() ? nullptr : catalog_.find(kind, id);
  if (!record) return e;
  try {
    check_record(kind, record->fields, record->file, record->pointer, id);
  } catch (const InputError& own) {
    return InputError(own.file(), own.where(),
                      own.message() + fmt::format(" (catalog record \"{}\", used by {} at {})", id, file_, pointer));
  }
  return e;
}

std::vector<Provenance> RecordResolver::used() const {
  std::vector<Provenance> out;
  for (const auto& [key, p] : used_) out.push_back(p);
  return out;
}

GpuModel resolve_gpu(RecordResolver& resolver, JsonObjectReader& r, const std::string& gpu_model_id,
                     const std::string& owner_pointer) {
  if (r.has("gpu")) return resolver.resolve<GpuModel>("gpu", r.value("gpu"), r.pointer_of("gpu"), parse_gpu);
  r.allow("gpu");
  if (!resolver.catalog().find("gpu", gpu_model_id)) {
    throw InputError(r.file(), owner_pointer + "/gpu_model",
                     "expected the id of a gpu record in the catalog (or a \"gpu\" object beside it), found \"" +
                         gpu_model_id + "\"");
  }
  return resolver.resolve<GpuModel>("gpu", Json(gpu_model_id), owner_pointer + "/gpu_model", parse_gpu);
}

}  // namespace tco

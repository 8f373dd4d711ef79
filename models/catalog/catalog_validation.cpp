#include "models/catalog/catalog_validation.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/io/input_snapshot.hpp"
#include "core/io/utf8_text.hpp"
#include "models/catalog/catalog.hpp"
#include "models/catalog/catalog_source.hpp"
#include "models/catalog/field_provenance.hpp"
#include "models/catalog/records.hpp"
#include "models/serving/serving_profile.hpp"

namespace tco {

namespace {

// The thresholds of the unit-slip heuristics (see the header).
constexpr double kMaxPlausibleUsdPerGpuHour = 100.0;
constexpr double kMinDiscountedFractionOfOnDemand = 0.05;

Finding make(Finding::Severity severity, std::string code, std::string file, std::string where,
             std::string message) {
  return Finding{severity, std::move(code), std::move(file), std::move(where), std::move(message)};
}

constexpr auto kError = Finding::Severity::error;
constexpr auto kWarning = Finding::Severity::warning;

// Leading decimal count in `text` at `pos` (e.g. "16" in "16g"); 0 when none.
int leading_count(std::string_view text, std::size_t pos, std::size_t* end) {
  int value = 0;
  std::size_t i = pos;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && value < 100000)
    value = value * 10 + (text[i++] - '0');
  *end = i;
  return i == pos ? 0 : value;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

class CatalogValidator {
 public:
  explicit CatalogValidator(const ValidationOptions& options) : options_(options) {
    if (!options_.today.empty() && !parse_date(options_.today, today_))
      throw InputError("", "--today", "expected a date YYYY-MM-DD, found \"" + options_.today + "\"");
    if (options_.max_age_days < 0)
      throw InputError("", "--max-age-days", "expected a number of days >= 0, found " +
                                                 std::to_string(options_.max_age_days));
  }

  // The files of one catalog, as read (catalog_source.hpp).
  std::vector<Finding> run(const std::vector<std::string>& paths, const std::vector<std::optional<std::string>>& bytes) {
    std::vector<CatalogFile> files;
    for (std::size_t i = 0; i < paths.size(); ++i) {
      const std::string& path = paths[i];
      try {
        files.push_back(parse_catalog_file(path, bytes[i]));
      } catch (const InputError& e) {
        findings_.push_back(make(kError, "invalid-file", path, e.where(), bare_error_message(e)));
      } catch (const Json::exception& e) {
        // e.g. 1e999: nlohmann reports a number overflow as out_of_range, not as a parse error.
        findings_.push_back(make(kError, "invalid-file", path, "", std::string("invalid JSON: ") + e.what()));
      }
    }
    bool has_gpu_file = false;
    for (const CatalogFile& file : files) {
      if (file.kind == "gpu") has_gpu_file = true;
      for (const CatalogRecord& record : file.records)
        if (record.kind == "gpu") gpu_ids_.insert(record.id);
    }
    check_gpu_references_ = has_gpu_file;
    for (const CatalogFile& file : files)
      for (const CatalogRecord& record : file.records) check_record_findings(record);
    if (!options_.against_dir.empty()) check_against();
    return std::move(findings_);
  }

 private:
  void add(Finding::Severity severity, const char* code, const CatalogRecord& record,
           std::string_view field, std::string message) {
    const std::string where = field.empty() ? record.pointer : pointer_join(record.pointer, field);
    findings_.push_back(make(severity, code, record.file, where, std::move(message)));
  }

  void check_record_findings(const CatalogRecord& record) {
    const std::string key = record.kind + '\n' + record.id;
    auto [first, inserted] = seen_.emplace(key, std::make_pair(record.file, record.pointer));
    if (!inserted) {
      add(kError, "duplicate-id", record, "id",
          fmt::format("duplicate {} id \"{}\" (first at {}: {}); the catalog would silently use the first",
                      record.kind, record.id, first->second.first, first->second.second));
    }

    // Provenance first, so a missing source says so instead of "expected a string".
    Json fields = record.fields;
    for (const char* key_name : {"source", "as_of"}) {
      const auto it = fields.find(key_name);
      const bool missing = it == fields.end() || it->is_null() || (it->is_string() && it->get<std::string>().empty());
      if (!missing) continue;
      add(kError, "missing-provenance", record, key_name,
          fmt::format("the record has no \"{}\": every catalog figure says where it comes from ({})", key_name,
                      std::string(key_name) == "source" ? "a URL or a citation" : "the date it was read, YYYY-MM-DD"));
      fields[key_name] = std::string(key_name) == "source" ? Json("(missing)") : Json("1970-01-01");
    }

    JsonObjectReader reader(fields, record.file, record.pointer);
    try {
      if (record.kind == "cloud_offer") check_offer(record, parse_cloud_offer(reader, record.id));
      else if (record.kind == "server") check_server(record, parse_server(reader, record.id));
      else if (record.kind == "gpu") check_dates(record, parse_gpu(reader, record.id).provenance);
      else if (record.kind == "power_region") check_power_region(record, parse_power_region(reader, record.id));
      else if (record.kind == "cooling") check_cooling(record, parse_cooling(reader, record.id));
      else if (record.kind == "colocation") check_colocation(record, parse_colocation(reader, record.id));
      else if (record.kind == "serving_profile") check_serving_profile(record, parse_serving_profile(reader, record.id));
    } catch (const InputError& e) {
      findings_.push_back(make(kError, "invalid-record", record.file, e.where(), bare_error_message(e)));
    }
  }

  // The record's as_of, then each figure's own (field_provenance, capacity_block_as_of). Only a
  // price ages (is_price_field): the record's as_of is checked for staleness when a price falls
  // back to it, or when the record lists no figures (a serving profile); any date after today is
  // an error.
  void check_dates(const CatalogRecord& record, const Provenance& provenance) {
    if (options_.today.empty()) return;
    const bool record_dates_a_price =
        provenance.figures.empty() ||
        std::any_of(provenance.figures.begin(), provenance.figures.end(),
                    [](const FigureProvenance& f) { return !f.own_as_of && is_price_field(f.field); });
    if (provenance.as_of != "1970-01-01")
      check_date(record, pointer_join(record.pointer, "as_of"), "as_of", provenance.as_of, record_dates_a_price);
    for (const FigureProvenance& figure : provenance.figures) {
      if (!figure.own_as_of) continue;
      const bool block = figure.field == "capacity_block_usd_per_hour" && record.fields.contains("capacity_block_as_of");
      const std::string where =
          block ? pointer_join(record.pointer, "capacity_block_as_of")
                : pointer_join(pointer_join(pointer_join(record.pointer, "field_provenance"), figure.field), "as_of");
      check_date(record, where, figure.field + " as_of", figure.as_of, is_price_field(figure.field));
    }
  }

  void check_date(const CatalogRecord& record, const std::string& where, const std::string& what,
                  const std::string& date_text, bool ages) {
    Date as_of;
    if (!parse_date(date_text, as_of)) return;
    const long age_days = days_between(as_of, today_);
    if (age_days < 0) {
      findings_.push_back(make(kError, "as-of-in-future", record.file, where,
          fmt::format("{} {} is {} days after today ({}): a typo in the year?", what, date_text, -age_days,
                      options_.today)));
    } else if (ages && age_days > options_.max_age_days) {
      findings_.push_back(make(kWarning, "as-of-stale", record.file, where,
          fmt::format("{} {} is {} days old (more than {}): re-check the figure", what, date_text, age_days,
                      options_.max_age_days)));
    }
  }

  void check_zero(const CatalogRecord& record, const char* field, double value) {
    if (value == 0.0)
      add(kError, "zero-price", record, field,
          fmt::format("{} is 0: a catalog price of zero is almost always a missing figure (leave the field out "
                      "when there is no such price)", field));
  }

  void check_gpu_reference(const CatalogRecord& record, const std::string& gpu_model) {
    if (check_gpu_references_ && !gpu_ids_.count(gpu_model))
      add(kError, "unknown-gpu-model", record, "gpu_model",
          fmt::format("gpu_model \"{}\" is not a gpu id in this catalog", gpu_model));
  }

  void check_offer(const CatalogRecord& record, const CloudOffer& o) {
    check_dates(record, o.provenance);
    check_gpu_reference(record, o.gpu_model);
    const double od = o.on_demand_usd_per_hour;
    const int gpus = o.gpus_per_instance;
    const std::pair<const char*, std::optional<double>> discounted[] = {
        {"spot_usd_per_hour", o.spot_usd_per_hour},
        {"reserved_1y_usd_per_hour", o.reserved_1y_usd_per_hour},
        {"reserved_3y_usd_per_hour", o.reserved_3y_usd_per_hour},
        {"capacity_block_usd_per_hour", o.capacity_block_usd_per_hour}};

    check_zero(record, "on_demand_usd_per_hour", od);
    for (const auto& [field, price] : discounted)
      if (price) check_zero(record, field, *price);

    if (o.spot_usd_per_hour && *o.spot_usd_per_hour > od) {
      add(kWarning, "spot-above-on-demand", record, "spot_usd_per_hour",
          fmt::format("spot {} is above on-demand {} (x{:.2f}): spot would never be chosen; a stale spot "
                      "figure, or the two swapped?", *o.spot_usd_per_hour, od, *o.spot_usd_per_hour / od));
    }

    auto monthly_slip = [&](const char* field, double price) {
      const double per_gpu = price / gpus;
      if (per_gpu > kMaxPlausibleUsdPerGpuHour)
        add(kWarning, "unit-slip-monthly", record, field,
            fmt::format("{} {} is ${:.2f} per GPU-hour, above ${:.0f}: a monthly price typed as hourly? "
                        "(/ 730 h = {:.4f} per hour)", field, price, per_gpu, kMaxPlausibleUsdPerGpuHour,
                        price / kHoursPerMonth));
    };
    monthly_slip("on_demand_usd_per_hour", od);
    for (const auto& [field, price] : discounted)
      if (price) monthly_slip(field, *price);

    if (gpus >= 2 && od > 0.0) {
      for (const auto& [field, price] : discounted) {
        if (!price || *price == 0.0) continue;
        if (*price < kMinDiscountedFractionOfOnDemand * od) {
          add(kWarning, "unit-slip-per-gpu", record, field,
              fmt::format("{} {} is {:.1f}% of on-demand {}: no spot or commitment discount is that deep; a "
                          "per-GPU price? (x {} GPUs = {:.4g})", field, *price, 100.0 * *price / od, od, gpus,
                          *price * gpus));
        } else if (*price > od * gpus) {
          add(kWarning, "unit-slip-per-gpu", record, field,
              fmt::format("{} {} is more than on-demand {} x {} GPUs: on-demand given per GPU, or a price "
                          "multiplied by the GPU count twice?", field, *price, od, gpus));
        }
      }
    }

    if (const auto known = known_gpus_per_instance(o.provider, o.instance_type); known && *known != gpus) {
      add(kError, "gpu-count-mismatch", record, "gpus_per_instance",
          fmt::format("{} {} has {} GPUs, found gpus_per_instance {}", o.provider, o.instance_type, *known, gpus));
    }

    const std::string expected_id = o.provider + "/" + o.instance_type + "/" + o.region;
    if (record.id != expected_id)
      add(kWarning, "id-format", record, "id",
          fmt::format("cloud offer ids are provider/instance_type/region: expected \"{}\", found \"{}\"",
                      expected_id, record.id));
  }

  void check_server(const CatalogRecord& record, const ServerModel& s) {
    check_dates(record, s.provenance);
    check_gpu_reference(record, s.gpu_model);
    check_zero(record, "price_usd", s.price_usd);
  }

  void check_power_region(const CatalogRecord& record, const PowerRegion& p) {
    check_dates(record, p.provenance);
    check_zero(record, "usd_per_kwh", p.usd_per_kwh);
  }

  void check_cooling(const CatalogRecord& record, const CoolingType& c) {
    check_dates(record, c.provenance);
    if (!c.max_cfm_per_rack) return;
    // SPEC §5: CFM = 3.16 x rack watts / deltaT_F.
    const double needed_cfm = 3.16 * c.rack_limit_kw * 1000.0 / c.delta_t_f;
    if (needed_cfm > *c.max_cfm_per_rack)
      add(kWarning, "airflow-above-limit", record, "rack_limit_kw",
          fmt::format("a full {} kW rack needs 3.16 x {} W / {} F = {:.0f} CFM, above max_cfm_per_rack {}",
                      c.rack_limit_kw, c.rack_limit_kw * 1000.0, c.delta_t_f, needed_cfm, *c.max_cfm_per_rack));
  }

  void check_colocation(const CatalogRecord& record, const Colocation& c) {
    check_dates(record, c.provenance);
    if (c.usd_per_kw_month == 0.0 && c.usd_per_rack_month == 0.0)
      add(kError, "zero-price", record, "usd_per_kw_month",
          "both usd_per_kw_month and usd_per_rack_month are 0: a colocation record without a price");
  }

  void check_serving_profile(const CatalogRecord& record, const ServingProfile& s) {
    check_dates(record, s.provenance);
    check_gpu_reference(record, s.gpu_model);
    for (Finding& f : serving_profile_findings(s, record.file, record.pointer)) findings_.push_back(std::move(f));
  }

  void check_against() {
    std::vector<std::string> old_paths = catalog_file_paths(options_.against_dir);
    for (const std::string& path : old_paths) {
      CatalogFile old_file;
      try {
        old_file = read_catalog_file(path);
      } catch (const InputError&) {
        continue;  // the old catalog's own problems are not this catalog's findings
      }
      for (const CatalogRecord& old_record : old_file.records) {
        if (seen_.count(old_record.kind + '\n' + old_record.id)) continue;
        findings_.push_back(make(kWarning, "sku-disappeared", old_record.file, old_record.pointer,
                                 fmt::format("{} \"{}\" is in the previous catalog but not in this one: scenarios "
                                             "that name it will no longer load", old_record.kind, old_record.id)));
      }
    }
  }

  ValidationOptions options_;
  Date today_;
  std::vector<Finding> findings_;
  std::map<std::string, std::pair<std::string, std::string>> seen_;  // kind + '\n' + id -> (file, pointer)
  std::set<std::string> gpu_ids_;
  bool check_gpu_references_ = false;
};

}  // namespace

std::string format_finding(const Finding& finding) {
  std::string out = finding.severity == Finding::Severity::error ? "error: " : "warning: ";
  if (!finding.file.empty()) out += finding.file + ": ";
  if (!finding.where.empty()) out += finding.where + ": ";
  // A finding built from an InputError's what() repeats "file: where: "; print it once.
  std::string message = finding.message;
  const std::string repeated = (finding.file.empty() ? std::string("<input>") : finding.file) +
                               (finding.where.empty() ? std::string() : ": " + finding.where) + ": ";
  if (starts_with(message, repeated)) message = message.substr(repeated.size());
  // Bytes of a file name or a quoted value that are not text are shown as \xNN (core/io/utf8_text.hpp).
  return escaped_text(out + message + " [" + finding.code + "]", LineBreaks::keep);
}

std::string bare_error_message(const InputError& error) {
  std::string prefix = error.file().empty() ? std::string("<input>") : error.file();
  if (!error.where().empty()) prefix += ": " + error.where();
  prefix += ": ";
  const std::string text = error.what();
  return starts_with(text, prefix) ? text.substr(prefix.size()) : text;
}

std::optional<int> known_gpus_per_instance(std::string_view provider, std::string_view instance_type) {
  static const std::map<std::string, int, std::less<>> table = {
      // AWS (EC2 accelerated computing instance pages).
      {"p3.2xlarge", 1}, {"p3.8xlarge", 4}, {"p3.16xlarge", 8}, {"p3dn.24xlarge", 8},
      {"p4d.24xlarge", 8}, {"p4de.24xlarge", 8}, {"p5.48xlarge", 8}, {"p5e.48xlarge", 8},
      {"p5en.48xlarge", 8}, {"p6-b200.48xlarge", 8}, {"g5.xlarge", 1}, {"g5.12xlarge", 4},
      {"g5.48xlarge", 8}, {"g6e.xlarge", 1}, {"g6e.2xlarge", 1}, {"g6e.4xlarge", 1},
      {"g6e.8xlarge", 1}, {"g6e.16xlarge", 1}, {"g6e.12xlarge", 4}, {"g6e.24xlarge", 4},
      {"g6e.48xlarge", 8},
      // Azure (ND/NC GPU series pages); with or without the "Standard_" prefix.
      {"ND96isr_H100_v5", 8}, {"ND96isr_H200_v5", 8}, {"ND96amsr_A100_v4", 8}, {"ND96asr_v4", 8},
      {"ND96isr_MI300X_v5", 8}, {"NC40ads_H100_v5", 1}, {"NC80adis_H100_v5", 2},
      {"NC24ads_A100_v4", 1}, {"NC48ads_A100_v4", 2}, {"NC96ads_A100_v4", 4},
  };
  std::string_view name = instance_type;
  if (provider == "azure" && starts_with(name, "Standard_")) name.remove_prefix(9);
  if (auto it = table.find(name); it != table.end()) return it->second;

  std::size_t end = 0;
  if (provider == "gcp" && name.size() > 3 && name[0] == 'a' && (name[1] == '2' || name[1] == '3' || name[1] == '4') &&
      name[2] == '-') {
    // a3-highgpu-8g, a3-edgegpu-8g-nolssd, a2-megagpu-16g: the count is the "-Ng" part.
    const std::size_t dash = name.find('-', 3);
    if (dash != std::string_view::npos) {
      const int n = leading_count(name, dash + 1, &end);
      if (n > 0 && end < name.size() && name[end] == 'g' && (end + 1 == name.size() || name[end + 1] == '-')) return n;
    }
  }
  if (provider == "lambda" && starts_with(name, "gpu_")) {
    const int n = leading_count(name, 4, &end);
    if (n > 0 && end < name.size() && name[end] == 'x') return n;
  }
  if (provider == "runpod") {
    const int n = leading_count(name, 0, &end);
    if (n > 0 && end < name.size() && name[end] == 'x') return n;
  }
  return std::nullopt;
}

std::vector<Finding> validate_catalog_files(const std::vector<std::string>& paths, const ValidationOptions& options) {
  CatalogValidator validator(options);
  std::vector<std::optional<std::string>> bytes;
  for (const std::string& path : paths) bytes.push_back(read_input_file(path, JsonLimits{}.max_file_bytes));
  return validator.run(paths, bytes);
}

std::vector<Finding> validate_catalog_dir(const std::string& dir, const ValidationOptions& options) {
  CatalogValidator validator(options);  // checks the options before the folder
  const CatalogSource source = read_catalog_source(dir);
  return validator.run(source.paths, source.bytes);
}

// Checked once per source (catalog_source.hpp): the findings depend on the files' bytes alone.
void require_valid_catalog(const std::string& dir) { require_valid_catalog(read_catalog_source(dir)); }

void require_valid_catalog(const CatalogSource& source) {
  const auto first_error = catalog_check_cache().get(source, [](const CatalogSource& source) {
    std::optional<Finding> error;
    for (Finding& f : CatalogValidator(ValidationOptions{}).run(source.paths, source.bytes)) {
      if (f.severity != Finding::Severity::error) continue;
      error = std::move(f);
      break;
    }
    return error;
  });
  if (*first_error) {
    const Finding& f = **first_error;
    throw InputError(f.file, f.where, f.message + " [" + f.code + "]");
  }
}

}  // namespace tco

#include "models/importers/prices/skypilot_import.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "models/catalog/catalog_validation.hpp"

namespace tco {

namespace fs = std::filesystem;

namespace skypilot {

std::vector<CsvField> split_csv_line(std::string_view line, const std::string& file, long line_number) {
  std::vector<CsvField> fields;
  std::size_t i = 0;
  auto where = [&](std::size_t pos) { return fmt::format("line {}, column {}", line_number, pos + 1); };
  while (true) {
    CsvField field;
    field.column = static_cast<int>(i) + 1;
    if (i < line.size() && line[i] == '"') {
      const std::size_t open = i++;
      while (true) {
        if (i >= line.size()) throw InputError(file, where(open), "unterminated quoted field");
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field.text += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field.text += line[i++];
      }
      if (i < line.size() && line[i] != ',')
        throw InputError(file, where(i), "expected a comma after a quoted field, found '" + std::string(1, line[i]) + "'");
    } else {
      while (i < line.size() && line[i] != ',') {
        if (line[i] == '"') throw InputError(file, where(i), "unexpected quote inside an unquoted field");
        field.text += line[i++];
      }
    }
    fields.push_back(std::move(field));
    if (i >= line.size()) break;
    ++i;  // the comma
  }
  return fields;
}

}  // namespace skypilot

namespace {

// One row of a SkyPilot vms.csv, reduced to what a catalog record needs.
struct Row {
  std::string provider;
  std::string instance_type;
  std::string accelerator;
  int accelerator_count = 0;
  std::string region;
  std::string zone;
  std::optional<double> price;
  std::optional<double> spot;
  std::string file;   // base name
  std::string lines;  // "12", or "19 + 156" for a GCP host + accelerator pair
};

// Prices in the files have at most 5-6 decimals; sums of GCP pairs are rounded to 6 so that
// 1.18251 + 4.20076 prints as 5.38327, not 5.3832700000000004.
double round6(double x) { return std::round(x * 1e6) / 1e6; }

std::string provider_of(const std::string& path) {
  const fs::path p(path);
  std::string name = p.filename().string();
  if (name == "vms.csv") name = p.parent_path().filename().string();
  else name = name.substr(0, name.find('_'));
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-';
  });
  if (!plain || name == "vms.csv") {
    throw InputError(path, "",
                     "cannot tell the cloud from the file name: expected <provider>_....csv (aws_vms.csv) or "
                     "<provider>/vms.csv as in the SkyPilot catalog");
  }
  return name;
}

class CsvFile {
 public:
  CsvFile(const std::string& path) : path_(path), in_(path, std::ios::binary) {
    if (!in_) throw InputError(path, "", "cannot open the file");
    std::string header;
    if (!next_line(header)) throw InputError(path, "line 1", "expected a SkyPilot catalog header, found an empty file");
    for (const auto& f : skypilot::split_csv_line(header, path_, line_number_)) columns_.push_back(f.text);
  }

  const std::vector<std::string>& columns() const { return columns_; }
  long line_number() const { return line_number_; }

  int index_of(const std::string& name, bool required) const {
    for (std::size_t i = 0; i < columns_.size(); ++i)
      if (columns_[i] == name) return static_cast<int>(i);
    if (required) {
      std::string found;
      for (const auto& c : columns_) found += (found.empty() ? "" : ",") + c;
      throw InputError(path_, "line 1",
                       "expected a SkyPilot v7 vms.csv header with a column \"" + name + "\", found " + found);
    }
    return -1;
  }

  // The next non-empty row's fields, or false at the end.
  bool next_row(std::vector<skypilot::CsvField>& fields) {
    std::string line;
    while (next_line(line)) {
      if (line.empty()) continue;
      fields = skypilot::split_csv_line(line, path_, line_number_);
      if (fields.size() != columns_.size()) {
        throw InputError(path_, fmt::format("line {}, column {}", line_number_, line.size() + 1),
                         fmt::format("expected {} fields (as in the header), found {}", columns_.size(), fields.size()));
      }
      return true;
    }
    return false;
  }

 private:
  bool next_line(std::string& line) {
    if (!std::getline(in_, line)) return false;
    ++line_number_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }

  std::string path_;
  std::ifstream in_;
  long line_number_ = 0;
  std::vector<std::string> columns_;
};

// A price column: empty = not offered; "nan" is NaN (the caller drops its row); anything else
// must be a finite number >= 0.
std::optional<double> price_field(const skypilot::CsvField& field, const std::string& column, const std::string& path,
                                  long line) {
  if (field.text.empty()) return std::nullopt;
  double value = 0.0;
  const char* begin = field.text.data();
  const char* end = begin + field.text.size();
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec == std::errc() && ptr == end && std::isnan(value)) return value;
  if (ec != std::errc() || ptr != end || !std::isfinite(value) || value < 0.0) {
    throw InputError(path, fmt::format("line {}, column {}", line, field.column),
                     fmt::format("expected a price in USD per hour (a number >= 0) in column {}, found \"{}\"", column,
                                 field.text));
  }
  return value;
}

class SkypilotImporter {
 public:
  explicit SkypilotImporter(const SkypilotImportOptions& options) : options_(options) {
    Date date;
    if (!parse_date(options_.as_of, date))
      throw InputError("", "--as-of", "expected a date YYYY-MM-DD (the CSVs carry no date), found \"" +
                                          options_.as_of + "\"");
  }

  void read(const std::string& path) {
    CsvFile csv(path);
    const std::string provider = provider_of(path);
    const int c_instance = csv.index_of("InstanceType", true);
    const int c_accelerator = csv.index_of("AcceleratorName", true);
    const int c_count = csv.index_of("AcceleratorCount", true);
    const int c_price = csv.index_of("Price", true);
    const int c_spot = csv.index_of("SpotPrice", true);
    const int c_region = csv.index_of("Region", true);
    const int c_zone = csv.index_of("AvailabilityZone", false);
    const std::string base = fs::path(path).filename().string();

    std::vector<skypilot::CsvField> f;
    while (csv.next_row(f)) {
      ++result_.rows_read;
      const long line = csv.line_number();
      Row row;
      row.provider = provider;
      row.instance_type = f[c_instance].text;
      row.accelerator = f[c_accelerator].text;
      row.region = f[c_region].text;
      row.zone = c_zone >= 0 ? f[c_zone].text : "";
      row.price = price_field(f[c_price], "Price", path, line);
      row.spot = price_field(f[c_spot], "SpotPrice", path, line);
      row.file = base;
      row.lines = std::to_string(line);
      if (row.region.empty())
        throw InputError(path, fmt::format("line {}, column {}", line, f[c_region].column), "expected a region, found nothing");
      const auto count =
          f[c_count].text.empty() ? std::nullopt : price_field(f[c_count], "AcceleratorCount", path, line);
      const auto is_nan = [](const std::optional<double>& v) { return v && std::isnan(*v); };
      if (is_nan(row.price) || is_nan(row.spot) || is_nan(count)) {
        skipped_nan_.add(base, line);
        continue;
      }
      // A $0 price is a missing price, never a free instance: the column is left out.
      if (row.price == 0.0 || row.spot == 0.0) {
        skipped_zero_.add(base, line);
        if (row.price == 0.0) row.price.reset();
        if (row.spot == 0.0) row.spot.reset();
      }
      if (count) {
        if (*count != std::floor(*count)) {
          note("fractional-gpu", base, fmt::format("line {}", line),
               fmt::format("{} {} has {} GPUs (a fraction of a GPU): skipped", provider, row.instance_type, *count));
          continue;
        }
        row.accelerator_count = static_cast<int>(*count);
      }
      classify(std::move(row));
    }
  }

  SkypilotImport finish() {
    pair_gcp_rows();
    build_records();
    result_.zero_price_rows = skipped_zero_.rows;
    result_.nan_rows = skipped_nan_.rows;
    if (skipped_zero_.rows > 0)
      note("zero-price", skipped_zero_.files_text(), skipped_zero_.lines_text(),
           fmt::format("{} rows had a $0 price: each $0 price was left out (not offered), never written as a price",
                       skipped_zero_.rows));
    if (skipped_nan_.rows > 0)
      note("nan-price", skipped_nan_.files_text(), skipped_nan_.lines_text(),
           fmt::format("{} rows had a NaN price or GPU count: dropped", skipped_nan_.rows));
    return std::move(result_);
  }

 private:
  // Rows left out for one reason: how many, and where the first few are ("file:line" when
  // they come from more than one file).
  struct SkippedRows {
    long rows = 0;
    std::set<std::string> files;
    std::vector<std::pair<std::string, long>> first_lines;

    void add(const std::string& file, long line) {
      ++rows;
      files.insert(file);
      if (first_lines.size() < 5) first_lines.emplace_back(file, line);
    }
    std::string files_text() const { return join(files); }
    std::string lines_text() const {
      std::string text = "lines ";
      for (std::size_t i = 0; i < first_lines.size(); ++i) {
        if (i > 0) text += ", ";
        if (files.size() > 1) text += first_lines[i].first + ":";
        text += std::to_string(first_lines[i].second);
      }
      return rows > static_cast<long>(first_lines.size()) ? text + ", ..." : text;
    }
  };
  SkippedRows skipped_zero_;
  SkippedRows skipped_nan_;

  void note(const char* code, const std::string& file, const std::string& where, std::string message) {
    result_.notes.push_back({Finding::Severity::warning, code, file, where, std::move(message)});
  }

  void classify(Row row) {
    const bool has_instance = !row.instance_type.empty();
    const bool has_accelerator = !row.accelerator.empty() && row.accelerator_count > 0;
    if (row.provider == "gcp" && has_instance && !has_accelerator) gcp_hosts_.push_back(std::move(row));
    else if (row.provider == "gcp" && !has_instance && has_accelerator) gcp_accelerators_.push_back(std::move(row));
    else if (has_instance && has_accelerator) vms_.push_back(std::move(row));
    // else: a CPU-only VM, not a GPU offer.
  }

  // The accelerator a GCP host family carries (GCP accelerator-optimized machine series).
  static std::string gcp_family_accelerator(std::string_view instance_type) {
    static const std::pair<const char*, const char*> families[] = {
        {"a2-highgpu-", "A100"}, {"a2-megagpu-", "A100"},   {"a2-ultragpu-", "A100-80GB"},
        {"a3-highgpu-", "H100"}, {"a3-edgegpu-", "H100"},   {"a3-megagpu-", "H100-MEGA"},
        {"a3-ultragpu-", "H200"}, {"a4-highgpu-", "B200"}};
    for (const auto& [prefix, accelerator] : families)
      if (instance_type.substr(0, std::string_view(prefix).size()) == prefix) return accelerator;
    return "";
  }

  void pair_gcp_rows() {
    std::map<std::tuple<std::string, int, std::string>, std::size_t> accelerator_by_zone;
    for (std::size_t i = 0; i < gcp_accelerators_.size(); ++i) {
      const Row& a = gcp_accelerators_[i];
      accelerator_by_zone.emplace(std::make_tuple(a.accelerator, a.accelerator_count, a.zone), i);
    }
    std::vector<bool> used(gcp_accelerators_.size(), false);
    std::map<std::string, int> unpaired_hosts;
    for (const Row& host : gcp_hosts_) {
      const std::string accelerator = gcp_family_accelerator(host.instance_type);
      const auto count = known_gpus_per_instance("gcp", host.instance_type);
      if (accelerator.empty() || !count) continue;  // a general-purpose VM, no GPU
      auto it = accelerator_by_zone.find(std::make_tuple(accelerator, *count, host.zone));
      if (it == accelerator_by_zone.end()) {
        ++unpaired_hosts[host.instance_type + " (needs " + accelerator + " x" + std::to_string(*count) + ")"];
        continue;
      }
      used[it->second] = true;
      const Row& acc = gcp_accelerators_[it->second];
      Row vm = host;
      vm.accelerator = acc.accelerator;
      vm.accelerator_count = acc.accelerator_count;
      vm.price = host.price && acc.price ? std::optional<double>(round6(*host.price + *acc.price)) : std::nullopt;
      vm.spot = host.spot && acc.spot ? std::optional<double>(round6(*host.spot + *acc.spot)) : std::nullopt;
      if (host.file != acc.file) vm.file = host.file + " + " + acc.file;
      vm.lines = host.lines + " + " + acc.lines;
      vms_.push_back(std::move(vm));
    }
    for (const auto& [what, rows] : unpaired_hosts)
      note("unpaired-gcp-row", "", "", fmt::format("{} host rows of {} have no accelerator row in the same zone in "
                                                   "the inputs: no record", rows, what));
    std::map<std::string, int> unpaired_accelerators;
    for (std::size_t i = 0; i < gcp_accelerators_.size(); ++i)
      if (!used[i])
        ++unpaired_accelerators[gcp_accelerators_[i].accelerator + " x" +
                                std::to_string(gcp_accelerators_[i].accelerator_count)];
    for (const auto& [what, rows] : unpaired_accelerators)
      note("unpaired-gcp-row", "", "", fmt::format("{} accelerator rows of {} have no host VM row in the same zone "
                                                   "in the inputs: no record", rows, what));
  }

  void build_records() {
    // Group the VM rows by (provider, instance type, region), zones in file order.
    std::map<std::tuple<std::string, std::string, std::string>, std::vector<const Row*>> groups;
    std::set<std::string> providers_with_spot, providers;
    for (const Row& row : vms_) {
      groups[{row.provider, row.instance_type, row.region}].push_back(&row);
      providers.insert(row.provider);
      if (row.spot) providers_with_spot.insert(row.provider);
    }
    for (const std::string& provider : providers)
      if (!providers_with_spot.count(provider))
        note("no-spot-market", "", "", provider + " has no spot price in any row of the inputs: its offers carry "
                                                  "on-demand prices only");

    std::set<std::string> unknown_gpus;
    std::map<std::pair<std::string, std::string>, std::vector<std::pair<double, std::string>>> on_demand_by_type;
    Json records = Json::array();
    for (const auto& [key, rows] : groups) {
      const auto& [provider, instance_type, region] = key;
      const Row& first = *rows.front();
      const std::string id = provider + "/" + instance_type + "/" + region;
      const std::string where = lines_text(rows);

      std::optional<double> on_demand, on_demand_max, spot;
      std::set<std::string> files;
      for (const Row* row : rows) {
        files.insert(row->file);
        if (row->price) {
          on_demand = on_demand ? std::min(*on_demand, *row->price) : *row->price;
          on_demand_max = on_demand_max ? std::max(*on_demand_max, *row->price) : *row->price;
        }
        if (row->spot) spot = spot ? std::min(*spot, *row->spot) : *row->spot;
      }
      const std::string file_text = join(files);
      if (!on_demand) {
        note("no-on-demand-price", file_text, where, id + ": no zone has an on-demand price: no record");
        continue;
      }
      if (*on_demand_max > *on_demand) {
        note("zone-price-disagree", file_text, where,
             fmt::format("{}: zones disagree on the on-demand price ({} to {}): the minimum is kept", id,
                         *on_demand, *on_demand_max));
      }
      if (spot && *spot > *on_demand) {
        note("spot-above-on-demand", file_text, where,
             fmt::format("{}: spot {} is above on-demand {} (x{:.2f})", id, *spot, *on_demand, *spot / *on_demand));
      }
      if (!spot && providers_with_spot.count(provider))
        note("missing-spot", file_text, where, id + ": no zone has a spot price");

      bool known = true;
      const std::string gpu = skypilot_gpu_id(provider, instance_type, first.accelerator, &known);
      if (!known && unknown_gpus.insert(first.accelerator).second)
        note("unknown-gpu", file_text, where,
             fmt::format("accelerator \"{}\" has no catalog gpu id: kept as \"{}\" (add a gpu record or a mapping)",
                         first.accelerator, gpu));

      Json record = {{"id", id},
                     {"provider", provider},
                     {"instance_type", instance_type},
                     {"region", region},
                     {"gpu_model", gpu},
                     {"gpus_per_instance", first.accelerator_count},
                     {"on_demand_usd_per_hour", *on_demand}};
      if (spot) record["spot_usd_per_hour"] = *spot;
      std::string source = "SkyPilot catalog v7: " + file_text;
      if (!options_.source_note.empty()) source += "; " + options_.source_note;
      record["source"] = source;
      record["as_of"] = options_.as_of;
      records.push_back(std::move(record));
      on_demand_by_type[{provider, instance_type}].emplace_back(*on_demand, region);
    }

    for (const auto& [type, prices] : on_demand_by_type) {
      const auto [low, high] = std::minmax_element(prices.begin(), prices.end());
      if (high->first >= 2.0 * low->first) {
        note("regional-spread", "", "",
             fmt::format("{} {}: on-demand varies x{:.2f} across regions, from {} ({}) to {} ({})", type.first,
                         type.second, high->first / low->first, low->first, low->second, high->first, high->second));
      }
    }
    result_.catalog = Json{{"kind", "cloud_offer"}, {"records", std::move(records)}};
  }

  static std::string join(const std::set<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
  }

  static std::string lines_text(const std::vector<const Row*>& rows) {
    constexpr std::size_t kShown = 6;
    std::string out = rows.size() == 1 ? "line " : "lines ";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (i == kShown) return out + ", ...";
      out += (i ? ", " : "") + rows[i]->lines;
    }
    return out;
  }

  SkypilotImportOptions options_;
  SkypilotImport result_;
  std::vector<Row> vms_;
  std::vector<Row> gcp_hosts_;
  std::vector<Row> gcp_accelerators_;
};

}  // namespace

std::string skypilot_gpu_id(std::string_view provider, std::string_view instance_type, std::string_view accelerator,
                            bool* known) {
  std::string lower_instance(instance_type);
  std::transform(lower_instance.begin(), lower_instance.end(), lower_instance.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  const bool pcie = lower_instance.find("pcie") != std::string::npos;
  // RunPod names its PCIe cards plainly and its SXM cards "-SXM"; the other clouds' "A100-80GB"
  // and "H100" are SXM parts (p4de, a2-ultragpu, p5, a3).
  static const std::map<std::string, std::string, std::less<>> runpod = {
      {"A100-80GB", "a100-pcie-80gb"}, {"H100-PCIe", "h100-pcie-80gb"}, {"H100-NVL", "h100-nvl-94gb"}};
  static const std::map<std::string, std::string, std::less<>> names = {
      {"H100", "h100-sxm-80gb"},       {"H100-MEGA", "h100-sxm-80gb"}, {"H100-SXM", "h100-sxm-80gb"},
      {"H200", "h200-sxm-141gb"},      {"H200-SXM", "h200-sxm-141gb"}, {"A100-80GB", "a100-sxm-80gb"},
      {"A100-80GB-SXM", "a100-sxm-80gb"}, {"A100", "a100-sxm-40gb"},   {"V100", "v100-sxm-16gb"},
      {"V100-32GB", "v100-sxm-32gb"},  {"A6000", "rtx-a6000"},         {"RTXA6000", "rtx-a6000"},
      {"B200", "b200"},                {"L40S", "l40s"},               {"L4", "l4"},
      {"A10G", "a10g"},                {"A10", "a10"},                 {"T4", "t4"},
      {"GH200", "gh200"}};
  if (known) *known = true;
  if (provider == "runpod")
    if (auto it = runpod.find(accelerator); it != runpod.end()) return it->second;
  if (pcie && accelerator == "H100") return "h100-pcie-80gb";
  if (pcie && accelerator == "A100-80GB") return "a100-pcie-80gb";
  if (auto it = names.find(accelerator); it != names.end()) return it->second;
  if (known) *known = false;
  std::string lower(accelerator);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower;
}

SkypilotImport import_skypilot(const std::vector<std::string>& paths, const SkypilotImportOptions& options) {
  SkypilotImporter importer(options);
  if (paths.empty()) throw InputError("", "", "expected at least one SkyPilot CSV file");
  for (const std::string& path : paths) importer.read(path);
  return importer.finish();
}

}  // namespace tco

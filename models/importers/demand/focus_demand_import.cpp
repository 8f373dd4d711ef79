#include "models/importers/demand/focus_demand_import.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/csv_lines.hpp"
#include "models/importers/demand/hourly_demand.hpp"
#include "models/importers/import_time.hpp"

namespace tco {

namespace {

constexpr long kMaxFocusHours = 1000000;  // the trace readers' limit on a series' hours

// One CSV record (RFC 4180: fields may be quoted, "" is a quote, a quoted field may hold commas
// and line breaks) and the line it starts on.
struct FocusRecord {
  long line = 0;
  std::vector<std::string> fields;
};

class FocusCsvReader {
 public:
  FocusCsvReader(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
    if (text_.rfind("\xEF\xBB\xBF", 0) == 0) pos_ = 3;  // a byte order mark
  }

  // False at the end of the text; blank lines are skipped.
  bool next(FocusRecord& out) {
    while (pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r')) advance_line_end();
    if (pos_ >= text_.size()) return false;
    out.line = line_;
    out.fields.clear();
    std::string field;
    std::size_t column = 1;
    for (;;) {
      if (pos_ < text_.size() && text_[pos_] == '"') {
        const long opened = line_;
        ++pos_;
        for (;;) {
          if (pos_ >= text_.size())
            throw InputError(path_, csv_position(opened, column), "a quoted field is not closed before the end of the file");
          const char c = text_[pos_++];
          if (c == '"') {
            if (pos_ < text_.size() && text_[pos_] == '"') {
              field += '"';
              ++pos_;
              continue;
            }
            break;
          }
          if (c == '\n') ++line_;
          field += c;
        }
        if (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' && text_[pos_] != '\r')
          throw InputError(path_, csv_position(line_, column), "a character after a quoted field's closing quote");
      } else {
        while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' && text_[pos_] != '\r') {
          if (text_[pos_] == '"')
            throw InputError(path_, csv_position(line_, column), "a quote inside an unquoted field");
          field += text_[pos_++];
        }
      }
      out.fields.push_back(std::move(field));
      field.clear();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        ++column;
        continue;
      }
      if (pos_ < text_.size()) advance_line_end();
      return true;
    }
  }

 private:
  void advance_line_end() {
    if (text_[pos_] == '\r') ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
    ++line_;
  }

  std::string path_;
  std::string text_;
  std::size_t pos_ = 0;
  long line_ = 1;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open the FOCUS export");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The column positions the reader needs; absent optional columns are npos.
struct FocusHeader {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::size_t charge_category = npos, charge_class = npos, start = npos, end = npos, status = npos;
  std::size_t quantity = npos, unit = npos, account = npos;
  std::vector<std::size_t> instance_columns;  // SkuId, SkuMeter, ResourceType, ChargeDescription present
  std::size_t count = 0;
};

FocusHeader read_header(const std::string& path, const FocusRecord& header, bool by_account) {
  FocusHeader h;
  h.count = header.fields.size();
  auto find = [&](const char* name) {
    const auto it = std::find(header.fields.begin(), header.fields.end(), name);
    return it == header.fields.end() ? FocusHeader::npos : static_cast<std::size_t>(it - header.fields.begin());
  };
  auto require = [&](const char* name) {
    const std::size_t k = find(name);
    if (k == FocusHeader::npos)
      throw InputError(path, csv_position(header.line, 1),
                       fmt::format("not a FOCUS export: the header has no {} column", name));
    return k;
  };
  h.charge_category = require("ChargeCategory");
  h.start = require("ChargePeriodStart");
  h.end = require("ChargePeriodEnd");
  if (by_account) h.account = require("BillingAccountId");
  h.charge_class = find("ChargeClass");
  h.status = find("CommitmentDiscountStatus");
  const bool consumed = find("ConsumedQuantity") != FocusHeader::npos;
  h.quantity = require(consumed ? "ConsumedQuantity" : "PricingQuantity");
  h.unit = require(consumed ? "ConsumedUnit" : "PricingUnit");
  for (const char* name : {"SkuId", "SkuMeter", "ResourceType", "ChargeDescription"})
    if (const std::size_t k = find(name); k != FocusHeader::npos) h.instance_columns.push_back(k);
  return h;
}

// A charge period's bound as UTC seconds. FOCUS writes "YYYY-MM-DDTHH:mm:ssZ"; exports that add
// milliseconds ("...T00:00:00.000Z") are read to the second (the fraction dropped).
std::int64_t focus_utc_seconds(std::string text, const std::string& path, const std::string& where) {
  if (const std::size_t dot = text.find('.', 19); dot == 19) {
    std::size_t end = dot + 1;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    if (end > dot + 1) text.erase(dot, end - dot);
  }
  return json_utc_seconds(Json(text), path, where);
}

// The GPUs of the longest instance type named in the row's identifying columns; nullopt when none.
std::optional<double> instance_gpus(const FocusRecord& r, const FocusHeader& h, const FocusDemandOptions& o) {
  std::optional<double> gpus;
  std::size_t longest = 0;
  for (const std::size_t k : h.instance_columns)
    for (const auto& [type, n] : o.gpus_per_instance)
      if (type.size() > longest && r.fields[k].find(type) != std::string::npos) {
        longest = type.size();
        gpus = n;
      }
  return gpus;
}

}  // namespace

FocusDemand import_focus_demand(const std::string& path, const FocusDemandOptions& options) {
  FocusCsvReader reader(path, read_text(path));
  FocusRecord record;
  if (!reader.next(record)) throw InputError(path, "line 1", "the file is empty (expected a FOCUS header line)");
  const FocusHeader h = read_header(path, record, !options.billing_account.empty());
  struct Span {
    std::int64_t start_s, end_s;
    double gpu_hours;
  };
  std::vector<Span> spans;
  FocusDemand out;
  long last_line = record.line;
  while (reader.next(record)) {
    last_line = record.line;
    ++out.rows;
    if (record.fields.size() != h.count)
      throw InputError(path, csv_position(record.line, 1),
                       fmt::format("{} fields, the header has {}", record.fields.size(), h.count));
    const auto& f = record.fields;
    if (f[h.charge_category] != "Usage") continue;
    if (h.account != FocusHeader::npos && f[h.account] != options.billing_account) continue;
    if (h.charge_class != FocusHeader::npos && f[h.charge_class] == "Correction") continue;
    if (h.status != FocusHeader::npos && f[h.status] == "Unused") continue;
    const std::string& unit = f[h.unit];
    double per_unit = 0.0;
    if (unit == "GPU-Hours") {
      per_unit = 1.0;
    } else if (unit == "Hours") {
      const std::optional<double> gpus = instance_gpus(record, h, options);
      if (!gpus) continue;
      per_unit = *gpus;
    } else {
      continue;
    }
    double quantity = 0.0;
    if (!parse_finite_double(f[h.quantity], quantity) || quantity < 0.0)
      throw InputError(path, csv_position(record.line, h.quantity + 1),
                       fmt::format("a GPU row's quantity must be a number >= 0, found \"{}\"", f[h.quantity]));
    const std::int64_t start_s = focus_utc_seconds(f[h.start], path, csv_position(record.line, h.start + 1));
    const std::int64_t end_s = focus_utc_seconds(f[h.end], path, csv_position(record.line, h.end + 1));
    if (end_s <= start_s)
      throw InputError(path, csv_position(record.line, h.end + 1),
                       fmt::format("ChargePeriodEnd {} is not after ChargePeriodStart {}", f[h.end], f[h.start]));
    spans.push_back({start_s, end_s, quantity * per_unit});
    ++out.gpu_rows;
  }
  // The rows as a whole: "lines 2-N" (line 1 without data rows).
  const std::string all_rows = last_line > 1 ? fmt::format("lines 2-{}", last_line) : std::string("line 1");
  if (spans.empty())
    throw InputError(path, all_rows,
                     fmt::format("no GPU row among {} rows (a Usage row in GPU-Hours, or in Hours of an instance "
                                 "type given with --gpus-per-instance)",
                                 out.rows));
  std::int64_t first_h = spans.front().start_s / 3600, last_h = first_h;
  for (const Span& s : spans) {
    first_h = std::min(first_h, s.start_s / 3600);
    last_h = std::max(last_h, (s.end_s + 3599) / 3600);
  }
  if (last_h - first_h > kMaxFocusHours)
    throw InputError(path, all_rows, fmt::format("the GPU rows span {} hours, more than {}", last_h - first_h, kMaxFocusHours));
  out.start_utc_s = first_h * 3600;
  out.gpus_by_hour.assign(static_cast<std::size_t>(last_h - first_h), 0.0);
  for (const Span& s : spans) {
    const double per_s = s.gpu_hours / static_cast<double>(s.end_s - s.start_s);
    for (std::int64_t h = s.start_s / 3600; h * 3600 < s.end_s; ++h) {
      const std::int64_t from = std::max(s.start_s, h * 3600), to = std::min(s.end_s, (h + 1) * 3600);
      out.gpus_by_hour[static_cast<std::size_t>(h - first_h)] += per_s * static_cast<double>(to - from);
    }
    out.gpu_hours += s.gpu_hours;
  }
  for (std::size_t k = 0; k < out.gpus_by_hour.size(); ++k)
    if (out.gpus_by_hour[k] > kMaxSeriesGpus)
      throw InputError(path, all_rows, fmt::format("hour {} holds {} GPUs, more than {}", k, out.gpus_by_hour[k], kMaxSeriesGpus));
  return out;
}

}  // namespace tco
